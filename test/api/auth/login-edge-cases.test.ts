// Issue 19, "Hardening, round 2" — the login items: auth.type that is not a string (8),
// foreign Authorization schemes (12), expired login_failures rows (10), and the bounded,
// droppable bcrypt queue with per-address accounting (3). Real HTTP, real server on
// port 0, temporary SQLite file. The bcrypt tests count what the worker pool did
// (through the server's internal `bcrypt.onEvent` hook) instead of timing it.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import Database from 'better-sqlite3';
import { createPasswordHasher, type HasherEvent } from '../../../src/auth/password';
import { SWEEP_BATCH } from '../../../src/auth/throttle';
import { authenticationBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('auth.type that is not a string (item 8)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers kind 7 at /login, never a 500 with a stack trace', async () => {
    const cases: [unknown, string][] = [
      [{ toString: 1 }, 'Invalid authentication type'],
      [{ toString: 1, valueOf: 1 }, 'Invalid authentication type'],
      [['password'], 'Invalid authentication type'],
      [5, 'Invalid authentication type'],
      [null, 'Invalid authentication type'],
      ['kerberos', 'kerberos is not a valid authentication type'],
    ];
    for (const [type, text] of cases) {
      const res = await server.api.raw(
        '/v0/login',
        json({ auth: { type, username: 'admin', password: 'x' } }),
      );
      assert.deepEqual(res.body, authenticationBody(text), JSON.stringify(type));
    }
    assert.ok(!server.logs.some((line) => line.includes('unexpected error')), 'no 500 logged');
  });

  it('answers kind 7 in the auth block of any other POST', async () => {
    const cases: [unknown, string][] = [
      [{ toString: 1 }, 'Invalid authentication type'],
      [7, 'Invalid authentication type'],
      ['password', 'password is not a valid authentication type'],
    ];
    for (const [type, text] of cases) {
      const res = await server.api.raw(
        '/v0/users',
        json({ auth: { type, token: server.adminToken }, object: {} }),
      );
      assert.deepEqual(res.body, authenticationBody(text), JSON.stringify(type));
    }
    assert.ok(!server.logs.some((line) => line.includes('unexpected error')), 'no 500 logged');
  });
});

describe('Authorization schemes other than Bearer (item 12)', () => {
  let server: TestServer;
  let user: TestUser;
  before(async () => {
    server = await startTestServer();
    user = await createUser(server);
  });
  after(() => server.close());

  it('ignores a Basic header (a reverse proxy’s own) beside a valid ?token=', async () => {
    const res = await server.api.raw(`/v0/users/${user.username}?token=${user.token}`, {
      headers: { Authorization: 'Basic cHJveHk6c2VjcmV0' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as { username: string }).username, user.username);
  });

  it('ignores it beside a token in a POST auth block', async () => {
    const res = await server.api.raw(`/v0/users/${user.username}`, {
      ...json({ auth: { type: 'token', token: user.token }, object: { meta: 'via proxy' } }),
      headers: { 'Content-Type': 'application/json', Authorization: 'Digest username="proxy"' },
    });
    assert.equal(res.status, 200, res.text);
  });

  it('still refuses a malformed Bearer header, even beside a valid ?token=', async () => {
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'bearer  ']) {
      const res = await server.api.raw(`/v0/users?token=${user.token}`, {
        headers: { Authorization: header },
      });
      assert.deepEqual(res.body, authenticationBody('Malformed Authorization header'), header);
    }
  });
});

describe('login_failures rows of expired windows (item 10)', () => {
  const WINDOW_MS = 600_000; // the default TIMETRACK_LOGIN_WINDOW
  const EXPIRED = 2 * SWEEP_BATCH + 5;
  let server: TestServer;
  let db: Database.Database;
  before(async () => {
    server = await startTestServer();
    // What earlier failures leave behind: one row per name tried. The writes come from
    // this test's own connection, as from a second process on the file.
    db = new Database(server.dbFile);
    db.pragma('busy_timeout = 10000');
    const insert = db.prepare(
      'INSERT INTO login_failures (username, failures, window_started_at) VALUES (?, ?, ?)',
    );
    const now = Date.now();
    db.transaction(() => {
      for (let i = 0; i < EXPIRED; i++) insert.run(`gone-${i}`, 1 + (i % 10), now - WINDOW_MS - 1);
      for (let i = 0; i < 5; i++) insert.run(`live-${i}`, 3, now - 1000);
    })();
  });
  after(async () => {
    db.close();
    await server.close();
  });

  const count = (pattern: string) =>
    db.prepare('SELECT count(*) FROM login_failures WHERE username LIKE ?').pluck().get(pattern);

  it('deletes them as failed logins come in, a bounded number per login', async () => {
    const wrong = (i: number) =>
      server.api.raw(
        '/v0/login',
        json({ auth: { type: 'password', username: `sweeper-${i}`, password: 'wrong' } }),
      );
    assert.equal((await wrong(0)).status, 401);
    const left = count('gone-%') as number;
    assert.ok(left < EXPIRED, 'some expired rows are gone after one failed login');
    assert.ok(left >= EXPIRED - SWEEP_BATCH, `one login deleted ${EXPIRED - left} rows`);
    let logins = 1;
    while ((count('gone-%') as number) > 0 && logins < 10) await wrong(logins++);
    assert.equal(count('gone-%'), 0, `expired rows left after ${logins} failed logins`);
    // Rows of the current window stay and still count.
    assert.equal(count('live-%'), 5);
    assert.equal(count('sweeper-%'), logins);
  });
});

