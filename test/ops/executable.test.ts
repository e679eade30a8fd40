// Smoke test of the real executable (issue 6): dist/timetrack, copied alone into an empty
// directory and run with nothing around it — the environment of `env -i PATH=/usr/bin:/bin
// HOME=<tmp>`, no node_modules, no sql/, no source tree.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, type TestContext, test } from 'node:test';
import { createApi } from '../helpers/api';
import { tempDir } from '../helpers/server';

const BUILT = join(__dirname, '../..', 'dist', 'timetrack');
const VERSION = (require('../../package.json') as { version: string }).version;
const ALICE = { username: 'alice', password: 'alice-password-1' };

// Without a build the test cannot run: a hint locally, a failure in CI (.ci/run builds first).
const missing = !existsSync(BUILT);
if (missing && process.env.CI === 'true') {
  test('dist/timetrack exists in CI', () => {
    assert.fail('dist/timetrack is missing: `npm run build` must run before the tests');
  });
}
const smoke = missing
  ? (name: string, _fn: (t: TestContext) => Promise<void>) =>
      test(name, { skip: 'dist/timetrack is missing: run `npm run build` first' })
  : (name: string, fn: (t: TestContext) => Promise<void>) => test(name, { timeout: 30_000 }, fn);

let dir: string;
let exe: string;
const children = new Set<ChildProcess>();

before(() => {
  if (missing) return;
  dir = tempDir('timetrack-exe-');
  exe = join(dir, 'timetrack');
  copyFileSync(BUILT, exe);
  chmodSync(exe, 0o755);
});

after(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** `env -i PATH=/usr/bin:/bin HOME=<home>` plus `extra`. */
function bareEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', HOME: home, ...extra };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the executable to its end, in `cwd`, feeding `input` on stdin. */
function run(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(exe, args, { cwd: opts.cwd, env: opts.env });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

interface Serving {
  child: ChildProcess;
  url: string;
  /** ms from spawn to the first answer of GET /health. */
  startMs: number;
  exited: Promise<number | null>;
}

/** Starts `serve --port 0` and waits for its `listening` log line and a /health answer. */
async function serve(cwd: string, db: string): Promise<Serving> {
  const started = performance.now();
  const child = spawn(exe, ['serve', '--port', '0', '--db', db], { cwd, env: bareEnv(dir) });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) resolve(entry.url);
    });
    exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
  const health = await fetch(`${url}/health`);
  const startMs = performance.now() - started;
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: 'ok' });
  return { child, url, startMs, exited };
}

/** SIGTERM must end the server with exit code 0 within 5 s. */
async function stop(server: Serving): Promise<number> {
  const t0 = performance.now();
  server.child.kill('SIGTERM');
  const code = await Promise.race([
    server.exited,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5_000).unref()),
  ]);
  assert.equal(code, 0, 'exit code after SIGTERM (or "timeout" after 5 s)');
  return performance.now() - t0;
}

smoke('--version prints the version and the commit; --help lists the commands', async () => {
  const v = await run(['--version'], { cwd: dir, env: bareEnv(dir) });
  assert.equal(v.code, 0);
  assert.match(
    v.stdout,
    new RegExp(`^${VERSION.replaceAll('.', '\\.')} \\(([0-9a-f]{7,}|unknown)\\)\\n$`),
  );
  const h = await run(['--help'], { cwd: dir, env: bareEnv(dir) });
  assert.equal(h.code, 0);
  assert.match(h.stdout, /timetrack serve +run the TimeSync API server/);
  assert.match(h.stdout, /timetrack admin +administer an instance/);
});

smoke(
  'create a user, serve, log in, create and read a project, stop, restart from the db file alone',
  async (t) => {
    // create-user: the first use unpacks the SQLite addon into $HOME/.cache/timetrack/<hash>/
    const created = await run(
      [
        'admin',
        'create-user',
        ALICE.username,
        '--site-admin',
        '--password-stdin',
        '--db',
        './timetrack.db',
      ],
      { cwd: dir, env: bareEnv(dir), input: `${ALICE.password}\n` },
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^Created user 'alice'/);
    // The two libraries it carries, each under its own content hash.
    const cache = join(dir, '.cache', 'timetrack');
    const cached = readdirSync(cache).flatMap((hash) => readdirSync(join(cache, hash)));
    assert.deepEqual(cached.sort(), ['better_sqlite3.node', 'json_rows.so']);

    const first = await serve(dir, './timetrack.db');
    const api = createApi(first.url);
    const token = await api.login(ALICE.username, ALICE.password);
    const project = { name: 'Smoke Test', slugs: ['smoke'], uri: 'https://example.com/smoke' };
    const made = await api.post('/projects', token, project);
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.name, 'Smoke Test');
    const read = await api.get('/projects/smoke', token);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      { name: read.body.name, slugs: read.body.slugs, uri: read.body.uri, uuid: read.body.uuid },
      { ...project, uuid: made.body.uuid },
    );
    // The web app travels inside: the page and its hashed script, precompressed.
    const page = await fetch(`${first.url}/timesheet`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    const script = /src="(\/assets\/main-\w+\.js)"/.exec(await page.text())?.[1];
    assert.ok(script, 'index.html names its script');
    const js = await fetch(`${first.url}${script}`, { headers: { 'Accept-Encoding': 'br' } });
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-encoding'), 'br');
    assert.match(await js.text(), /\S/);
    const stopMs = await stop(first);

    // The database file alone (the WAL was folded in on stop) serves the same data.
    const moved = join(dir, 'moved');
    mkdirSync(moved);
    copyFileSync(join(dir, 'timetrack.db'), join(moved, 'timetrack.db'));
    const second = await serve(moved, './timetrack.db');
    const again = createApi(second.url);
    const token2 = await again.login(ALICE.username, ALICE.password);
    const reread = await again.get('/projects/smoke', token2);
    assert.equal(reread.status, 200, reread.text);
    assert.equal(reread.body.uuid, made.body.uuid);
    assert.equal(reread.body.name, 'Smoke Test');
    await stop(second);

    const sizeMb = statSync(exe).size / 1e6;
    t.diagnostic(
      `executable ${sizeMb.toFixed(1)} MB; spawn to first /health answer ${first.startMs.toFixed(0)} ms (first serve), ${second.startMs.toFixed(0)} ms (restart); SIGTERM to exit ${stopMs.toFixed(0)} ms`,
    );
  },
);

smoke('no writable cache directory: one line on stderr, exit code 1', async () => {
  const notADir = join(dir, 'a-file');
  writeFileSync(notADir, '');
  const r = await run(['admin', 'create-user', 'bob', '--password-stdin', '--db', './other.db'], {
    cwd: dir,
    env: bareEnv(notADir),
    input: 'bob-password-1\n',
  });
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `timetrack: no usable cache directory for the SQLite addon (tried ${notADir}/.cache/timetrack: ENOTDIR); set TIMETRACK_CACHE_DIR to a writable directory not mounted noexec\n`,
  );
});
