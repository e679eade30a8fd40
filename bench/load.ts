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

/** What one load run saw: every latency (ms) of the measured part. */
export interface RawLoad {
  latencies: number[];
  seconds: number;
  errors: number;
  statusCodes: Record<string, number>;
}

/** Figures of one or more runs of the same load, taken together. */
export function summarize(runs: RawLoad[]): LoadResult {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const r of runs) {
    for (const [code, n] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    statusCodes,
  };
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return summarize([await runRawLoad(spec)]);
}

/**
 * One load run; `onMeasuring` is called when its warm-up is over and the measured part
 * begins (the rename row times its renames into that part).
 */
export function runRawLoad(spec: LoadSpec, onMeasuring?: () => void): Promise<RawLoad> {
  const child = fork(join(__dirname, 'load-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on(
      'message',
      (msg: { measuring?: true; ok?: boolean; result?: RawLoad; error?: string }) => {
        if (msg.measuring) onMeasuring?.();
        else if (msg.ok) resolve(msg.result as RawLoad);
        else reject(new Error(`load generator failed: ${msg.error}`));
      },
    );
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(spec);
  });
}