const INVALID = authenticationBody('Invalid username or password');
const TOO_MANY = authenticationBody('Too many failed logins; try again later');
const BUSY = authenticationBody('Too many logins at once; try again later');

const passwordLogin = (server: TestServer, username: string, password: string) =>
  server.api.raw('/v0/login', json({ auth: { type: 'password', username, password } }));

function assertRetryAfter(res: { headers: Headers }) {
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After ${res.headers.get('retry-after')}`);
}

/** Counts the bcrypt pool's events and resolves `until(condition)` on the event that makes it true. */
function bcryptEvents() {
  const counts: Record<HasherEvent, number> = {
    queued: 0,
    started: 0,
    finished: 0,
    dropped: 0,
    refused: 0,
    exited: 0,
  };
  const waiting = new Set<{ done: () => boolean; resolve: () => void }>();
  const onEvent = (event: HasherEvent) => {
    counts[event]++;
    for (const w of waiting) {
      if (w.done()) {
        waiting.delete(w);
        w.resolve();
      }
    }
  };
  const until = (done: () => boolean) =>
    done() ? Promise.resolve() : new Promise<void>((resolve) => waiting.add({ done, resolve }));
  return { counts, onEvent, until };
}

/**
 * A user whose stored hash has cost 13 (~0.5-1 s per check, 8x a client's cost 10): its
 * login keeps the single bcrypt worker busy while the test lines other logins up behind it.
 */
const SLOW = { username: 'slow-checker', password: 'slow-password' };
const SLOW_HASH = bcrypt.hashSync(SLOW.password, 13).replace(/^\$2b\$/, '$2a$');

async function createSlowUser(server: TestServer) {
  const res = await server.api.post('/users', server.adminToken, {
    username: SLOW.username,
    password: SLOW_HASH,
  });
  assert.equal(res.status, 200, res.text);
}

// A guard against a hang if an awaited event never comes, not a timing assertion.
const GUARD = { timeout: 120_000 };

describe('bcrypt worker threads with nothing to do', GUARD, () => {
  it('exit, and the next password check starts one again', async (t) => {
    const events = bcryptEvents();
    const hasher = createPasswordHasher(2, { onEvent: events.onEvent, idleExitMs: 50 });
    t.after(() => hasher.close());
    assert.equal(hasher.workers(), 0, 'none before the first task');
    const hash = await hasher.hash('a password');
    assert.equal(hasher.workers(), 1);
    await events.until(() => events.counts.exited === 1);
    assert.equal(hasher.workers(), 0, 'none once idle');
    // Both workers of a burst exit; the checks still answer right meanwhile.
    const checks = await Promise.all([
      hasher.compare('a password', hash),
      hasher.compare('another', hash),
    ]);
    assert.deepEqual(checks, [true, false]);
    // Two more exits: the burst started two workers. (Counting the live ones here raced
    // the first of them exiting while a loaded machine still ran the other's check.)
    await events.until(() => events.counts.exited === 3);
    assert.equal(hasher.workers(), 0);
    assert.equal(await hasher.compare('a password', hash), true);
  });
});

describe('a bcrypt worker that dies', GUARD, () => {
  it('fails only the check it was running, and the next check runs on a new worker', async (t) => {
    const events = bcryptEvents();
    const threads: Worker[] = [];
    const hasher = createPasswordHasher(1, {
      onEvent: events.onEvent,
      onWorker: (worker) => threads.push(worker),
    });
    t.after(() => hasher.close());
    // One worker: a slow check runs on it, a quick one waits behind it.
    const running = hasher.compare(SLOW.password, SLOW_HASH);
    const waiting = hasher.compare('quick', bcrypt.hashSync('quick', 4));
    await events.until(() => events.counts.started === 1 && events.counts.queued === 1);
    await threads[0]?.terminate(); // as a crash of the thread would end it
    await assert.rejects(running, /a bcrypt worker stopped/);
    assert.equal(await waiting, true, 'the waiting check ran');
    assert.equal(threads.length, 2, 'on a new worker');
    assert.equal(hasher.workers(), 1);
  });
});

describe('bounded bcrypt queue (item 3)', GUARD, () => {
  it('refuses a login at once with kind 7 and Retry-After when the queue is full', async () => {
    const events = bcryptEvents();
    // One worker, one waiting place: one check running, one waiting, the next refused.
    const server = await startTestServer({
      env: { TIMETRACK_LOGIN_QUEUE_PER_WORKER: '1' },
      bcrypt: { workers: 1, onEvent: events.onEvent },
    });
    try {
      await createSlowUser(server);
      const before = { ...events.counts };
      const running = passwordLogin(server, SLOW.username, SLOW.password);
      await events.until(() => events.counts.started === before.started + 1);
      const waiting = passwordLogin(server, 'nobody-waits-here', 'x');
      await events.until(() => events.counts.queued === before.queued + 1);

      const refused = await passwordLogin(server, ADMIN.username, ADMIN.password);
      assert.deepEqual(refused.body, BUSY);
      assertRetryAfter(refused);
      // Answered while the first check still ran: no bcrypt work finished for it.
      assert.equal(events.counts.finished, before.finished, 'answered before any check ended');
      assert.equal(events.counts.refused, before.refused + 1);

      assert.equal((await running).status, 200);
      assert.deepEqual((await waiting).body, INVALID);
      // Refusal is not a failure: the same login goes through once there is room.
      assert.equal((await passwordLogin(server, ADMIN.username, ADMIN.password)).status, 200);
    } finally {
      await server.close();
    }
  });

  it('drops the waiting checks of clients that have gone, never running them', async () => {
    const N = 20;
    const events = bcryptEvents();
    const server = await startTestServer({ bcrypt: { workers: 1, onEvent: events.onEvent } });
    try {
      await createSlowUser(server);
      const port = Number(new URL(server.url).port);
      const before = { ...events.counts };
      const running = passwordLogin(server, SLOW.username, SLOW.password);
      await events.until(() => events.counts.started === before.started + 1);

      // N logins for distinct names (no per-username throttling), each on its own connection.
      const flood = Array.from({ length: N }, (_, i) => {
        const req = request({
          host: '127.0.0.1',
          port,
          path: '/v0/login',
          method: 'POST',
          agent: false,
          headers: { 'Content-Type': 'application/json' },
        });
        req.on('error', () => {}); // reset by our own destroy()
        req.end(
          JSON.stringify({ auth: { type: 'password', username: `flood-${i}`, password: 'x' } }),
        );
        return req;
      });
      await events.until(
        () =>
          events.counts.queued === before.queued + N || events.counts.finished > before.finished,
      );
      assert.equal(events.counts.queued, before.queued + N, 'all N wait behind the slow check');

      for (const req of flood) req.destroy();
      // Each flood check is now either dropped or (if its turn came first) started.
      const settled = () =>
        events.counts.dropped - before.dropped + (events.counts.started - before.started - 1);
      await events.until(() => settled() === N);
      assert.equal((await running).status, 200);

      const login = await passwordLogin(server, ADMIN.username, ADMIN.password);
      assert.equal(login.status, 200, login.text);
      const ran = events.counts.started - before.started - 2; // minus the slow and this login
      const dropped = events.counts.dropped - before.dropped;
      assert.ok(ran < N, `${ran} of ${N} abandoned checks ran`);
      assert.equal(ran + dropped, N);
      const gone = server.logs.filter(
        (line) => line.includes('"path":"/v0/login"') && line.includes('"status":499'),
      );
      assert.equal(gone.length, dropped, 'each dropped login is logged as 499');
    } finally {
      await server.close();
    }
  });
});

describe('failed logins per client address (item 3)', () => {
  const LIMIT = 5;
  let server: TestServer;
  let user: TestUser;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_LOGIN_MAX_FAILURES_PER_IP: String(LIMIT) },
    });
    // Its successful logins (the admin's, this user's) do not count against the address.
    user = await createUser(server);
    await server.api.login(user.username, user.password);
  });
  after(() => server.close());

  it('refuses an address that failed across many distinct usernames', async () => {
    // One failure per name (far below the per-username limit of 10); a name that breaks
    // the username rule is still checked against the dummy hash, so it counts as well.
    const names = ['spray-1', 'spray-2', 'not a valid username', 'spray-4', user.username];
    assert.equal(names.length, LIMIT);
    for (const name of names) {
      assert.deepEqual((await passwordLogin(server, name, 'wrong')).body, INVALID, name);
    }
    const next = await passwordLogin(server, 'spray-6', 'wrong');
    assert.deepEqual(next.body, TOO_MANY);
    assertRetryAfter(next);
    // The right password does not help from this address, for any user.
    const right = await passwordLogin(server, user.username, user.password);
    assert.deepEqual(right.body, TOO_MANY);
    assertRetryAfter(right);
    assert.deepEqual((await passwordLogin(server, ADMIN.username, ADMIN.password)).body, TOO_MANY);
  });
});
