// Time entries through HTTP (SPEC §3, §4.3, §5, §6): fields and validation, the
// visibility and permission matrix, revisions, delete and restore, list filters.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../../src/db/open';
import type { Reply } from '../../helpers/api';
import {
  authorizationBody,
  badObjectBody,
  badQueryBody,
  foreignKeyBody,
  invalidIdentifierBody,
  notFoundBody,
  requestFailureBody,
} from '../../helpers/errors';
import {
  createActivity,
  createProject,
  createUser,
  type TestUser,
  uniqueSlug,
} from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';
import { clearOfMidnight } from '../../helpers/timer-clock';

/** Today (UTC), taken in before() once clear of midnight: the file's run sees one day. */
let TODAY = '';
const NO_SUCH_UUID = '0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Role = { member?: boolean; spectator?: boolean; manager?: boolean };
type Time = Record<string, any> & { uuid: string };

let server: TestServer;
let admin: TestUser;

before(async () => {
  await clearOfMidnight();
  TODAY = new Date().toISOString().slice(0, 10);
  server = await startTestServer();
  admin = { username: ADMIN.username, password: ADMIN.password, token: server.adminToken };
});
after(() => server.close());

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

const activity = async () => (await createActivity(server)).slug;

/** A fresh project with these members (and further fields); answers its slug. */
const project = async (users: Record<string, Role>, extra: Record<string, unknown> = {}) =>
  (await createProject(server, { users, ...extra })).slugs[0] as string;

const createTime = (token: string, object: Record<string, unknown>) =>
  server.api.post<Time>('/times', token, object);
const updateTime = (token: string, uuid: string, object: Record<string, unknown>) =>
  server.api.post<Time>(`/times/${uuid}`, token, object);

async function listUuids(token: string, query: Record<string, any> = {}): Promise<string[]> {
  return ok(await server.api.get<Time[]>('/times', token, query)).map((t) => t.uuid);
}

/** The elements of `list` that are in `among`, keeping list order. */
const only = (list: string[], among: Time[]) => list.filter((u) => among.some((t) => t.uuid === u));

