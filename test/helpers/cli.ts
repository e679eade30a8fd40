// Runs `timetrack` from source as a child process (node --import tsx src/main.ts), the
// way an operator runs it: one-shot commands to their end, or `serve` in the background.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Api, createApi } from './api';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Our environment without any setting that would change a child's defaults. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('TIMETRACK_') && !['PORT', 'HOST', 'LOG_LEVEL'].includes(key)) {
      env[key] = value;
    }
  }
  return { ...env, ...extra };
}

export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs `timetrack <args>` to its end. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options.env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.input ?? '');
  });
}

/** A user error: exit 1, exactly one line on stderr, no stack trace. */
export function assertUserError(res: CliResult, pattern: RegExp): void {
  assert.equal(res.code, 1, res.stderr);
  assert.match(res.stderr, pattern);
  assert.equal(res.stderr.trimEnd().split('\n').length, 1, res.stderr);
  assert.doesNotMatch(res.stderr, /\n\s+at /);
}

export interface ServeProcess {
  url: string;
  api: Api;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles once the log has a line, written from now on, whose message is `msg`. */
  nextLog(msg: string): Promise<void>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `timetrack serve --port 0 --db <file>` and waits until it listens. */
export async function startServe(
  dbFile: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawnCli(['serve', '--port', '0', '--db', dbFile], env);
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // The whole log is kept: tests check what it does (not) show.
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  /** The first whole log line from offset `from` on whose message is `msg`, parsed. */
  const logLine = (msg: string, from: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const field = `"msg":${JSON.stringify(msg)}`;
      // After the listener above: `stdout` has the new data when this one runs.
      const written = () => {
        const at = stdout.indexOf(field, from);
        const end = at < 0 ? -1 : stdout.indexOf('\n', at);
        if (end < 0) return; // not written yet, or not to its end
        child.stdout?.off('data', written);
        resolve(JSON.parse(stdout.slice(stdout.lastIndexOf('\n', at) + 1, end)));
      };
      child.stdout?.on('data', written);
      child.once('close', () => reject(new Error(`serve exited: ${stderr}`)));
    });
  const url = String((await logLine('listening', 0)).url);
  return {
    url,
    api: createApi(url),
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    nextLog: async (msg) => {
      await logLine(msg, stdout.length);
    },
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
