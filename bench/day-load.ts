// Runs one working day in a child process (bench/day-child.ts) and returns what it saw.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { DayRequest, DayResult } from './day-play';

export function runDay(req: DayRequest): Promise<DayResult> {
  const child = fork(join(__dirname, 'day-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    cwd: join(__dirname, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (msg: { ok: boolean; result?: DayResult; error?: string }) => {
      if (msg.ok) resolve(msg.result as DayResult);
      else reject(new Error(`day load generator failed: ${msg.error}`));
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`day load generator exited with ${code}`));
    });
    child.send(req);
  });
}
