// The real Litestream (0.3.13, the binary of the npm package @flydotio/litestream-linux-x64)
// replicating a database to a file:// replica in a temporary directory, as an operator
// runs it beside `timetrack serve`: `litestream replicate`, `restore`, `generations`.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The binary, or undefined where npm did not install the package (not Linux x64). */
export function litestreamBinary(): string | undefined {
  try {
    const dir = dirname(require.resolve('@flydotio/litestream-linux-x64/package.json'));
    const binary = join(dir, 'litestream');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Litestream's default sync interval, which the tests keep: their RPO is the default's. */
export const SYNC_INTERVAL_MS = 1000;

/**
 * Litestream copies new WAL frames to its shadow WAL every second (monitor-interval) and
 * the shadow WAL to the replica after that and every sync interval, each on its own
 * timer. So a copy *to the replica* begun this long after a moment (one monitor interval
 * and half a second for the shadow copy itself) holds every frame committed before it.
 */
export const SETTLED_MS = 1500;

/**
 * After the last write a copy to the replica begins within one monitor interval plus one
 * sync interval (the replica waits for its ticker); none in progress after this long
 * means there is nothing left to copy.
 */
export const QUIET_MS = 2500;

export interface Replication {
  /** The litestream.yml written for this database. */
  config: string;
  /** Everything Litestream logged so far. */
  log(): string;
  /**
   * Resolves once everything committed before `since` (ms since the epoch) is in the
   * replica (see SETTLED_MS).
   */
  synced(since: number): Promise<void>;
  /** Generations in the replica (a new one means a new full snapshot). */
  generations(): Promise<string[]>;
  /** `litestream restore` into `output` (optionally as of `timestamp`, RFC 3339). */
  restore(output: string, timestamp?: string): Promise<void>;
  stop(): Promise<void>;
  /** kill -9: no last copy on the way out, as when the machine dies. */
  kill(): Promise<void>;
}

export function startLitestream(dbFile: string, replicaDir: string): Replication {
  const binary = litestreamBinary();
  if (!binary) throw new Error('the Litestream binary is missing: npm ci installs it');
  const config = join(dirname(replicaDir), 'litestream.yml');
  writeFileSync(
    config,
    `dbs:\n  - path: ${dbFile}\n    replicas:\n      - type: file\n        path: ${replicaDir}\n        sync-interval: ${SYNC_INTERVAL_MS / 1000}s\n`,
  );
  const child: ChildProcess = spawn(binary, ['replicate', '-config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (d: Buffer) => {
    text += d;
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  /** Lines of the log as {time, msg}, Litestream's logfmt read just enough. */
  const events = () =>
    text.split('\n').flatMap((line) => {
      const m = /^time=(\S+) level=\w+ msg="?([^"=]+?)"? \w+=/.exec(line);
      return m?.[1] && m[2] ? [{ time: Date.parse(m[1]), msg: m[2] }] : [];
    });
  return {
    config,
    log: () => text,
    synced(since) {
      return new Promise((resolve, reject) => {
        const check = () => {
          let begun = false;
          let writing = false;
          for (const e of events()) {
            if (e.msg === 'write wal segment') {
              begun = e.time >= since + SETTLED_MS;
              writing = true;
            } else if (e.msg === 'wal segment written') {
              writing = false;
              if (begun) return done();
            }
          }
          if (!writing && Date.now() >= since + QUIET_MS) done();
        };
        const done = () => {
          listeners.delete(check);
          clearTimeout(timer);
          resolve();
        };
        // With no writes after `since` no segment follows: nothing tells that there is
        // nothing left to copy but a quiet period.
        const timer = setTimeout(check, since + QUIET_MS - Date.now());
        listeners.add(check);
        child.once('close', () => reject(new Error(`litestream exited:\n${text}`)));
        check();
      });
    },
    async generations() {
      const { stdout } = await run(binary, ['generations', '-config', config, dbFile]);
      return stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/\s+/)[1] ?? '');
    },
    async restore(output, timestamp) {
      const args = ['restore', '-config', config, '-o', output];
      if (timestamp) args.push('-timestamp', timestamp);
      await run(binary, [...args, dbFile]);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
