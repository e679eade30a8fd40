// Two server processes on one database file write the same objects at once. Writers
// take the lock up front (BEGIN IMMEDIATE) and wait with busy_timeout, so they queue:
// every update answered 200, revisions without gap or duplicate, no update lost, and a
// contested slug or username goes to exactly one creator (SPEC §8).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { WAITING_FOR_THE_WRITE_LOCK } from '../../../src/db/open';
import type { Api, Reply } from '../../helpers/api';
import { runCli, type ServeProcess, startServe } from '../../helpers/cli';
import { slugExistsBody, usernameExistsBody } from '../../helpers/errors';
import { ADMIN, bcryptHash, tempDir } from '../../helpers/server';

const ENV = {
  TIMETRACK_SECRET_KEY: 'race-secret-key-that-is-long-enough-0123456789',
  TIMETRACK_ADMIN_PASSWORD: ADMIN.password,
};

/** Runs `tasks` with at most `width` in flight. */
async function pool<T>(width: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

const statuses = (replies: Reply[]) =>
  replies.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});

describe('two server processes on one database file', () => {
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let dbFile: string;
  before(async () => {
    dbFile = join(tempDir(), 'race.db');
    a = await startServe(dbFile, ENV); // creates the first admin
    b = await startServe(dbFile, ENV);
    token = await a.api.login(ADMIN.username, ADMIN.password);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const both = (): [Api, Api] => [a.api, b.api];

  it('updates one project 200 times from each process (and the CLI writes): revisions 1..401, nothing lost', async () => {
    const created = await a.api.post('/projects', token, { name: 'start', slugs: ['race-proj'] });
    assert.equal(created.status, 200, created.text);
    const tasks = both().flatMap((api, p) =>
      Array.from(
        { length: 200 },
        (_, i) => () => api.post('/projects/race-proj', token, { name: `p${p}-${i}` }),
      ),
    );
    // The CLI writes to the same file meanwhile (SPEC §2.5: it works while serving).
    const cli = runCli(['admin', 'create-user', 'cli-user', '--password-stdin', '--db', dbFile], {
      input: 'cli-password\n',
    });
    const [replies, cliResult] = await Promise.all([pool(16, interleave(tasks)), cli]);
    assert.deepEqual(statuses(replies), { 200: 400 });
    assert.equal(cliResult.code, 0, cliResult.stderr);
    assert.ok(await b.api.login('cli-user', 'cli-password'));

    const res = await b.api.get('/projects/race-proj', token, { include_revisions: true });
    assert.equal(res.status, 200, res.text);
    const project = res.body as {
      revision: number;
      name: string;
      parents: { revision: number; name: string }[];
    };
    assert.equal(project.revision, 401);
    const revisions = [project.revision, ...project.parents.map((p) => p.revision)];
    assert.deepEqual(
      revisions,
      Array.from({ length: 401 }, (_, i) => 401 - i),
    );
    // Every name sent is one revision (no update overwrote another unrecorded).
    const names = [project.name, ...project.parents.map((p) => p.name)].filter(
      (n) => n !== 'start',
    );
    assert.equal(new Set(names).size, 400);
    // Each answer showed its own update as a distinct revision.
    const answered = replies.map((r) => (r.body as { revision: number }).revision);
    assert.equal(new Set(answered).size, 400);
  });

  it('loses no concurrent update of different fields of one user', async () => {
    const created = await a.api.post('/users', token, {
      username: 'race-user',
      password: bcryptHash('pw'),
    });
    assert.equal(created.status, 200, created.text);
    const roles = ['race-r1', 'race-r2'];
    for (const slug of roles) {
      assert.equal((await a.api.post('/users/org-roles', token, { name: slug, slug })).status, 200);
    }
    // Process A writes display_name, B writes meta, both rewrite org-roles; each request
    // carries only its own fields, so the final state must hold the last of each.
    const tasks = [
      ...Array.from(
        { length: 100 },
        (_, i) => () => a.api.post('/users/race-user', token, { display_name: `name ${i}` }),
      ),
      ...Array.from(
        { length: 100 },
        (_, i) => () => b.api.post('/users/race-user', token, { meta: `meta ${i}` }),
      ),
    ];
    // In order per process: each field's last write is its highest number.
    const [ra, rb] = await Promise.all([
      sequential(tasks.slice(0, 100)),
      sequential(tasks.slice(100)),
    ]);
    assert.deepEqual(statuses([...ra, ...rb]), { 200: 200 });
    const user = (await b.api.get('/users/race-user', token)).body as Record<string, unknown>;
    assert.equal(user.display_name, 'name 99');
    assert.equal(user.meta, 'meta 99');
  });

  it('applies an update that waited for another writer to what that writer committed', async () => {
    // Another process (here: this test, like the CLI would) holds the write lock and
    // changes one field while the server is asked to change another: the server's write
    // must wait and then build on the committed state, not on what it read before.
    assert.equal(
      (await a.api.post('/users/org-roles', token, { name: 'Waiter', slug: 'waiter' })).status,
      200,
    );
    assert.equal(
      (await a.api.post('/projects', token, { name: 'Waited', slugs: ['waited'] })).status,
      200,
    );
    const cases = [
      {
        outside: "UPDATE users SET meta = 'outside' WHERE username = 'race-user'",
        request: () => a.api.post('/users/race-user', token, { display_name: 'inside' }),
        check: async () => {
          const u = (await b.api.get('/users/race-user', token)).body as Record<string, unknown>;
          assert.deepEqual([u.display_name, u.meta], ['inside', 'outside']);
        },
      },
      {
        outside: "UPDATE org_roles SET name = 'Outside' WHERE slug = 'waiter'",
        request: () => a.api.post('/users/org-roles/waiter', token, { slug: 'waiter-2' }),
        check: async () => {
          const r = (await b.api.get('/users/org-roles/waiter-2', token)).body;
          assert.deepEqual(r, { name: 'Outside', slug: 'waiter-2' });
        },
      },
      {
        outside:
          "UPDATE projects SET uri = 'https://outside.example' WHERE uuid = (SELECT p.uuid FROM projects p JOIN project_slugs s ON s.project_id = p.id WHERE s.slug = 'waited')",
        request: () => a.api.post('/projects/waited', token, { name: 'inside' }),
        check: async () => {
          const p = (await b.api.get('/projects/waited', token)).body as Record<string, unknown>;
          assert.deepEqual([p.name, p.uri], ['inside', 'https://outside.example']);
        },
      },
    ];
    const db = new Database(dbFile);
    try {
      db.pragma('busy_timeout = 10000');
      for (const c of cases) {
        db.exec('BEGIN IMMEDIATE');
        db.exec(c.outside);
        const waiting = a.nextLog(WAITING_FOR_THE_WRITE_LOCK);
        const pending = c.request(); // reads now, then waits for the lock
        await waiting;
        db.exec('COMMIT');
        const res = await pending;
        assert.equal(res.status, 200, res.text);
        await c.check();
      }
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }
  });

  it('answers kind 3 when a referenced org role is deleted while the write waits', async () => {
    // The role exists when the request is checked but is gone (hard delete, committed by
    // another writer) when its write runs: the foreign key must be re-checked, not 500.
    const db = new Database(dbFile);
    try {
      db.pragma('busy_timeout = 10000');
      for (const [i, send] of [
        (slug: string) => a.api.post('/users/race-user', token, { 'org-roles': [slug] }),
        (slug: string) =>
          a.api.post('/users', token, { username: `late-${slug}`, 'org-roles': [slug] }),
      ].entries()) {
        const slug = `doomed-${i}`;
        assert.equal(
          (await a.api.post('/users/org-roles', token, { name: slug, slug })).status,
          200,
        );
        db.exec('BEGIN IMMEDIATE');
        db.prepare('DELETE FROM org_roles WHERE slug = ?').run(slug);
        const waiting = a.nextLog(WAITING_FOR_THE_WRITE_LOCK);
        const pending = send(slug);
        await waiting;
        db.exec('COMMIT');
        const res = await pending;
        assert.deepEqual(res.body, {
          status: 409,
          error: 'Invalid foreign key',
          text: 'The user does not contain a valid org-role reference',
        });
      }
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }
  });

  it('answers kind 3 when a default activity is deleted while the project write waits', async () => {
    const db = new Database(dbFile);
    try {
      db.pragma('busy_timeout = 10000');
      const sends = [
        (act: string) =>
          a.api.post('/projects', token, {
            name: act,
            slugs: [`with-${act}`],
            default_activity: act,
          }),
        (act: string) => a.api.post('/projects/race-proj', token, { default_activity: act }),
      ];
      for (const [i, send] of sends.entries()) {
        const act = `fading-${i}`;
        assert.equal(
          (await a.api.post('/activities', token, { name: act, slug: act })).status,
          200,
        );
        db.exec('BEGIN IMMEDIATE');
        db.prepare('UPDATE activities SET deleted_at = ? WHERE slug = ?').run(Date.now(), act);
        const waiting = a.nextLog(WAITING_FOR_THE_WRITE_LOCK);
        const pending = send(act);
        await waiting;
        db.exec('COMMIT');
        assert.deepEqual((await pending).body, {
          status: 409,
          error: 'Invalid foreign key',
          text: 'The project does not contain a valid default_activity reference',
        });
      }
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }
  });

  it('gives one slug to exactly one of 50 concurrent creates', async () => {
    const tasks = Array.from(
      { length: 50 },
      (_, i) => () =>
        (i % 2 ? a : b).api.post('/projects', token, {
          name: `contender ${i}`,
          slugs: ['one-slug'],
        }),
    );
    const replies = await Promise.all(tasks.map((t) => t()));
    assert.deepEqual(statuses(replies), { 200: 1, 409: 49 });
    for (const r of replies.filter((r) => r.status === 409)) {
      assert.deepEqual(r.body, slugExistsBody('one-slug'));
    }
    const list = await a.api.get('/projects', token);
    const holders = (list.body as { slugs: string[] }[]).filter((p) =>
      p.slugs.includes('one-slug'),
    );
    assert.equal(holders.length, 1);
  });

  it('gives one activity slug, org-role slug and username to exactly one creator each', async () => {
    const cases: [string, (i: number) => unknown, unknown][] = [
      ['/activities', (i) => ({ name: `act ${i}`, slug: 'one-act' }), slugExistsBody('one-act')],
      [
        '/users/org-roles',
        (i) => ({ name: `role ${i}`, slug: 'one-role' }),
        slugExistsBody('one-role'),
      ],
      [
        '/users',
        () => ({ username: 'one-name', password: bcryptHash('pw') }),
        usernameExistsBody('one-name'),
      ],
    ];
    for (const [path, object, refused] of cases) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).api.post(path, token, object(i))),
      );
      assert.deepEqual(statuses(replies), { 200: 1, 409: 49 }, path);
      for (const r of replies.filter((r) => r.status === 409)) assert.deepEqual(r.body, refused);
    }
  });
});

/** Alternates the first and second half so both processes are busy at once. */
function interleave<T>(tasks: T[]): T[] {
  const half = tasks.length / 2;
  return tasks.slice(0, half).flatMap((t, i) => [t, tasks[half + i] as T]);
}

async function sequential<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const t of tasks) out.push(await t());
  return out;
}
