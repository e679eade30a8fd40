// Runs inside a worker thread: bcrypt is CPU-bound for ~70 ms per hash at cost 10 and
// must not block the event loop that serves other requests.
import { parentPort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';

export interface BcryptTask {
  id: number;
  op: 'hash' | 'compare';
  password: string;
  hash?: string;
  cost?: number;
}

parentPort?.on('message', (task: BcryptTask) => {
  try {
    const result =
      task.op === 'hash'
        ? bcrypt.hashSync(task.password, task.cost ?? 10)
        : bcrypt.compareSync(task.password, task.hash ?? '');
    parentPort?.postMessage({ id: task.id, result });
  } catch (err) {
    parentPort?.postMessage({ id: task.id, error: (err as Error).message });
  }
});
