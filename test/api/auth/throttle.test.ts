// Login throttling (SPEC §2.2): per username, case-insensitive, kept in the database so
// every process on the file sees it, kind 7 with Retry-After, configurable, 0 disables,
// unknown usernames counted alike, a success resets, other users unaffected.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Reply } from '../../helpers/api';
import { createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const TOO_MANY = {
  status: 401,
  error: 'Authentication failure',
  text: 'Too many failed logins; try again later',
};
const INVALID = {
  status: 401,
  error: 'Authentication failure',
  text: 'Invalid username or password',
};

const login = (server: TestServer, username: string, password: string): Promise<Reply> =>
  server.api.raw('/v0/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: { type: 'password', username, password } }),
  });

function assertBlocked(res: Reply, windowSeconds: number) {
  assert.deepEqual(res.body, TOO_MANY);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retry) && retry >= 1 && retry <= windowSeconds,
    `Retry-After ${retry}`,
  );
}

// The window is long enough that the failed logins and the checks fit in it however slow
// the machine; its end is reached by moving its start back in the database.
describe('login throttling (3 failures in a 60 s window)', () => {
  const WINDOW = 60;
  let server: TestServer;
  let second: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    const env = { TIMETRACK_LOGIN_MAX_FAILURES: '3', TIMETRACK_LOGIN_WINDOW: String(WINDOW) };
    server = await startTestServer({ env });
    // A second process-like server on the same file: the count lives in the database.
    second = await startTestServer({ env, dbFile: server.dbFile });
    alice = await createUser(server);
    bob = await createUser(server);
  });
  after(async () => {
    await second.close();
    await server.close();
  });

  it('blocks a username after 3 failures, in any case, even with the right password', async () => {
    for (const name of [alice.username, alice.username.toUpperCase(), alice.username]) {
      assert.deepEqual((await login(server, name, 'wrong')).body, INVALID);
    }
    assertBlocked(await login(server, alice.username, alice.password), WINDOW);
    assertBlocked(await login(server, alice.username.toUpperCase(), 'wrong'), WINDOW);
  });

  it('is seen by a second server on the same database file', async () => {
    assertBlocked(await login(second, alice.username, alice.password), WINDOW);
  });

  it('does not affect other users, whose logins succeed at once', async () => {
    const started = performance.now();
    const res = await login(server, bob.username, bob.password);
    assert.equal(res.status, 200, res.text);
    assert.ok(performance.now() - started < 2000);
  });

  /** Moves the start of `username`'s window to `ago` ms before now. */
  const windowStarted = (username: string, ago: number) => {
    const db = new Database(server.dbFile);
    try {
      db.pragma('busy_timeout = 5000');
      const { changes } = db
        .prepare('UPDATE login_failures SET window_started_at = ? WHERE username = ?')
        .run(Date.now() - ago, username);
      assert.equal(changes, 1, `${username} has no failures counted`);
    } finally {
      db.close();
    }
  };

  it('unblocks when the window has passed', async () => {
    // 30 s before its end: still blocked, for at most those 30 s.
    windowStarted(alice.username, (WINDOW - 30) * 1000);
    assertBlocked(await login(second, alice.username, alice.password), 30);
    windowStarted(alice.username, WINDOW * 1000 + 100);
    const res = await login(second, alice.username, alice.password);
    assert.equal(res.status, 200, res.text);
  });

  it('counts unknown usernames the same way, with the same answers', async () => {
    const ghost = 'nobody-by-that-name';
    for (let i = 0; i < 3; i++) {
      assert.deepEqual((await login(server, ghost, 'x')).body, INVALID);
    }
    assertBlocked(await login(server, ghost, 'x'), WINDOW);
  });

  it('resets the count on a successful login', async () => {
    const u = await createUser(server);
    await login(server, u.username, 'wrong');
    await login(server, u.username, 'wrong');
    assert.equal((await login(server, u.username, u.password)).status, 200);
    await login(server, u.username, 'wrong');
    await login(server, u.username, 'wrong');
    assert.equal((await login(server, u.username, u.password)).status, 200, 'count was reset');
    for (let i = 0; i < 3; i++) await login(server, u.username, 'wrong');
    assertBlocked(await login(server, u.username, u.password), WINDOW);
  });

  it('allows exactly 3 guesses when 12 arrive at once, across two servers', async () => {
    const u = await createUser(server);
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(i % 2 ? server : second, u.username, `guess${i}`)),
    );
    const texts = replies.map((r) => (r.body as { text: string }).text);
    assert.equal(texts.filter((t) => t === INVALID.text).length, 3, texts.join('\n'));
    assert.equal(texts.filter((t) => t === TOO_MANY.text).length, 9, texts.join('\n'));
  });
});

describe('login throttling defaults and switches', () => {
  it('blocks after 10 failures within 10 minutes by default', async () => {
    const server = await startTestServer();
    try {
      const u = await createUser(server);
      for (let i = 0; i < 10; i++) {
        assert.deepEqual((await login(server, u.username, 'wrong')).body, INVALID);
      }
      assertBlocked(await login(server, u.username, u.password), 600);
    } finally {
      await server.close();
    }
  });

  const switches: Record<string, string>[] = [
    { TIMETRACK_LOGIN_MAX_FAILURES: '0' },
    { TIMETRACK_LOGIN_WINDOW: '0' },
  ];
  for (const env of switches) {
    it(`is disabled by ${Object.keys(env)[0]}=0`, async () => {
      const server = await startTestServer({ env });
      try {
        const u = await createUser(server);
        const wrong = await Promise.all(
          Array.from({ length: 15 }, () => login(server, u.username, 'wrong')),
        );
        for (const res of wrong) assert.deepEqual(res.body, INVALID);
        assert.equal((await login(server, u.username, u.password)).status, 200);
      } finally {
        await server.close();
      }
    });
  }
});