describe('creating a time', () => {
  let owner: TestUser;
  let docs: string;
  let dev: string;
  let withDefault: string;
  let noDefault: string;
  let base: Record<string, unknown>;

  before(async () => {
    owner = await createUser(server);
    docs = await activity();
    dev = await activity();
    withDefault = await project({ [owner.username]: { member: true } }, { default_activity: docs });
    noDefault = await project({ [owner.username]: { member: true } });
    base = {
      duration: 3600,
      user: owner.username,
      project: withDefault,
      date_worked: '2024-02-29',
    };
  });

  it('answers the full object as GET shows it, project as all its slugs', async () => {
    const alias = uniqueSlug('alias');
    ok(
      await server.api.post(`/projects/${withDefault}`, server.adminToken, {
        slugs: [withDefault, alias],
      }),
    );
    const time = ok(
      await createTime(owner.token, {
        ...base,
        project: alias,
        activities: [dev, docs],
        issue_uri: 'https://example.com/issues/1',
        notes: 'Wrote the docs',
      }),
    );
    assert.match(time.uuid, UUID_V4);
    assert.deepEqual(time, {
      uuid: time.uuid,
      revision: 1,
      duration: 3600,
      user: owner.username,
      project: [withDefault, alias],
      activities: [dev, docs].sort(),
      date_worked: '2024-02-29',
      start_time: null,
      issue_uri: 'https://example.com/issues/1',
      notes: 'Wrote the docs',
      created_at: TODAY,
      updated_at: null,
      deleted_at: null,
    });
    assert.deepEqual(ok(await server.api.get(`/times/${time.uuid}`, owner.token)), time);
    assert.deepEqual(
      ok(await server.api.get(`/times/${time.uuid.toUpperCase()}`, owner.token)),
      time,
    );
  });

  it("uses the project's default activity when none is sent", async () => {
    for (const activities of [undefined, []]) {
      const time = ok(await createTime(owner.token, { ...base, activities }));
      assert.deepEqual(time.activities, [docs]);
    }
  });

  it('requires activities when the project has no default activity', async () => {
    for (const activities of [undefined, []]) {
      const res = await createTime(owner.token, { ...base, project: noDefault, activities });
      assert.deepEqual(res.body, badObjectBody('The time is missing a activities'));
    }
  });

  it('collapses duplicate activities and takes usernames in any case', async () => {
    const time = ok(
      await createTime(owner.token, {
        ...base,
        user: owner.username.toUpperCase(),
        activities: [dev, dev, docs, dev],
      }),
    );
    assert.deepEqual(time.activities, [dev, docs].sort());
    assert.equal(time.user, owner.username);
  });

  it('accepts the duration bounds, any real date, and empty optional fields', async () => {
    for (const duration of [0, 2_147_483_647]) {
      assert.equal(ok(await createTime(owner.token, { ...base, duration })).duration, duration);
    }
    for (const date_worked of ['1999-12-31', '2100-02-28', '2000-02-29']) {
      ok(await createTime(owner.token, { ...base, date_worked }));
    }
    const time = ok(await createTime(owner.token, { ...base, issue_uri: '', notes: '' }));
    assert.equal(time.issue_uri, null);
    assert.equal(time.notes, '');
    const nulls = ok(await createTime(owner.token, { ...base, issue_uri: null, notes: null }));
    assert.equal(nulls.issue_uri, null);
    assert.equal(nulls.notes, null);
    const long = ok(
      await createTime(owner.token, {
        ...base,
        issue_uri: `http://example.com/${'x'.repeat(2048 - 19)}`,
        notes: 'n'.repeat(10_000),
      }),
    );
    assert.equal(long.issue_uri.length, 2048);
  });

  it('refuses malformed fields with the exact Bad Object texts and writes nothing', async () => {
    const total = async () =>
      (await server.api.get('/times', server.adminToken)).headers.get('x-total-count');
    const before = await total();
    const wrong = (field: string, expected: string, received: string) =>
      badObjectBody(`Field ${field} of time should be ${expected} but was sent as ${received}`);
    const DURATION = 'integer from 0 to 2147483647';
    const cases: [Record<string, unknown>, unknown][] = [
      [{ duration: '12' }, wrong('duration', DURATION, 'string')],
      [{ duration: -1 }, wrong('duration', DURATION, 'number')],
      [{ duration: 1.5 }, wrong('duration', DURATION, 'number')],
      [{ duration: 2_147_483_648 }, wrong('duration', DURATION, 'number')],
      [{ duration: null }, wrong('duration', DURATION, 'null')],
      [{ user: 'not a name' }, wrong('user', 'username', 'string')],
      [{ user: 7 }, wrong('user', 'username', 'number')],
      [{ project: 'Not-A-Slug' }, wrong('project', 'slug', 'string')],
      [{ project: [withDefault] }, wrong('project', 'slug', 'array')],
      [{ activities: docs }, wrong('activities', 'array of activity slugs', 'string')],
      [{ activities: [1] }, wrong('activities', 'array of activity slugs', 'array')],
      [{ activities: null }, wrong('activities', 'array of activity slugs', 'null')],
      [{ date_worked: '2023-02-29' }, wrong('date_worked', 'date', 'string')],
      [{ date_worked: '2024-1-01' }, wrong('date_worked', 'date', 'string')],
      [{ date_worked: 20240101 }, wrong('date_worked', 'date', 'number')],
      [
        { issue_uri: 'ftp://example.com/x' },
        wrong('issue_uri', 'http or https URI of at most 2048 characters', 'string'),
      ],
      [
        { issue_uri: `http://example.com/${'x'.repeat(2048 - 18)}` },
        wrong('issue_uri', 'http or https URI of at most 2048 characters', 'string'),
      ],
      [
        { notes: 'n'.repeat(10_001) },
        wrong('notes', 'string of at most 10000 characters', 'string'),
      ],
      [{ notes: 5 }, wrong('notes', 'string of at most 10000 characters', 'number')],
      [
        { uuid: '00000000-0000-4000-8000-000000000000' },
        badObjectBody('time does not have a uuid field'),
      ],
      [{ revision: 1 }, badObjectBody('time does not have a revision field')],
      [{ created_at: TODAY }, badObjectBody('time does not have a created_at field')],
      [{ deleted_at: null }, badObjectBody('time does not have a deleted_at field')],
      [{ color: 'red' }, badObjectBody('time does not have a color field')],
    ];
    for (const [change, body] of cases) {
      const res = await createTime(owner.token, { ...base, ...change });
      assert.deepEqual(res.body, body, JSON.stringify(change).slice(0, 80));
      assert.equal(res.status, 400);
    }
    for (const field of ['duration', 'user', 'project', 'date_worked']) {
      const { [field]: _, ...rest } = base;
      const res = await createTime(owner.token, rest);
      assert.deepEqual(res.body, badObjectBody(`The time is missing a ${field}`));
    }
    assert.deepEqual(
      (await createTime(owner.token, undefined as never)).body,
      badObjectBody('The request is missing a object'),
    );
    assert.equal(await total(), before);
  });

  it('refuses a duration that JSON reads as Infinity', async () => {
    const body = JSON.stringify({
      auth: { type: 'token', token: owner.token },
      object: { ...base, duration: 0 },
    }).replace('"duration":0', '"duration":1e999');
    const res = await server.api.raw('/v0/times', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    assert.deepEqual(
      res.body,
      badObjectBody(
        'Field duration of time should be integer from 0 to 2147483647 but was sent as number',
      ),
    );
  });

  it('stores concurrent creates each on its own: an invalid one gets its error and writes nothing', async () => {
    const notes = (i: number) => `concurrent ${i} ${uniqueSlug('n')}`;
    const sent = Array.from({ length: 12 }, (_, i) =>
      i % 4 === 1
        ? { ...base, notes: notes(i), activities: ['no-such-activity'] }
        : i % 4 === 3
          ? { ...base, notes: notes(i), project: noDefault, activities: [] }
          : { ...base, notes: notes(i), activities: [dev] },
    );
    const replies = await Promise.all(sent.map((object) => createTime(owner.token, object)));
    const stored = ok(
      await server.api.get<Time[]>('/times', owner.token, { user: owner.username }),
    );
    const listed = new Map(stored.map((t) => [t.notes as string, t]));
    replies.forEach((res, i) => {
      const object = sent[i] as Record<string, unknown>;
      if (i % 4 === 1) assert.deepEqual(res.body, foreignKeyBody('time', 'activity'));
      else if (i % 4 === 3) {
        assert.deepEqual(res.body, badObjectBody('The time is missing a activities'));
      } else assert.deepEqual(ok(res), listed.get(object.notes as string));
      if (i % 4 === 1 || i % 4 === 3) assert.equal(listed.has(object.notes as string), false);
    });
    assert.equal(new Set(replies.filter((r) => r.status === 200).map((r) => r.body.uuid)).size, 6);
  });

  it('refuses unknown or deleted references with Invalid Foreign Key, for any caller', async () => {
    const outsider = await createUser(server);
    const gone = await createUser(server);
    ok(await server.api.del(`/users/${gone.username}`, server.adminToken));
    const goneProject = await project({ [owner.username]: { member: true } });
    ok(await server.api.del(`/projects/${goneProject}`, server.adminToken));
    const goneActivity = await activity();
    ok(await server.api.del(`/activities/${goneActivity}`, server.adminToken));
    const cases: [Record<string, unknown>, string][] = [
      [{ user: 'nobody-here' }, 'user'],
      [{ user: gone.username }, 'user'],
      [{ project: 'no-such-project' }, 'project'],
      [{ project: goneProject }, 'project'],
      [{ activities: ['no-such-activity'] }, 'activity'],
      [{ activities: [docs, goneActivity] }, 'activity'],
    ];
    for (const token of [owner.token, outsider.token, server.adminToken]) {
      for (const [change, key] of cases) {
        const res = await createTime(token, { ...base, ...change });
        assert.deepEqual(res.body, foreignKeyBody('time', key), JSON.stringify(change));
      }
    }
  });
});

describe('who may create, see, update and delete a time', () => {
  // p: owner and peer are members, pmanager manages, pspectator spectates.
  // q: owner and peer are members. r: nobody but admin is a member.
  const users: Record<string, TestUser> = {};
  let p: string;
  let q: string;
  let r: string;
  let t1: Time; // owner in p
  let t2: Time; // peer in p
  let t3: Time; // owner in q

  before(async () => {
    for (const name of ['owner', 'peer', 'pmanager', 'pspectator', 'outsider']) {
      users[name] = await createUser(server);
    }
    users.sitespectator = await createUser(server, { site_spectator: true });
    users.sitemanager = await createUser(server, { site_manager: true });
    users.admin = admin;
    const u = (name: string) => users[name]!.username;
    p = await project({
      [u('owner')]: { member: true },
      [u('peer')]: { member: true },
      [u('pmanager')]: { manager: true },
      [u('pspectator')]: { spectator: true },
    });
    q = await project({ [u('owner')]: { member: true }, [u('peer')]: { member: true } });
    r = await project({ [ADMIN.username]: { member: true } });
    const act = await activity();
    const make = (who: string, proj: string) =>
      createTime(users[who]!.token, {
        duration: 60,
        user: u(who),
        project: proj,
        activities: [act],
        date_worked: '2024-05-01',
      }).then(ok);
    t1 = await make('owner', p);
    t2 = await make('peer', p);
    t3 = await make('owner', q);
  });

  const base = (user: string, proj: string) => ({
    duration: 60,
    user,
    project: proj,
    date_worked: '2024-05-02',
    activities: [],
  });

  it('lets members create for themselves and admins for members, nobody for non-members', async () => {
    const u = (name: string) => users[name]!.username;
    const actDefault = await activity();
    ok(
      await server.api.post(`/projects/${p}`, server.adminToken, { default_activity: actDefault }),
    );
    const cases: [string, string, string, string | null][] = [
      // caller, for user, project, refused action (null: allowed)
      ['owner', 'owner', p, null],
      ['peer', 'peer', p, null],
      ['outsider', 'outsider', p, `create time entries for ${u('outsider')} in project ${p}`],
      ['pmanager', 'pmanager', p, `create time entries for ${u('pmanager')} in project ${p}`],
      ['pspectator', 'pspectator', p, `create time entries for ${u('pspectator')} in project ${p}`],
      ['owner', 'peer', p, `create time entries for ${u('peer')}`],
      ['pmanager', 'owner', p, `create time entries for ${u('owner')}`],
      ['sitemanager', 'owner', p, `create time entries for ${u('owner')}`],
      ['admin', 'owner', p, null],
      ['admin', 'outsider', p, `create time entries for ${u('outsider')} in project ${p}`],
      ['admin', 'admin', p, `create time entries for ${ADMIN.username} in project ${p}`],
      ['admin', 'admin', r, null],
    ];
    for (const [caller, forUser, proj, refused] of cases) {
      const res = await createTime(users[caller]!.token, {
        ...base(u(forUser), proj),
        activities: [actDefault],
      });
      const what = `${caller} for ${forUser} in ${proj}`;
      if (refused === null) assert.equal(res.status, 200, `${what}: ${res.text}`);
      else assert.deepEqual(res.body, authorizationBody(u(caller), refused), what);
    }
  });

  const VISIBLE: Record<string, [boolean, boolean, boolean]> = {
    // viewer: [t1 owner's in p, t2 peer's in p, t3 owner's in q]
    owner: [true, false, true],
    peer: [false, true, false],
    pmanager: [true, true, false],
    pspectator: [true, true, false],
    outsider: [false, false, false],
    sitespectator: [true, true, true],
    sitemanager: [true, true, true],
    admin: [true, true, true],
  };

  it('shows a time to its owner, its project’s managers and spectators, and site roles', async () => {
    const times = [t1, t2, t3];
    for (const [viewer, visible] of Object.entries(VISIBLE)) {
      const user = users[viewer]!;
      const listed = only(await listUuids(user.token), times);
      assert.deepEqual(
        listed,
        times.filter((_, i) => visible[i]).map((t) => t.uuid),
        `list of ${viewer}`,
      );
      for (const [i, time] of times.entries()) {
        const res = await server.api.get(`/times/${time.uuid}`, user.token);
        if (visible[i]) assert.deepEqual(res.body, time, `${viewer} GET t${i + 1}`);
        else {
          assert.deepEqual(
            res.body,
            authorizationBody(user.username, `view time ${time.uuid}`),
            `${viewer} GET t${i + 1}`,
          );
        }
      }
    }
  });

  it('shows a time’s history to exactly those it shows the time to', async () => {
    const times = [t1, t2, t3];
    for (const [viewer, visible] of Object.entries(VISIBLE)) {
      const user = users[viewer]!;
      for (const [i, time] of times.entries()) {
        const res = await server.api.get(`/times/${time.uuid}/history`, user.token);
        const where = `${viewer} GET t${i + 1}/history`;
        if (visible[i]) {
          assert.equal(res.status, 200, where);
          assert.equal(res.body[0].uuid, time.uuid, where);
        } else {
          assert.deepEqual(
            res.body,
            authorizationBody(user.username, `view time ${time.uuid}`),
            where,
          );
        }
      }
    }
  });

  it('filters silently: a filter on invisible times answers []', async () => {
    const res = await server.api.get('/times', users.outsider!.token, {
      user: users.owner!.username,
    });
    assert.deepEqual(res.body, []);
    assert.equal(res.headers.get('x-total-count'), '0');
  });

  it('lets the owner and admins update, and only admins change the user', async () => {
    const u = (name: string) => users[name]!.username;
    for (const caller of [
      'peer',
      'pmanager',
      'pspectator',
      'outsider',
      'sitespectator',
      'sitemanager',
    ]) {
      const res = await updateTime(users[caller]!.token, t1.uuid, { duration: 1 });
      assert.deepEqual(res.body, authorizationBody(u(caller), `update time ${t1.uuid}`), caller);
    }
    assert.equal(ok(await updateTime(users.owner!.token, t1.uuid, { duration: 2 })).duration, 2);
    assert.equal(ok(await updateTime(server.adminToken, t1.uuid, { duration: 3 })).duration, 3);
    const toPeer = await updateTime(users.owner!.token, t1.uuid, { user: u('peer') });
    assert.deepEqual(toPeer.body, authorizationBody(u('owner'), `update time ${t1.uuid}`));
    // Sending one's own name is not a change of user.
    ok(await updateTime(users.owner!.token, t1.uuid, { user: u('owner').toUpperCase() }));
    const toOutsider = await updateTime(server.adminToken, t1.uuid, { user: u('outsider') });
    assert.deepEqual(
      toOutsider.body,
      authorizationBody(ADMIN.username, `move time ${t1.uuid} to ${u('outsider')} in project ${p}`),
    );
    const moved = ok(await updateTime(server.adminToken, t1.uuid, { user: u('peer') }));
    assert.equal(moved.user, u('peer'));
    ok(await updateTime(server.adminToken, t1.uuid, { user: u('owner') }));
  });

  it('lets the owner move a time only to a project they are a member of', async () => {
    const u = (name: string) => users[name]!.username;
    const toR = await updateTime(users.owner!.token, t3.uuid, { project: r });
    assert.deepEqual(
      toR.body,
      authorizationBody(u('owner'), `move time ${t3.uuid} to ${u('owner')} in project ${r}`),
    );
    assert.deepEqual(ok(await updateTime(users.owner!.token, t3.uuid, { project: p })).project, [
      p,
    ]);
    assert.deepEqual(ok(await updateTime(users.owner!.token, t3.uuid, { project: q })).project, [
      q,
    ]);
  });

  it('lets the owner, site managers and admins delete', async () => {
    const u = (name: string) => users[name]!.username;
    const victims: Time[] = [];
    for (let i = 0; i < 3; i++) {
      victims.push(
        ok(
          await createTime(users.owner!.token, {
            ...base(u('owner'), q),
            activities: undefined,
            project: p,
          }),
        ),
      );
    }
    for (const caller of ['peer', 'pmanager', 'pspectator', 'outsider', 'sitespectator']) {
      const res = await server.api.del(`/times/${victims[0]!.uuid}`, users[caller]!.token);
      assert.deepEqual(
        res.body,
        authorizationBody(u(caller), `delete time ${victims[0]!.uuid}`),
        caller,
      );
    }
    for (const [i, caller] of ['owner', 'sitemanager', 'admin'].entries()) {
      const res = await server.api.del(`/times/${victims[i]!.uuid}`, users[caller]!.token);
      assert.equal(res.status, 200, `${caller}: ${res.text}`);
      assert.equal(res.text, '');
    }
  });
});

describe('updating, revisions, delete and restore', () => {
  let owner: TestUser;
  let docs: string;
  let dev: string;
  let proj: string;
  let other: string;
  let create: () => Promise<Time>;

  before(async () => {
    owner = await createUser(server);
    docs = await activity();
    dev = await activity();
    proj = await project({ [owner.username]: { member: true } }, { default_activity: docs });
    other = await project({ [owner.username]: { member: true } });
    create = async () =>
      ok(
        await createTime(owner.token, {
          duration: 100,
          user: owner.username,
          project: proj,
          date_worked: '2024-06-01',
          issue_uri: 'https://example.com/1',
          notes: 'first',
        }),
      );
  });

  it('changes only the fields sent; null clears, empty issue_uri is null', async () => {
    const time = await create();
    const next = ok(
      await updateTime(owner.token, time.uuid, { duration: 200, issue_uri: '', notes: null }),
    );
    assert.deepEqual(next, {
      ...time,
      revision: 2,
      duration: 200,
      issue_uri: null,
      notes: null,
      updated_at: TODAY,
    });
    const again = ok(
      await updateTime(owner.token, time.uuid, { activities: [dev, docs, dev], project: other }),
    );
    assert.deepEqual(again.activities, [dev, docs].sort());
    assert.deepEqual(again.project, [other]);
    assert.equal(again.revision, 3);
    assert.equal(again.duration, 200);
  });

  it('refuses to empty activities or null a required field, and writes nothing', async () => {
    const time = await create();
    const cases: [Record<string, unknown>, string][] = [
      [
        { activities: [] },
        'Field activities of time should be non-empty array of activity slugs but was sent as array',
      ],
      [
        { activities: null },
        'Field activities of time should be non-empty array of activity slugs but was sent as null',
      ],
      [
        { duration: null },
        'Field duration of time should be integer from 0 to 2147483647 but was sent as null',
      ],
      [{ project: null }, 'Field project of time should be slug but was sent as null'],
      [{ user: '' }, 'Field user of time should be username but was sent as string'],
      [{ date_worked: '' }, 'Field date_worked of time should be date but was sent as string'],
      [{ uuid: time.uuid }, 'time does not have a uuid field'],
    ];
    for (const [change, text] of cases) {
      const res = await updateTime(owner.token, time.uuid, change);
      assert.deepEqual(res.body, badObjectBody(text), JSON.stringify(change));
    }
    const refs: [Record<string, unknown>, string][] = [
      [{ project: 'no-such-project' }, 'project'],
      [{ activities: ['no-such-activity'] }, 'activity'],
      [{ user: 'no-such-user' }, 'user'],
    ];
    for (const [change, key] of refs) {
      const res = await updateTime(owner.token, time.uuid, change);
      assert.deepEqual(res.body, foreignKeyBody('time', key));
    }
    assert.deepEqual(ok(await server.api.get(`/times/${time.uuid}`, owner.token)), time);
  });

  it('answers 404 for an unknown uuid and kind 5 for a malformed one', async () => {
    const unknown = '0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b';
    assert.deepEqual(
      (await server.api.get(`/times/${unknown}`, owner.token)).body,
      notFoundBody('time'),
    );
    assert.deepEqual(
      (await updateTime(owner.token, unknown, { duration: 1 })).body,
      notFoundBody('time'),
    );
    assert.deepEqual(
      (await server.api.del(`/times/${unknown}`, owner.token)).body,
      notFoundBody('time'),
    );
    for (const bad of ['not-a-uuid', '0b0b0b0b0b0b4b0b8b0b0b0b0b0b0b0b']) {
      assert.deepEqual(
        (await server.api.get(`/times/${bad}`, owner.token)).body,
        invalidIdentifierBody('uuid', bad),
      );
      assert.deepEqual(
        (await server.api.del(`/times/${bad}`, owner.token)).body,
        invalidIdentifierBody('uuid', bad),
      );
    }
  });

  it('keeps every earlier revision, newest first, without nested parents', async () => {
    const v1 = await create();
    const none = ok(
      await server.api.get(`/times/${v1.uuid}`, owner.token, { include_revisions: true }),
    );
    assert.deepEqual(none, { ...v1, parents: [] });
    const v2 = ok(await updateTime(owner.token, v1.uuid, { duration: 2, activities: [dev] }));
    const v3 = ok(await updateTime(server.adminToken, v1.uuid, { notes: 'third', project: other }));
    const v4 = ok(await updateTime(owner.token, v1.uuid, { date_worked: '2024-06-04' }));
    const res = await server.api.get(`/times/${v1.uuid}`, owner.token, { include_revisions: '' });
    // Each parent is exactly the answer its revision once was (SPEC §5), key order and all;
    // who made it is told by GET /times/:uuid/history alone (issue 29).
    assert.deepEqual(ok(res), { ...v4, parents: [v3, v2, v1] });
    assert.equal(res.text, JSON.stringify({ ...v4, parents: [v3, v2, v1] }));
    const parents = res.body.parents as Time[];
    assert.deepEqual(parents[1]!.activities, [dev]);
    assert.deepEqual(parents[2]!.activities, [docs]);
    const listed = ok(
      await server.api.get<Time[]>('/times', owner.token, {
        include_revisions: 1,
        user: owner.username,
      }),
    ).find((t) => t.uuid === v1.uuid);
    assert.deepEqual(listed, res.body);
    const plain = ok(await server.api.get<Time[]>('/times', owner.token, { user: owner.username }));
    assert.ok(plain.every((t) => !('parents' in t) && !('changed_by' in t)));
  });

  it('answers the history: every revision as served, with who made it and when', async () => {
    const before = Date.now();
    const v1 = await create();
    const v2 = ok(await updateTime(server.adminToken, v1.uuid, { duration: 2, activities: [dev] }));
    const v3 = ok(await updateTime(owner.token, v1.uuid, { notes: 'third' }));
    const after = Date.now();
    const res = await server.api.get<Time[]>(`/times/${v1.uuid}/history`, owner.token);
    const history = ok(res);
    // Newest first, the current revision included; each one the answer it once was,
    // then changed_by and changed_at.
    const strip = ({ changed_by, changed_at, ...served }: Time) => served;
    assert.deepEqual(history.map(strip), [v3, v2, v1]);
    assert.deepEqual(
      history.map((r) => r.changed_by),
      [owner.username, ADMIN.username, owner.username],
    );
    for (const r of history) {
      assert.deepEqual(Object.keys(r).slice(-2), ['changed_by', 'changed_at']);
      assert.match(r.changed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const at = Date.parse(r.changed_at);
      assert.ok(at >= before && at <= after, `${r.changed_at} within the test`);
    }
    const times = history.map((r) => Date.parse(r.changed_at));
    assert.ok(times[0]! >= times[1]! && times[1]! >= times[2]!, 'newest first');
    // A deleted entry's history is there with include_deleted, as GET is.
    ok(await server.api.del(`/times/${v1.uuid}`, owner.token));
    assert.deepEqual(
      (await server.api.get(`/times/${v1.uuid}/history`, owner.token)).body,
      notFoundBody('time'),
    );
    const deleted = ok(
      await server.api.get<Time[]>(`/times/${v1.uuid}/history`, owner.token, {
        include_deleted: true,
      }),
    );
    assert.deepEqual(deleted.map(strip), [{ ...v3, deleted_at: TODAY }, v2, v1]);
    assert.deepEqual(
      (await server.api.get(`/times/${NO_SUCH_UUID}/history`, owner.token)).body,
      notFoundBody('time'),
    );
    assert.deepEqual(
      (await server.api.get('/times/not-a-uuid/history', owner.token)).body,
      invalidIdentifierBody('uuid', 'not-a-uuid'),
    );
  });

  it('records who made each revision', async () => {
    const time = await create();
    ok(await updateTime(server.adminToken, time.uuid, { duration: 5 }));
    const db = openDatabase(server.dbFile, { readonly: true });
    try {
      const id = (name: string) =>
        db.prepare('SELECT id FROM users WHERE username = ?').pluck().get(name);
      const current = db
        .prepare('SELECT changed_by, revision FROM times WHERE uuid = ?')
        .get(time.uuid);
      const history = db
        .prepare(`SELECT r.changed_by, r.revision, r.duration, r.activity_ids FROM time_revisions r
          JOIN times t ON t.id = r.time_id WHERE t.uuid = ?`)
        .all(time.uuid);
      assert.deepEqual(current, { changed_by: id(ADMIN.username), revision: 2 });
      const docsId = db.prepare('SELECT id FROM activities WHERE slug = ?').pluck().get(docs);
      assert.deepEqual(history, [
        { changed_by: id(owner.username), revision: 1, duration: 100, activity_ids: `[${docsId}]` },
      ]);
    } finally {
      db.close();
    }
  });

  it('deletes softly: gone from GET and lists unless include_deleted', async () => {
    const time = await create();
    const res = await server.api.del(`/times/${time.uuid}`, owner.token);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.deepEqual(
      (await server.api.get(`/times/${time.uuid}`, owner.token)).body,
      notFoundBody('time'),
    );
    const deleted = ok(
      await server.api.get(`/times/${time.uuid}`, owner.token, { include_deleted: 'TRUE' }),
    );
    assert.deepEqual(deleted, { ...time, deleted_at: TODAY });
    assert.ok(!(await listUuids(owner.token)).includes(time.uuid));
    assert.ok((await listUuids(owner.token, { include_deleted: 1 })).includes(time.uuid));
    assert.ok(!(await listUuids(owner.token, { include_deleted: 'false' })).includes(time.uuid));
    assert.deepEqual(
      (await server.api.del(`/times/${time.uuid}`, owner.token)).body,
      notFoundBody('time'),
    );
  });

  it('restores a deleted time by updating it, as a new revision', async () => {
    const time = await create();
    ok(await server.api.del(`/times/${time.uuid}`, owner.token));
    const restored = ok(await updateTime(owner.token, time.uuid, { notes: 'back' }));
    assert.deepEqual(restored, { ...time, revision: 2, notes: 'back', updated_at: TODAY });
    assert.ok((await listUuids(owner.token)).includes(time.uuid));
    const withHistory = ok(
      await server.api.get(`/times/${time.uuid}`, owner.token, { include_revisions: true }),
    );
    assert.deepEqual(withHistory.parents, [{ ...time, deleted_at: TODAY }]);
  });

  it('restores only while the project is live, or into a live project', async () => {
    const doomed = await project(
      { [owner.username]: { member: true } },
      { default_activity: docs },
    );
    const time = ok(
      await createTime(owner.token, {
        duration: 1,
        user: owner.username,
        project: doomed,
        date_worked: '2024-06-01',
      }),
    );
    ok(await server.api.del(`/times/${time.uuid}`, owner.token));
    ok(await server.api.del(`/projects/${doomed}`, server.adminToken));
    const res = await updateTime(owner.token, time.uuid, { notes: 'back' });
    assert.deepEqual(res.body, foreignKeyBody('time', 'project'));
    const moved = ok(await updateTime(owner.token, time.uuid, { project: proj }));
    assert.deepEqual([moved.project, moved.deleted_at, moved.revision], [[proj], null, 2]);
  });

  it('makes a project and an activity deletable again once their times are deleted', async () => {
    const act = await activity();
    const used = await project({ [owner.username]: { member: true } });
    const time = ok(
      await createTime(owner.token, {
        duration: 1,
        user: owner.username,
        project: used,
        activities: [act],
        date_worked: '2024-06-01',
      }),
    );
    for (const path of [`/projects/${used}`, `/activities/${act}`]) {
      const res = await server.api.del(path, server.adminToken);
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'GET, POST');
      const object = path.startsWith('/projects') ? 'project' : 'activity';
      assert.deepEqual(res.body, requestFailureBody(object));
    }
    ok(await server.api.del(`/times/${time.uuid}`, owner.token));
    ok(await server.api.del(`/activities/${act}`, server.adminToken));
    ok(await server.api.del(`/projects/${used}`, server.adminToken));
    // The deleted time still shows the slugs its project and activity had.
    const deleted = ok(
      await server.api.get(`/times/${time.uuid}`, owner.token, { include_deleted: true }),
    );
    assert.deepEqual([deleted.project, deleted.activities], [[used], [act]]);
    // Restoring it needs a live project and live activities again.
    const back = await updateTime(owner.token, time.uuid, { project: proj });
    assert.deepEqual(back.body, foreignKeyBody('time', 'activity'));
    ok(await updateTime(owner.token, time.uuid, { project: proj, activities: [dev] }));
  });
});

describe('GET /times query parameters', () => {
  let u1: TestUser;
  let u2: TestUser;
  let f1: string;
  let f1Alias: string;
  let f2: string;
  let ax: string;
  let ay: string;
  let az: string;
  let goneProject: string;
  const t: Record<string, Time> = {};
  let all: Time[];

  before(async () => {
    u1 = await createUser(server);
    u2 = await createUser(server);
    [ax, ay, az] = [await activity(), await activity(), await activity()];
    const members = { [u1.username]: { member: true }, [u2.username]: { member: true } };
    f1 = await project(members);
    f1Alias = uniqueSlug('alias');
    ok(await server.api.post(`/projects/${f1}`, server.adminToken, { slugs: [f1, f1Alias] }));
    f2 = await project(members);
    goneProject = await project({});
    ok(await server.api.del(`/projects/${goneProject}`, server.adminToken));
    const make = async (user: TestUser, proj: string, activities: string[], date: string) =>
      ok(
        await createTime(user.token, {
          duration: 60,
          user: user.username,
          project: proj,
          activities,
          date_worked: date,
        }),
      );
    t.t1 = await make(u1, f1, [ax], '2024-01-10');
    t.t2 = await make(u1, f2, [ay], '2024-01-20');
    t.t3 = await make(u2, f1, [ax, ay], '2024-02-05');
    t.t4 = await make(u2, f2, [az], '2024-02-15');
    t.t5 = await make(u1, f1, [az], '2024-03-01');
    ok(await server.api.del(`/times/${t.t5.uuid}`, u1.token));
    all = Object.values(t);
  });

  /** The names (t1…t5) of this suite's times that the admin gets for `query`. */
  const names = async (query: Record<string, any>) => {
    const uuids = only(await listUuids(server.adminToken, query), all);
    return uuids.map((u) => Object.keys(t).find((k) => t[k]!.uuid === u)).sort();
  };

  it('filters by user, project and activity, OR within and AND across', async () => {
    const cases: [Record<string, any>, string[]][] = [
      [{}, ['t1', 't2', 't3', 't4']],
      [{ user: u1.username }, ['t1', 't2']],
      [{ user: u1.username.toUpperCase() }, ['t1', 't2']],
      [{ user: [u1.username, u2.username] }, ['t1', 't2', 't3', 't4']],
      [{ project: f1 }, ['t1', 't3']],
      [{ project: f1Alias }, ['t1', 't3']],
      [{ project: [f1, f2] }, ['t1', 't2', 't3', 't4']],
      [{ activity: ax }, ['t1', 't3']],
      [{ activity: ay }, ['t2', 't3']],
      [{ activity: [ax, az] }, ['t1', 't3', 't4']],
      [{ user: u2.username, project: f1 }, ['t3']],
      [{ user: u1.username, activity: ay }, ['t2']],
      [{ project: f2, activity: [ax, az] }, ['t4']],
      [{ user: [u1.username, u2.username], project: f1, activity: ay }, ['t3']],
      [{ user: u1.username, project: f2, activity: ax }, []],
      [{ user: u1.username, include_deleted: true }, ['t1', 't2', 't5']],
      [{ user: u1.username, project: f1, activity: az, include_deleted: '' }, ['t5']],
      [{ user: u1.username, unknown: 'ignored', sort: 'whatever' }, ['t1', 't2']],
    ];
    for (const [query, expected] of cases) {
      assert.deepEqual(await names(query), expected, JSON.stringify(query));
    }
  });

  it('bounds date_worked inclusively by start and end, the first occurrence winning', async () => {
    const cases: [Record<string, any>, string[]][] = [
      [{ start: '2024-01-20' }, ['t2', 't3', 't4']],
      [{ end: '2024-01-20' }, ['t1', 't2']],
      [{ start: '2024-01-20', end: '2024-02-05' }, ['t2', 't3']],
      [{ start: '2024-02-05', end: '2024-02-05' }, ['t3']],
      [{ start: ['2024-02-01', '2024-01-01'] }, ['t3', 't4']],
      [{ end: ['2024-01-15', '2024-12-31'] }, ['t1']],
      [
        { start: '2024-01-01', end: '2024-12-31', include_deleted: true },
        ['t1', 't2', 't3', 't4', 't5'],
      ],
      [{ user: u2.username, project: f2, start: '2024-02-01', end: '2024-02-28' }, ['t4']],
      [{ user: u1.username, activity: [ax, ay], start: '2024-01-15' }, ['t2']],
      // One user's dates: part of a month, months, open ends (time_user_rows by month).
      [{ user: u1.username, start: '2024-01-15', end: '2024-01-31' }, ['t2']],
      [{ user: u1.username, start: '2024-02-01', end: '2024-02-29' }, []],
      [
        { user: u1.username, start: '2024-01-01', end: '2024-03-31', include_deleted: true },
        ['t1', 't2', 't5'],
      ],
      [
        { user: u1.username, start: '2024-01-31', end: '2024-03-01', include_deleted: true },
        ['t5'],
      ],
      [{ user: u1.username, start: '2024-01-20' }, ['t2']],
      [{ user: u1.username, end: '2024-01-19' }, ['t1']],
    ];
    for (const [query, expected] of cases) {
      assert.deepEqual(await names(query), expected, JSON.stringify(query));
    }
  });

  it('answers in the order of the last change, then uuid', async () => {
    ok(await updateTime(u1.token, t.t1!.uuid, { notes: 'touched' }));
    const order = only(
      await listUuids(server.adminToken, { user: [u1.username, u2.username] }),
      all,
    );
    assert.deepEqual(
      order,
      [t.t2!, t.t3!, t.t4!, t.t1!].map((x) => x.uuid),
    );
    // One user's month (read whole, in the order of its stored key) moves the changed one.
    const month = { user: u1.username, start: '2024-01-01', end: '2024-01-31' };
    assert.deepEqual(
      only(await listUuids(server.adminToken, month), all),
      [t.t2!, t.t1!].map((x) => x.uuid),
    );
  });

  it('lists text beyond ASCII as it was sent', async () => {
    const notes = 'naïve café – ✓ 日本語 🕒';
    ok(await updateTime(u1.token, t.t2!.uuid, { notes }));
    const res = await server.api.get('/times', server.adminToken, { user: u1.username });
    assert.equal(res.status, 200, res.text);
    const listed = (res.body as { uuid: string; notes: string }[]).find(
      (x) => x.uuid === t.t2!.uuid,
    );
    assert.equal(listed?.notes, notes);
  });

  it('refuses malformed and nonexistent values with Bad Query Value', async () => {
    const cases: [Record<string, any>, string, string][] = [
      [{ user: 'bad name' }, 'user', 'bad name'],
      [{ user: 'nobody-at-all' }, 'user', 'nobody-at-all'],
      [{ user: [u1.username, 'nobody-at-all'] }, 'user', 'nobody-at-all'],
      [{ user: '' }, 'user', ''],
      [{ project: 'Not_A_Slug' }, 'project', 'Not_A_Slug'],
      [{ project: 'no-such-project' }, 'project', 'no-such-project'],
      [{ project: goneProject }, 'project', goneProject],
      [{ activity: 'no-such-activity' }, 'activity', 'no-such-activity'],
      [{ activity: ax.toUpperCase() }, 'activity', ax.toUpperCase()],
      [{ start: '2024-02-30' }, 'start', '2024-02-30'],
      [{ start: '2024-1-1' }, 'start', '2024-1-1'],
      [{ end: 'yesterday' }, 'end', 'yesterday'],
      [{ end: '' }, 'end', ''],
      [{ start: '2024-03-01', end: '2024-02-01' }, 'end', '2024-02-01'],
      [{ start: ['2024-03-01', '2024-01-01'], end: '2024-02-01' }, 'end', '2024-02-01'],
      [{ include_deleted: 'maybe' }, 'include_deleted', 'maybe'],
      [{ include_revisions: '2' }, 'include_revisions', '2'],
      [{ limit: '-5' }, 'limit', '-5'],
      [{ skip: 'x' }, 'skip', 'x'],
    ];
    for (const [query, key, value] of cases) {
      const res = await server.api.get('/times', u1.token, query);
      assert.deepEqual(res.body, badQueryBody(key, value), JSON.stringify(query));
      assert.equal(res.status, 400);
    }
    for (const [query, key, value] of [
      [{ include_deleted: 'yes' }, 'include_deleted', 'yes'],
      [{ include_revisions: 'no' }, 'include_revisions', 'no'],
    ] as const) {
      const res = await server.api.get(`/times/${t.t1!.uuid}`, u1.token, query);
      assert.deepEqual(res.body, badQueryBody(key, value));
    }
  });
});
