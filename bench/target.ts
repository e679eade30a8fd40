// The server under test: the built executable (else the bundle, else the sources) started
// as its own process on a copy of the benchmark database. Knows its pid for RSS samples.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');

export interface TargetCommand {
  kind: 'executable' | 'bundle' | 'source';
  command: string;
  args: string[];
}

/** The most "shipped" form of timetrack that exists in the tree. */
export function targetCommand(): TargetCommand {
  const exe = join(ROOT, 'dist/timetrack');
  try {
    accessSync(exe, constants.X_OK);
    return { kind: 'executable', command: exe, args: [] };
  } catch {
    // not built as an executable (yet)
  }
  const bundle = join(ROOT, 'dist/timetrack.cjs');
  if (existsSync(bundle)) return { kind: 'bundle', command: process.execPath, args: [bundle] };
  return SOURCE;
}

const SOURCE: TargetCommand = {
  kind: 'source',
  command: process.execPath,
  args: ['--import', 'tsx', join(ROOT, 'src/main.ts')],
};

export interface Target {
  kind: TargetCommand['kind'];
  pid: number;
  url: string;
  /** Spawn to first 200 from /health, ms. */
  startupMs: number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the server must know its port before it logs anything). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startTarget(options: {
  db: string;
  logFile: string;
  env: Record<string, string>;
  /** Write a V8 CPU profile of the server here. */
  profileDir?: string;
  /** Benchmark this executable instead of dist/ (e.g. an older build, for before/after). */
  executable?: string;
}): Promise<Target> {
  // The executable refuses --cpu-prof (NODE_OPTIONS) and the bundle alone cannot find the
  // native addon, so a profile is taken from the sources: the same code, run by node.
  const cmd: TargetCommand = options.profileDir
    ? SOURCE
    : options.executable
      ? { kind: 'executable', command: options.executable, args: [] }
      : targetCommand();
  const port = await freePort();
  const log = openSync(options.logFile, 'w');
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  const args = [...profile, ...cmd.args, 'serve', '--db', options.db, '--port', String(port)];
  const env = { ...process.env, ...options.env };
  const started = performance.now();
  // Logs go to a file, not a pipe: the server must never wait on the bench to read them.
  const child = spawn(cmd.command, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  // Never leave a server behind, even when the bench fails half-way.
  process.once('exit', () => child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  for (;;) {
    if (dead)
      throw new Error(`${cmd.kind} exited before answering /health; see ${options.logFile}`);
    if (await healthy(url)) break;
    if (performance.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`no /health answer after 60 s; see ${options.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const startupMs = performance.now() - started;
  return {
    kind: cmd.kind,
    pid: child.pid as number,
    url,
    startupMs,
    stop: () => stopChild(child, exited),
  };
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** npm run build; on failure, says so and leaves whatever is in dist/ to be measured. */
export function buildExecutable(say: (line: string) => void): void {
  say('npm run build ...');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${e.stdout ?? ''}${e.stderr ?? ''}`);
    say(`build failed; benchmarking the ${targetCommand().kind} that is there`);
  }
}

export function executableSize(): number | undefined {
  try {
    return statSync(join(ROOT, 'dist/timetrack')).size;
  } catch {
    return undefined;
  }
}

/** How long a bare node and `timetrack --version` take to start here (median of 3), ms. */
export function processStarts(): { node: number; version: number } | undefined {
  const cmd = targetCommand();
  const median = (command: string, args: string[]) => {
    const runs = [0, 1, 2].map(() => {
      const started = performance.now();
      execFileSync(command, args, { stdio: 'ignore' });
      return performance.now() - started;
    });
    return runs.sort((a, b) => a - b)[1] as number;
  };
  try {
    return {
      node: median(process.execPath, ['-e', '0']),
      version: median(cmd.command, [...cmd.args, '--version']),
    };
  } catch {
    return undefined;
  }
}
