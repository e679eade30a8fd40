// The Idempotency-Key header (issue 29, item 7): a POST that creates or changes something,
// sent again with the same key by the same user within 24 h, gets the first answer again
// (status and body) and changes nothing; the same key with another request is 422. Keys
// live in the database: a second server on the file and a restarted one honour them, and
// two requests with one key at once never both write.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Reply } from '../helpers/api';
import { databaseChecksum } from '../helpers/checksum';
import { badObjectBody, foreignKeyBody } from '../helpers/errors';
import {
  createActivity,
  createProject,
  createUser,
  type TestUser,
  uniqueSlug,
} from '../helpers/factories';
import { bcryptHash, startTestServer, type TestServer } from '../helpers/server';

const REUSED = {
  status: 422,
  error: 'Idempotency key reused',
  text: 'Idempotency-Key was already used for a different request',
};
const IN_USE = {
  status: 409,
  error: 'Idempotency key in use',
  text: 'A request with this Idempotency-Key is still being answered; try again shortly',
};
const BAD_KEY = badObjectBody(
  'Field Idempotency-Key of request should be 1 to 255 visible ASCII characters other than a comma but was sent as string',
);

/** POST `path` with {auth, object} and, when given, an Idempotency-Key. */
function keyedPost(
  server: TestServer,
  path: string,
  token: string,
  object: unknown,
  key?: string,
): Promise<Reply> {
  return server.api.raw(`/v0${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify({ auth: { type: 'token', token }, object }),
  });
}

/** The user's time entries (any project), as listed. */
async function timesOf(server: TestServer, user: TestUser) {
  const res = await server.api.get('/times', user.token, { user: user.username });
  return res.body as { uuid: string; notes: string | null }[];
}

const day = '2026-03-02';

describe('Idempotency-Key on every POST that creates or changes', () => {
  let server: TestServer;
  let alice: TestUser;
  let project: string;
  let activity: string;
  before(async () => {
    server = await startTestServer();
    alice = await createUser(server);
    activity = (await createActivity(server)).slug;
    project = (
      await createProject(server, {
        default_activity: activity,
        users: { [alice.username]: { member: true } },
      })
    ).slugs[0] as string;
  });
  after(() => server.close());

  const time = (notes: string) => ({
    duration: 600,
    user: alice.username,
    project,
    activities: [activity],
    date_worked: day,
    notes,
  });

  /** Each write: what to send (made just before it is sent twice). */
  const writes: [string, () => Promise<{ path: string; token: string; object: unknown }>][] = [
    ['create a time', async () => ({ path: '/times', token: alice.token, object: time('once') })],
    [
      'update a time',
      async () => {
        const made = await keyedPost(server, '/times', alice.token, time('before'));
        const uuid = (made.body as { uuid: string }).uuid;
        return { path: `/times/${uuid}`, token: alice.token, object: { duration: 1200 } };
      },
    ],
    [
      'create a project',
      async () => {
        const slug = uniqueSlug('idem');
        return {
          path: '/projects',
          token: server.adminToken,
          object: { name: slug, slugs: [slug] },
        };
      },
    ],
    [
      'update a project',
      async () => ({
        path: `/projects/${project}`,
        token: server.adminToken,
        object: { name: 'X' },
      }),
    ],
    [
      'restore a project',
      async () => {
        const gone = await createProject(server);
        await server.api.del(`/projects/${gone.slugs[0]}`, server.adminToken);
        return { path: `/projects/${gone.uuid}/restore`, token: server.adminToken, object: {} };
      },
    ],
    [
      'create an activity',
      async () => {
        const slug = uniqueSlug('idem');
        return { path: '/activities', token: server.adminToken, object: { name: slug, slug } };
      },
    ],
    [
      'update an activity',
      async () => ({
        path: `/activities/${activity}`,
        token: server.adminToken,
        object: { name: `Renamed ${randomUUID()}` },
      }),
    ],
    [
      'restore an activity',
      async () => {
        const gone = await createActivity(server);
        await server.api.del(`/activities/${gone.slug}`, server.adminToken);
        return { path: `/activities/${gone.uuid}/restore`, token: server.adminToken, object: {} };
      },
    ],
    [
      'create a user',
      async () => ({
        path: '/users',
        token: server.adminToken,
        object: { username: uniqueSlug('idem'), password: bcryptHash('pw') },
      }),
    ],
    [
      'update a user',
      async () => ({
        path: `/users/${alice.username}`,
        token: alice.token,
        object: { meta: randomUUID() },
      }),
    ],
    [
      'create an org role',
      async () => {
        const slug = uniqueSlug('idem');
        return { path: '/users/org-roles', token: server.adminToken, object: { name: slug, slug } };
      },
    ],
    [
      'start the timer',
      async () => ({ path: '/timer', token: alice.token, object: { project, notes: 'timed' } }),
    ],
    // A duration: stopped at once, the clock's would be under one --timer-rounding step.
    [
      'stop the timer',
      async () => ({ path: '/timer/stop', token: alice.token, object: { duration: 60 } }),
    ],
  ];

  for (const [name, make] of writes) {
    it(`${name}: the same key gets the first answer again and changes nothing`, async () => {
      const { path, token, object } = await make();
      const key = randomUUID();
      const first = await keyedPost(server, path, token, object, key);
      assert.equal(first.status, 200, `${name}: ${first.text}`);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const before = databaseChecksum(server.dbFile);
      const again = await keyedPost(server, path, token, object, key);
      assert.equal(again.status, first.status);
      assert.equal(again.text, first.text, 'the same body, byte for byte');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(databaseChecksum(server.dbFile), before, `${name}: nothing changed`);
    });
  }

  it('without the header, a write sent twice is made twice (as before)', async () => {
    const before = (await timesOf(server, alice)).length;
    await keyedPost(server, '/times', alice.token, time('twice'));
    await keyedPost(server, '/times', alice.token, time('twice'));
    assert.equal((await timesOf(server, alice)).length, before + 2);
  });

  it('answers 422 to the same key with another body, path or method, changing nothing', async () => {
    const key = randomUUID();
    const first = await keyedPost(server, '/times', alice.token, time('first'), key);
    assert.equal(first.status, 200);
    const before = databaseChecksum(server.dbFile);
    const uuid = (first.body as { uuid: string }).uuid;
    for (const [path, object] of [
      ['/times', time('second')],
      ['/times', { ...time('first'), duration: 601 }],
      [`/times/${uuid}`, time('first')],
      ['/timer', { project }],
    ] as const) {
      const res = await keyedPost(server, path, alice.token, object, key);
      assert.deepEqual(res.body, REUSED, path);
    }
    assert.equal(databaseChecksum(server.dbFile), before);
  });

  it('takes a renewed token and keys in another order for the same request', async () => {
    const key = randomUUID();
    const first = await keyedPost(server, '/times', alice.token, time('order'), key);
    const renewed = await server.api.login(alice.username, alice.password);
    assert.notEqual(renewed, alice.token);
    const reordered = Object.fromEntries(Object.entries(time('order')).reverse());
    const again = await keyedPost(server, '/times', renewed, reordered, key);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    // A Bearer header instead of the auth block is the same request too.
    const bearer = await server.api.raw('/v0/times', {
      method: 'POST',
      headers: { Authorization: `Bearer ${renewed}`, 'Idempotency-Key': key },
      body: JSON.stringify({ object: time('order') }),
    });
    assert.equal(bearer.text, first.text);
  });

  it("keeps each user's keys apart", async () => {
    const key = randomUUID();
    const mine = await keyedPost(server, '/times', alice.token, time('mine'), key);
    const bob = await createUser(server);
    await server.api.post(`/projects/${project}`, server.adminToken, {
      users: { [alice.username]: { member: true }, [bob.username]: { member: true } },
    });
    const his = await keyedPost(
      server,
      '/times',
      bob.token,
      { ...time('his'), user: bob.username },
      key,
    );
    assert.equal(his.status, 200);
    assert.equal(his.headers.get('idempotent-replayed'), null);
    assert.notEqual((his.body as { uuid: string }).uuid, (mine.body as { uuid: string }).uuid);
  });

  it('gives a refusal again too: the first answer, whatever it was', async () => {
    const key = randomUUID();
    const object = { ...time('refused'), project: 'no-such-project' };
    const first = await keyedPost(server, '/times', alice.token, object, key);
    assert.deepEqual(first.body, foreignKeyBody('time', 'project'));
    const again = await keyedPost(server, '/times', alice.token, object, key);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });

  it('refuses a malformed key with kind 4, writing nothing', async () => {
    const before = databaseChecksum(server.dbFile);
    for (const key of ['', 'two words', 'a,b', 'x'.repeat(256), 'caf\u00e9']) {
      const res = await server.api.raw('/v0/times', {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice.token}`, 'Idempotency-Key': key },
        body: JSON.stringify({ object: time('bad key') }),
      });
      assert.deepEqual(res.body, BAD_KEY, JSON.stringify(key));
    }
    assert.equal(databaseChecksum(server.dbFile), before);
  });

  it('lets two requests with one key at once make one entry', async () => {
    const key = randomUUID();
    const before = (await timesOf(server, alice)).length;
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        keyedPost(server, '/times', alice.token, time('concurrent'), key),
      ),
    );
    assert.equal((await timesOf(server, alice)).length, before + 1);
    const made = replies.filter((r) => r.status === 200);
    assert.ok(made.length >= 1);
    assert.equal(new Set(made.map((r) => r.text)).size, 1, 'one entry in every 200');
    for (const r of replies.filter((r) => r.status !== 200)) {
      assert.deepEqual(r.body, IN_USE);
      assert.equal(r.headers.get('retry-after'), '1');
    }
  });

  it('forgets a key after 24 h, and deletes such keys as new ones come in', async () => {
    const key = randomUUID();
    const first = await keyedPost(server, '/times', alice.token, time('old'), key);
    const db = new Database(server.dbFile);
    try {
      const dayAgo = Date.now() - 24 * 60 * 60 * 1000 - 1000;
      db.prepare('UPDATE idempotency_keys SET created_at = ? WHERE key = ?').run(dayAgo, key);
      const insert = db.prepare(
        "INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at) VALUES (1, ?, '', ?)",
      );
      for (let i = 0; i < 20; i++) insert.run(`stale-${i}`, dayAgo - i);
      const again = await keyedPost(server, '/times', alice.token, time('old'), key);
      assert.equal(again.status, 200);
      assert.equal(again.headers.get('idempotent-replayed'), null);
      assert.notEqual((again.body as { uuid: string }).uuid, (first.body as { uuid: string }).uuid);
      const stale = db.prepare('SELECT count(*) FROM idempotency_keys WHERE created_at < ?');
      assert.equal(stale.pluck().get(Date.now() - 24 * 60 * 60 * 1000), 0);
    } finally {
      db.close();
    }
  });
});

