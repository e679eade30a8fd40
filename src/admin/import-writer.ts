// The writer thread of `admin import-from` (import-writer-worker.ts): the engine hands it each
// batch's plan and goes on checking the next batch while it is written. Its answers come
// in the order the plans went.

import { nativeFiles } from '../db/native';
import { importWriterSource } from '../embedded';
import { startWorker } from '../heap-growth';
import { type ImportPlan, planBuffers } from '../importers/plan';
import type {
  ImportWriterData,
  ImportWriterInput,
  ImportWriterReply,
} from './import-writer-worker';

export interface ImportWriterThread {
  /** Settles once the plan is committed; rejects with why it was not (nothing written). */
  write(plan: ImportPlan): Promise<void>;
  /** Closes the thread's connection once what was handed over is written. */
  close(): Promise<void>;
}

export async function startImportWriter(
  file: string,
  cacheKib: number,
): Promise<ImportWriterThread> {
  const data: ImportWriterData = { file, ...nativeFiles(), cacheKib };
  const worker = startWorker(await importWriterSource(), { eval: true, workerData: data });
  const waiting: { resolve: () => void; reject: (err: Error) => void }[] = [];
  let broken: Error | undefined;
  let closed: (() => void) | undefined;
  const fail = (err: Error) => {
    broken ??= err;
    for (const w of waiting.splice(0)) w.reject(broken);
    closed?.();
  };
  worker.on('message', (reply: ImportWriterReply) => {
    if ('closed' in reply) {
      closed?.();
      return;
    }
    const w = waiting.shift();
    if ('written' in reply) w?.resolve();
    else w?.reject(new Error(reply.failed));
  });
  worker.on('error', (err) => fail(err));
  worker.on('exit', () => fail(new Error('the import writer thread stopped')));
  const post = (input: ImportWriterInput, transfer?: ArrayBuffer[]) =>
    worker.postMessage(input, transfer);
  return {
    write(plan) {
      if (broken) return Promise.reject(broken);
      return new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject });
        post(plan, planBuffers(plan));
      });
    },
    async close() {
      if (!broken) {
        await new Promise<void>((resolve) => {
          closed = resolve;
          post('close');
        });
      }
      await worker.terminate();
    },
  };
}
