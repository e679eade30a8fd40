// Renaming the slugs of a project with 100,000 time entries, and an activity's slug (issue
// 30): an entry's project and activity slugs are joined when it is read, not copied into
// it, so the rename writes a few small rows. What a user sees after it: every entry, read
// alone or in any list, shows the new slugs; the old ones are refused as any unknown slug
// is. How long the renames take is printed as a diagnostic, not asserted (the benchmark
// measures it: `npm run bench -- --rows rename`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { Reply } from '../../helpers/api';
import { insertTimes } from '../../helpers/bulk';
import { runCli } from '../../helpers/cli';
import { badQueryBody, foreignKeyBody, notFoundBody } from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const ALICE_ENTRIES = 60_000;
const BOB_ENTRIES = 40_000;
const BIG = ALICE_ENTRIES + BOB_ENTRIES;

interface Time {
  uuid: string;
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
}

describe('renaming a project of 100,000 entries, and an activity', () => {
  let server: TestServer;
  let admin: string;
  let alice: TestUser;
  let bob: TestUser;
  /** Entries of the big project read alone: the first, middle and last of each user's. */
  const samples: { uuid: string; user: TestUser; activity: string }[] = [];
  /** Alice's entry with two activities ('alpha', 'mid'), and hers in the small project. */
  let pair: Time;
  let elsewhere: Time;
  /** How long writing the entries took, ms (a diagnostic). */
  let writtenMs = 0;

  const ok = <T>(res: Reply<T>): T => {
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const timeOf = async (uuid: string, user: TestUser) =>
    ok(await server.api.get<Time>(`/times/${uuid}`, user.token));
  /** A whole list as plain JSON (100,000 entries: read without the per-reply schema check). */
  const wholeList = async (query: Record<string, string>) => {
    const params = new URLSearchParams({ token: admin, ...query });
    const res = await fetch(`${server.url}/v0/times?${params}`);
    assert.equal(res.status, 200);
    const times = (await res.json()) as Time[];
    assert.equal(Number(res.headers.get('x-total-count')), times.length);
    return times;
  };
  const rename = async (t: { diagnostic(message: string): void }, path: string, object: object) => {
    const started = performance.now();
    const body = ok(await server.api.post(path, admin, object));
    t.diagnostic(`POST /v0${path}: ${(performance.now() - started).toFixed(1)} ms`);
    return body;
  };

  before(async () => {
    server = await startTestServer();
    admin = server.adminToken;
    alice = await createUser(server);
    bob = await createUser(server);
    for (const slug of ['alpha', 'beta', 'mid']) await createActivity(server, { slug });
    const members = { [alice.username]: { member: true }, [bob.username]: { member: true } };
    await createProject(server, { slugs: ['big', 'big-alias'], users: members });
    await createProject(server, { slugs: ['small'], users: members });

    // The entries are written while no server runs (as an import would): a write of seconds
    // in this process would hold the server's event loop, and the sockets it then times
    // out would fail the next requests.
    await server.close();
    const started = performance.now();
    const base = Date.UTC(2024, 0, 1);
    insertTimes(server.dbFile, {
      username: alice.username,
      project: 'big',
      activity: 'alpha',
      count: ALICE_ENTRIES,
      duration: (i) => 60 * (1 + (i % 30)),
      createdAt: (i) => base + i * 1000,
    });
    insertTimes(server.dbFile, {
      username: bob.username,
      project: 'big',
      activity: 'beta',
      count: BOB_ENTRIES,
      duration: (i) => 60 * (1 + (i % 30)),
      createdAt: (i) => base + i * 1000,
    });
    writtenMs = performance.now() - started;
    server = await startTestServer({ dbFile: server.dbFile });
    admin = server.adminToken;
    const db = new Database(server.dbFile, { readonly: true });
    const uuids = db
      .prepare(`SELECT uuid FROM times WHERE user_id = (SELECT id FROM users WHERE username = ?)
        ORDER BY id`)
      .pluck();
    for (const [user, activity] of [
      [alice, 'alpha'],
      [bob, 'beta'],
    ] as const) {
      const all = uuids.all(user.username) as string[];
      for (const uuid of [all[0], all[all.length >> 1], all.at(-1)]) {
        samples.push({ uuid: uuid as string, user, activity });
      }
    }
    db.close();
    const create = (object: object) => server.api.post<Time>('/times', alice.token, object);
    const entry = { duration: 600, user: alice.username, date_worked: '2020-03-15' };
    pair = ok(await create({ ...entry, project: 'big', activities: ['mid', 'alpha'] }));
    elsewhere = ok(await create({ ...entry, project: 'small', activities: ['alpha'] }));
  });
  after(() => server.close());

  it('shows the entries with the slugs they had before (the starting point)', async (t) => {
    t.diagnostic(`${BIG} entries written in ${(writtenMs / 1000).toFixed(1)} s`);
    assert.deepEqual(pair.project, ['big', 'big-alias']);
    assert.deepEqual(pair.activities, ['alpha', 'mid']);
    const first = samples[0] as (typeof samples)[number];
    assert.deepEqual((await timeOf(first.uuid, first.user)).project, ['big', 'big-alias']);
  });

  it("renames the project's slugs, and every entry shows the new ones", async (t) => {
    const project = await rename(t, '/projects/big', { slugs: ['huge', 'huge-alias'] });
    assert.deepEqual(project.slugs, ['huge', 'huge-alias']);

    for (const s of samples) {
      const time = await timeOf(s.uuid, s.user);
      assert.deepEqual([time.uuid, time.project], [s.uuid, ['huge', 'huge-alias']]);
    }
    assert.deepEqual((await timeOf(pair.uuid, alice)).project, ['huge', 'huge-alias']);
    assert.deepEqual((await timeOf(elsewhere.uuid, alice)).project, ['small']);

    // A user's month (through the checked client): every entry of the project renamed,
    // the one elsewhere not.
    const month = await server.api.get<Time[]>('/times', alice.token, {
      user: alice.username,
      start: '2020-03-01',
      end: '2020-03-31',
    });
    const listed = ok(month);
    assert.ok(listed.length > 1000, `${listed.length} entries in the month`);
    for (const time of listed) {
      const expected = time.uuid === elsewhere.uuid ? ['small'] : ['huge', 'huge-alias'];
      assert.deepEqual(time.project, expected, time.uuid);
    }

    // The project's whole list, by the new slug and by the new alias.
    const byNew = await wholeList({ project: 'huge' });
    assert.equal(byNew.length, BIG + 1);
    assert.ok(byNew.every((time) => time.project.join() === 'huge,huge-alias'));
    const byAlias = ok(await server.api.get('/times', admin, { project: 'huge-alias', limit: 1 }));
    assert.equal(byAlias.length, 1);
    const alias = await server.api.get('/times', admin, { project: 'huge-alias', limit: 1 });
    assert.equal(alias.headers.get('x-total-count'), String(BIG + 1));
  });

  it('refuses the old slugs as it refuses any unknown slug', async () => {
    for (const old of ['big', 'big-alias']) {
      const get = await server.api.get(`/projects/${old}`, admin);
      assert.deepEqual([get.status, get.body], [404, notFoundBody('project')]);
      const list = await server.api.get('/times', admin, { project: old });
      assert.deepEqual([list.status, list.body], [400, badQueryBody('project', old)]);
      const create = await server.api.post('/times', alice.token, {
        duration: 60,
        user: alice.username,
        project: old,
        activities: ['alpha'],
        date_worked: '2024-01-01',
      });
      assert.deepEqual([create.status, create.body], [409, foreignKeyBody('time', 'project')]);
    }
  });

  it('gives the released slug to a new project without moving the entries', async () => {
    const newcomer = await createProject(server, { slugs: ['big'] });
    assert.deepEqual(newcomer.slugs, ['big']);
    const listed = await server.api.get('/times', admin, { project: 'big' });
    assert.deepEqual([listed.status, listed.body], [200, []]);
    const first = samples[0] as (typeof samples)[number];
    assert.deepEqual((await timeOf(first.uuid, first.user)).project, ['huge', 'huge-alias']);
  });

  it("renames an activity's slug, and every entry that has it shows the new one", async (t) => {
    const activity = await rename(t, '/activities/alpha', { slug: 'zulu' });
    assert.equal(activity.slug, 'zulu');

    for (const s of samples) {
      const expected = s.activity === 'alpha' ? ['zulu'] : [s.activity];
      assert.deepEqual((await timeOf(s.uuid, s.user)).activities, expected, s.uuid);
    }
    // Slugs are listed in order, so the renamed one moves after 'mid'.
    assert.deepEqual((await timeOf(pair.uuid, alice)).activities, ['mid', 'zulu']);
    assert.deepEqual((await timeOf(elsewhere.uuid, alice)).activities, ['zulu']);

    const byNew = await wholeList({ activity: 'zulu' });
    assert.equal(byNew.length, ALICE_ENTRIES + 2);
    assert.ok(byNew.every((time) => time.user === alice.username));
    assert.ok(byNew.every((time) => time.activities.includes('zulu')));
    const bobs = await wholeList({ user: bob.username });
    assert.equal(bobs.length, BOB_ENTRIES);
    assert.ok(bobs.every((time) => time.activities.join() === 'beta'));

    const old = await server.api.get('/times', admin, { activity: 'alpha' });
    assert.deepEqual([old.status, old.body], [400, badQueryBody('activity', 'alpha')]);
  });

  it('renames both again and again, each read right after its rename', async (t) => {
    let project = 'huge';
    let activity = 'zulu';
    const s = samples[1] as (typeof samples)[number]; // alice's, with the activity
    for (let i = 1; i <= 5; i++) {
      project = (await rename(t, `/projects/${project}`, { slugs: [`huge-${i}`] })).slugs[0];
      activity = (await rename(t, `/activities/${activity}`, { slug: `act-${i}` })).slug;
      const time = await timeOf(s.uuid, s.user);
      assert.deepEqual([time.project, time.activities], [[`huge-${i}`], [`act-${i}`]]);
    }
  });

  it("leaves what `admin check` compares right: every entry's JSON as computed afresh", async () => {
    const res = await runCli(['admin', 'check', '--db', server.dbFile]);
    assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
  });
});
