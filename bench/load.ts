// Runs one load in a child process (bench/load-child.ts) and returns its figures.
import { fork } from 'node:child_process';
import { join } from 'node:path';

export interface LoadRequest {
  path: string;
  body?: string;
}

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  /** Each request is one of these, drawn at random (seeded). */
  requests: LoadRequest[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
  seed?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Latency percentiles in ms, from every response of the measured run. */
  p50: number;
  p99: number;
  max: number;
  /** Non-2xx answers, connection errors and timeouts: must be 0. */
  errors: number;
  statusCodes: Record<string, number>;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = fork(join(__dirname, 'load-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (msg: { ok: boolean; result?: LoadResult; error?: string }) => {
      if (msg.ok) resolve(msg.result as LoadResult);
      else reject(new Error(`load generator failed: ${msg.error}`));
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(spec);
  });
}