describe('Idempotency-Key across servers on one file', () => {
  let first: TestServer;
  let second: TestServer;
  let alice: TestUser;
  let object: Record<string, unknown>;
  before(async () => {
    first = await startTestServer({ env: { TIMETRACK_LOCK_WAIT: '1' } });
    second = await startTestServer({ dbFile: first.dbFile });
    alice = await createUser(first);
    const activity = (await createActivity(first)).slug;
    const project = await createProject(first, {
      default_activity: activity,
      users: { [alice.username]: { member: true } },
    });
    object = { duration: 60, user: alice.username, project: project.slugs[0], date_worked: day };
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  it('is honoured by a second server and after a restart', async () => {
    const key = randomUUID();
    const made = await keyedPost(first, '/times', alice.token, object, key);
    assert.equal(made.status, 200);
    const elsewhere = await keyedPost(second, '/times', alice.token, object, key);
    assert.equal(elsewhere.text, made.text);
    await second.close();
    second = await startTestServer({ dbFile: first.dbFile });
    const restarted = await keyedPost(second, '/times', alice.token, object, key);
    assert.equal(restarted.text, made.text);
    assert.equal((await timesOf(first, alice)).length, 1);
  });

  it('makes one entry of requests with one key sent at once to both servers', async () => {
    const key = randomUUID();
    const before = (await timesOf(first, alice)).length;
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        keyedPost(i % 2 ? first : second, '/times', alice.token, object, key),
      ),
    );
    assert.equal((await timesOf(first, alice)).length, before + 1);
    const made = replies.filter((r) => r.status === 200);
    assert.equal(new Set(made.map((r) => r.text)).size, 1);
    for (const r of replies.filter((r) => r.status !== 200)) assert.deepEqual(r.body, IN_USE);
  });

  it('leaves the key unused when the write lock never came (503): the retry runs', async () => {
    const key = randomUUID();
    const before = (await timesOf(first, alice)).length;
    const holder = new Database(first.dbFile);
    holder.exec('BEGIN IMMEDIATE');
    let busy: Reply;
    try {
      busy = await keyedPost(first, '/times', alice.token, object, key);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    assert.equal(busy.status, 503);
    const retried = await keyedPost(first, '/times', alice.token, object, key);
    assert.equal(retried.status, 200);
    assert.equal(retried.headers.get('idempotent-replayed'), null);
    assert.equal((await timesOf(first, alice)).length, before + 1);
  });
});
