// The `timetrack` command line (SPEC §2.5, §8.1), run from source as child processes:
// exit codes, admin create-user / set-password (also while a server runs), serve's
// first administrator and its graceful stop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SETTINGS } from '../../src/config';
import { assertUserError, childEnv, runCli, type ServeProcess, startServe } from '../helpers/cli';
import { startTestServer, type TestServer, tempDir } from '../helpers/server';

const ROOT = join(__dirname, '../..');

/** util-linux `script` gives the command a pseudo-terminal, as a person at a prompt has. */
const SCRIPT = existsSync('/usr/bin/script');

/**
 * Runs `timetrack <args>` on a pseudo-terminal; for each [prompt, keys] waits until the
 * output shows the prompt, then types the keys. `output` is what the terminal showed.
 */
function runOnTerminal(args: string[], dialog: [string, string][]) {
  const command = [process.execPath, '--import', 'tsx', 'src/main.ts', ...args]
    .map((a) => `'${a}'`)
    .join(' ');
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let shown = 0;
    let step = 0;
    child.stdout?.on('data', (d) => {
      output += d;
      const next = dialog[step];
      const at = next ? output.indexOf(next[0], shown) : -1;
      if (next && at >= 0) {
        shown = at + next[0].length;
        step++;
        child.stdin?.write(next[1]);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('timetrack admin', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const canLogIn = async (username: string, password: string) => {
    const token = await server.api.login(username, password);
    return (await server.api.get(`/users/${username}`, token)).body as Record<string, unknown>;
  };

  it('creates a user from --password-stdin while the server runs on the same file', async () => {
    const res = await runCli(
      [
        'admin',
        'create-user',
        'Carol',
        '--db',
        server.dbFile,
        '--site-manager',
        '--display-name',
        'Carol C',
        '--email',
        'carol@example.com',
        '--password-stdin',
      ],
      { input: 'first line is the password\nsecond line is ignored\n' },
    );
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `Created user 'Carol' (site manager) in ${server.dbFile}\n`);
    const user = await canLogIn('carol', 'first line is the password');
    assert.equal(user.username, 'Carol');
    assert.equal(user.display_name, 'Carol C');
    assert.equal(user.email, 'carol@example.com');
    assert.equal(user.site_manager, true);
    assert.equal(user.site_admin, false);
  });

  it('takes the password without its CRLF line ending', async () => {
    const res = await runCli(
      ['admin', 'create-user', 'dave', '--db', server.dbFile, '--password-stdin'],
      { input: 'windows-pass\r\n' },
    );
    assert.equal(res.code, 0, res.stderr);
    await canLogIn('dave', 'windows-pass');
  });

  it('takes the password from TIMETRACK_ADMIN_PASSWORD', async () => {
    const res = await runCli(
      ['admin', 'create-user', 'erin', '--db', server.dbFile, '--site-admin'],
      {
        env: { TIMETRACK_ADMIN_PASSWORD: 'from-the-environment' },
      },
    );
    assert.equal(res.code, 0, res.stderr);
    const user = await canLogIn('erin', 'from-the-environment');
    assert.equal(user.site_admin, true);
  });

  it('takes --db from TIMETRACK_DB', async () => {
    const res = await runCli(['admin', 'create-user', 'frank', '--password-stdin'], {
      env: { TIMETRACK_DB: server.dbFile },
      input: 'env-db-pass',
    });
    assert.equal(res.code, 0, res.stderr);
    await canLogIn('frank', 'env-db-pass');
  });

  it('refuses an existing username in any case: exit 1, one line', async () => {
    const res = await runCli(
      ['admin', 'create-user', 'ADMIN', '--db', server.dbFile, '--password-stdin'],
      {
        input: 'whatever',
      },
    );
    assertUserError(res, /^timetrack: user 'ADMIN' already exists\n$/);
  });

  it('refuses an invalid username and a missing password: exit 1, one line', async () => {
    for (const username of ['bad name', 'org-roles']) {
      const res = await runCli(['admin', 'create-user', username, '--db', server.dbFile], {
        env: { TIMETRACK_ADMIN_PASSWORD: 'x-password' },
      });
      assertUserError(res, /is not a valid username/);
    }
    const email = await runCli(
      ['admin', 'create-user', 'nomail', '--db', server.dbFile, '--email', 'x@y'],
      {
        env: { TIMETRACK_ADMIN_PASSWORD: 'x-password' },
      },
    );
    assertUserError(email, /^timetrack: 'x@y' is not an email address\n$/);
    const none = await runCli(['admin', 'create-user', 'nopass', '--db', server.dbFile]);
    assertUserError(none, /no password given/);
    const empty = await runCli(
      ['admin', 'create-user', 'nopass', '--db', server.dbFile, '--password-stdin'],
      {
        input: '\n',
      },
    );
    assertUserError(empty, /may not be empty/);
    assert.equal((await server.api.get('/users/nopass', server.adminToken)).status, 404);
  });

  it('resets a password with set-password; the old one stops working', async () => {
    const res = await runCli(
      ['admin', 'set-password', 'DAVE', '--db', server.dbFile, '--password-stdin'],
      {
        input: 'a-brand-new-one\n',
      },
    );
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, "Set the password of 'dave'\n");
    await canLogIn('dave', 'a-brand-new-one');
    await assert.rejects(server.api.login('dave', 'windows-pass'));
    const unknown = await runCli(['admin', 'set-password', 'nobody', '--db', server.dbFile], {
      env: { TIMETRACK_ADMIN_PASSWORD: 'x' },
    });
    assertUserError(unknown, /^timetrack: no user 'nobody'\n$/);
  });

  it('names the file it cannot open, in one line', async () => {
    const dir = tempDir();
    const missing = join(dir, 'no-such-dir', 'x.db');
    const res = await runCli(
      ['admin', 'create-user', 'gina', '--db', missing, '--password-stdin'],
      {
        input: 'pw',
      },
    );
    assertUserError(
      res,
      /^timetrack: cannot open the database .*no-such-dir.*directory does not exist/,
    );
    const notDb = join(dir, 'not-a-db.txt');
    writeFileSync(notDb, 'just text, not SQLite\n'.repeat(100));
    const text = await runCli(
      ['admin', 'set-password', 'gina', '--db', notDb, '--password-stdin'],
      {
        input: 'pw',
      },
    );
    assertUserError(
      text,
      /^timetrack: cannot open the database .*not-a-db\.txt: file is not a database/,
    );
  });

  it('asks twice on a terminal without echoing the password', { skip: !SCRIPT }, async () => {
    const typed = 'typed-on-a-tty';
    const res = await runOnTerminal(
      ['admin', 'create-user', 'hana', '--db', server.dbFile],
      [
        ['Password: ', `${typed}\r`],
        ['Password (again): ', `${typed}\r`],
      ],
    );
    assert.equal(res.code, 0, res.output);
    assert.ok(!res.output.includes(typed), `echoed: ${JSON.stringify(res.output)}`);
    assert.ok(!res.output.includes('\u001b['), 'the prompt is not erased by escape sequences');
    await canLogIn('hana', typed);

    const differ = await runOnTerminal(
      ['admin', 'create-user', 'ivan', '--db', server.dbFile],
      [
        ['Password: ', 'one-password\r'],
        ['Password (again): ', 'another-one\r'],
      ],
    );
    assert.equal(differ.code, 1);
    assert.match(differ.output, /timetrack: the two passwords differ/);
    const cancelled = await runOnTerminal(
      ['admin', 'create-user', 'ivan', '--db', server.dbFile],
      [['Password: ', 'half\x03']],
    );
    assert.equal(cancelled.code, 1);
    assert.match(cancelled.output, /timetrack: cancelled/);
    assert.equal((await server.api.get('/users/ivan', server.adminToken)).status, 404);
  });

  it('answers bad usage with exit 2', async () => {
    for (const args of [
      ['admin', 'no-such-command'],
      ['no-such-command'],
      ['admin', 'create-user', 'x', '--no-such-option'],
      ['admin', 'create-user'],
      [],
    ]) {
      const res = await runCli(args);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.doesNotMatch(res.stderr, /\n\s+at /);
    }
  });
});

describe('timetrack --version and --help', () => {
  it('prints the version and the commit', async () => {
    const res = await runCli(['--version']);
    assert.equal(res.code, 0);
    assert.match(res.stdout, /^\d+\.\d+\.\d+ \((\w+)\)\n$/);
  });

  it('lists every setting of serve in serve --help', async () => {
    const res = await runCli(['serve', '--help']);
    assert.equal(res.code, 0);
    for (const s of SETTINGS) {
      if (!('envOnly' in s && s.envOnly)) assert.ok(res.stdout.includes(`--${s.flag}`), s.flag);
      assert.ok(res.stdout.includes(s.env), s.env);
    }
  });

  it('refuses a bad setting with exit 1 and one line', async () => {
    const dir = tempDir();
    const res = await runCli(['serve', '--port', 'eighty', '--db', join(dir, 'x.db')]);
    assertUserError(res, /--port \/ PORT must be a whole number/);
    const missing = join(dir, 'no-such-dir', 'x.db');
    const db = await runCli(['serve', '--port', '0', '--db', missing]);
    assertUserError(db, /^timetrack: cannot open the database .*directory does not exist\n$/);
  });
});

describe('timetrack serve', () => {
  it('creates the first admin on an empty database, prints the password once, stops cleanly', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'fresh.db');
    // At debug level the log says when a request's headers are read (see below).
    const serve = await startServe(dbFile, { LOG_LEVEL: 'debug' });
    const { api, child } = serve;
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const match = /administrator 'admin' with password (\S+) \(shown only this once\)/.exec(
        serve.stderr(),
      );
      assert.ok(match?.[1], serve.stderr());
      assert.match(
        serve.stderr(),
        /Log in with: curl -X POST http:\/\/127\.0\.0\.1:PORT\/v0\/login/,
      );
      const token = await api.login('admin', match[1]);
      const me = await api.get('/users/admin', token);
      assert.equal(me.body.site_admin, true);
      const created = await api.post('/users', token, { username: 'written-before-stop' });
      assert.equal(created.status, 200);
      assert.ok(!serve.stdout().includes(match[1]), 'the password is not in the logs');
      assert.ok(!serve.stdout().includes(token), 'the token is not in the logs');

      // A request in flight when SIGTERM arrives is still answered in full.
      const reply = await requestAcrossStop(serve, match[1]);
      assert.match(reply, /^HTTP\/1\.1 200 /);
      assert.match(reply, /\{"token":"[\w-]+\.[\w-]+\.[\w-]+"\}$/);
    } finally {
      if (child.exitCode === null && !child.killed) child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, serve.stderr());
    assert.ok(!existsSync(`${dbFile}-wal`) || statSync(`${dbFile}-wal`).size === 0, 'WAL folded');

    // The .db file alone holds everything written before the stop.
    const copy = join(dir, 'copy.db');
    copyFileSync(dbFile, copy);
    const db = new Database(copy, { readonly: true });
    try {
      const names = db.prepare('SELECT username FROM users ORDER BY id').pluck().all();
      assert.deepEqual(names, ['admin', 'written-before-stop']);
    } finally {
      db.close();
    }
  });
});

/**
 * Sends a login whose body arrives in two halves and stops the server in between: the
 * request is in flight (its headers read, the handler waiting for its body) when the
 * server starts to stop, and the second half comes once it no longer accepts. Both
 * moments are the server's own log lines.
 */
function requestAcrossStop(serve: ServeProcess, password: string): Promise<string> {
  const { hostname, port } = new URL(serve.url);
  const body = JSON.stringify({ auth: { type: 'password', username: 'admin', password } });
  const half = Math.floor(body.length / 2);
  return new Promise((resolve, reject) => {
    let reply = '';
    const socket = connect(Number(port), hostname, () => {
      const started = serve.nextLog('request started');
      socket.write(
        `POST /v0/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
      );
      started
        .then(() => {
          const stopping = serve.nextLog('stopping');
          serve.child.kill('SIGTERM');
          return stopping;
        })
        .then(() => {
          socket.write(body.slice(half)); // not end(): a half-closed request is aborted by node:http
        }, reject);
    });
    socket.on('data', (d) => {
      reply += d;
    });
    socket.on('close', () => resolve(reply));
    socket.on('error', reject);
  });
}
