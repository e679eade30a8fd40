// The running timer (issue 15, part 3): /v0/timer and /v0/timer/stop. Start, show, stop
// into a time entry made by POST /v0/times's own code, discard; kind 13; the checks of
// creating a time at start and again at stop; admins' ?user=; a restart and an
// export/import keep it. No assertion depends on how long anything takes: `elapsed` is
// only checked to be a whole number, and exact durations are sent with the stop.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localDate } from '../../../src/dates';
import type { Reply } from '../../helpers/api';
import { runCli } from '../../helpers/cli';
import {
  authorizationBody,
  badObjectBody,
  badQueryBody,
  foreignKeyBody,
  notFoundBody,
} from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer, tempDir } from '../../helpers/server';
import { clearOfMidnight, timerRunFor } from '../../helpers/timer-clock';

/** Today (UTC), taken in before() once clear of midnight: the file's run sees one day. */
let TODAY = '';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Timer = Record<string, any>;

let server: TestServer;
let alice: TestUser; // member of P and of noDefault
let bob: TestUser; // member of P
let carol: TestUser; // no project role
let sitemgr: TestUser;
let dev: string;
let docs: string;
let P: string; // default activity: docs
let noDefault: string;

before(async () => {
  await clearOfMidnight();
  TODAY = new Date().toISOString().slice(0, 10);
  server = await startTestServer();
  [alice, bob, carol, sitemgr] = [
    await createUser(server),
    await createUser(server),
    await createUser(server),
    await createUser(server, { site_manager: true }),
  ];
  dev = (await createActivity(server)).slug;
  docs = (await createActivity(server)).slug;
  const members = { [alice.username]: { member: true }, [bob.username]: { member: true } };
  P = (await createProject(server, { users: members, default_activity: docs })).slugs[0] as string;
  noDefault = (await createProject(server, { users: { [alice.username]: { member: true } } }))
    .slugs[0] as string;
});
after(() => server.close());

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const start = (user: TestUser, object: unknown) =>
  server.api.post<Timer>('/timer', user.token, object);
const stop = (user: TestUser, object?: unknown, query = '') =>
  server.api.post(`/timer/stop${query}`, user.token, object);
const show = (user: TestUser, query?: Record<string, string>) =>
  server.api.get<Timer>('/timer', user.token, query);
const discard = (user: TestUser, query?: Record<string, string>) =>
  server.api.del('/timer', user.token, query);

/** An instant's time of day on the server's clock (this process's: TZ=UTC in `npm test`). */
function serverClock(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function assertElapsed(timer: Timer) {
  assert.ok(Number.isInteger(timer.elapsed) && timer.elapsed >= 0, `elapsed ${timer.elapsed}`);
}

describe('a timer', () => {
  it('is kind 1 while none runs: GET, stop and DELETE', async () => {
    const user = await createUser(server);
    assert.deepEqual((await show(user)).body, notFoundBody('timer'));
    assert.deepEqual((await stop(user)).body, notFoundBody('timer'));
    assert.deepEqual((await discard(user)).body, notFoundBody('timer'));
    assert.equal((await show(user)).status, 404);
  });

  it('starts, shows the same on GET, and stops into a time equal to GET /times/:uuid', async () => {
    const sent = {
      project: P,
      activities: [docs, dev, dev],
      notes: 'Settings page',
      issue_uri: 'https://example.com/issues/56',
      date_worked: '2026-03-02',
    };
    const started = ok(await start(alice, sent));
    assert.match(started.started_at, ISO_INSTANT);
    assertElapsed(started);
    assert.deepEqual(started, {
      project: [P],
      activities: [dev, docs].sort(),
      notes: 'Settings page',
      issue_uri: 'https://example.com/issues/56',
      date_worked: '2026-03-02',
      started_at: started.started_at,
      elapsed: started.elapsed,
    });
    const shown = ok(await show(alice));
    assertElapsed(shown);
    assert.deepEqual(shown, { ...started, elapsed: shown.elapsed });

    const time = ok(await stop(alice, { duration: 5400 }));
    assert.deepEqual(time, {
      uuid: time.uuid,
      revision: 1,
      duration: 5400,
      user: alice.username,
      project: [P],
      activities: [dev, docs].sort(),
      date_worked: '2026-03-02',
      start_time: serverClock(started.started_at),
      issue_uri: 'https://example.com/issues/56',
      notes: 'Settings page',
      created_at: TODAY,
      updated_at: null,
      deleted_at: null,
    });
    assert.deepEqual(ok(await server.api.get(`/times/${time.uuid}`, alice.token)), time);
    assert.deepEqual((await show(alice)).body, notFoundBody('timer'), 'the timer is gone');
  });

  it('defaults: date_worked today in the server zone, the default activity, the rounded elapsed time', async () => {
    const before = localDate(Date.now());
    const started = ok(await start(alice, { project: P }));
    const afterDate = localDate(Date.now());
    assert.ok([before, afterDate].includes(started.date_worked), started.date_worked);
    assert.deepEqual(started.activities, [], 'resolved when it stops');
    assert.equal(started.notes, null);
    assert.equal(started.issue_uri, null);
    // No object at all: every field comes from the timer, the duration from the clock,
    // rounded to --timer-rounding (60 s): 100 s is 120 (issue 34; stop-rule.test.ts).
    timerRunFor(server.dbFile, alice.username, 100);
    const time = ok(await stop(alice));
    assert.deepEqual(time.activities, [docs]);
    assert.equal(time.duration, 120);
    assert.equal(time.date_worked, started.date_worked);
    assert.equal(time.revision, 1);
  });

  it('takes the fields sent at stop over those of the timer', async () => {
    ok(await start(alice, { project: P, notes: 'a', issue_uri: 'https://example.com/1' }));
    const time = ok(
      await stop(alice, {
        duration: 60,
        notes: 'b',
        issue_uri: null,
        activities: [dev],
        date_worked: '2025-12-31',
      }),
    );
    assert.deepEqual(
      [time.duration, time.notes, time.issue_uri, time.activities, time.date_worked],
      [60, 'b', null, [dev], '2025-12-31'],
    );
  });

  it('is one per user: kind 13 while one runs, the running one unchanged', async () => {
    const first = ok(await start(alice, { project: P, notes: 'first' }));
    const res = await start(alice, { project: noDefault, activities: [dev] });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, {
      status: 409,
      error: 'Timer already running',
      text: `A timer is already running for ${alice.username}`,
    });
    const shown = ok(await show(alice));
    assert.deepEqual({ ...shown, elapsed: 0 }, { ...first, elapsed: 0 });
    // Another user's timer is their own.
    ok(await start(bob, { project: P }));
    assert.equal(ok(await discard(alice)), '');
    assert.equal(ok(await discard(bob)), '');
    assert.deepEqual((await show(alice)).body, notFoundBody('timer'));
  });

  it('checks at start what creating a time checks: kinds 4, 3, 9, in that order', async () => {
    const cases: [unknown, TestUser, unknown][] = [
      [
        { project: 'no-such-project', duration: 1 },
        alice,
        badObjectBody('timer does not have a duration field'),
      ],
      [{}, alice, badObjectBody('The timer is missing a project')],
      [
        { project: P, date_worked: '2023-02-29' },
        alice,
        badObjectBody('Field date_worked of timer should be date but was sent as string'),
      ],
      [
        { project: P, activities: 'dev' },
        alice,
        badObjectBody(
          'Field activities of timer should be array of activity slugs but was sent as string',
        ),
      ],
      [{ project: 'no-such-project' }, carol, foreignKeyBody('timer', 'project')],
      [{ project: P, activities: ['no-such-act'] }, carol, foreignKeyBody('timer', 'activity')],
      [{ project: noDefault }, alice, badObjectBody('The timer is missing a activities')],
      [
        { project: P },
        carol,
        authorizationBody(
          carol.username,
          `create time entries for ${carol.username} in project ${P}`,
        ),
      ],
      [
        { project: P },
        asAdmin(),
        authorizationBody('admin', `create time entries for admin in project ${P}`),
      ],
    ];
    for (const [object, user, body] of cases) {
      const res = await start(user, object);
      assert.deepEqual(res.body, body, JSON.stringify(object));
      assert.deepEqual((await show(user)).body, notFoundBody('timer'), 'nothing started');
    }
  });

  it('checks the permission again at stop: membership removed meanwhile', async () => {
    const user = await createUser(server);
    const slug = (await createProject(server, { users: { [user.username]: { member: true } } }))
      .slugs[0] as string;
    ok(await start(user, { project: slug, activities: [dev] }));
    ok(await server.api.post(`/projects/${slug}`, server.adminToken, { users: {} }));
    const res = await stop(user, { duration: 60 });
    assert.deepEqual(
      res.body,
      authorizationBody(
        user.username,
        `create time entries for ${user.username} in project ${slug}`,
      ),
    );
    ok(await show(user)); // still running: nothing was written
    const times = ok(await server.api.get('/times', server.adminToken, { user: user.username }));
    assert.deepEqual(times, []);
    assert.equal(ok(await discard(user)), '');
  });

  it('stops with kind 3 when its project or activity was deleted meanwhile', async () => {
    const user = await createUser(server);
    const members = { users: { [user.username]: { member: true } } };
    const gone = (await createProject(server, members)).slugs[0] as string;
    ok(await start(user, { project: gone, activities: [dev] }));
    ok(await server.api.del(`/projects/${gone}`, server.adminToken));
    assert.deepEqual((await stop(user, { duration: 1 })).body, foreignKeyBody('time', 'project'));
    ok(await discard(user));

    const act = (await createActivity(server)).slug;
    const live = (await createProject(server, members)).slugs[0] as string;
    ok(await start(user, { project: live, activities: [act] }));
    ok(await server.api.del(`/activities/${act}`, server.adminToken));
    assert.deepEqual((await stop(user, { duration: 1 })).body, foreignKeyBody('time', 'activity'));
    // Sending other activities at stop is fine.
    assert.deepEqual(ok(await stop(user, { duration: 1, activities: [dev] })).activities, [dev]);
  });

  it('refuses a malformed stop object (kind 4) and keeps the timer', async () => {
    ok(await start(bob, { project: P }));
    assert.deepEqual(
      (await stop(bob, { duration: 1.5 })).body,
      badObjectBody(
        'Field duration of time should be integer from 0 to 2147483647 but was sent as number',
      ),
    );
    assert.deepEqual(
      (await stop(bob, { project: P })).body,
      badObjectBody('time does not have a project field'),
    );
    assert.deepEqual(
      (await stop(bob, [])).body,
      badObjectBody('Field object of request should be object but was sent as array'),
    );
    ok(await show(bob));
    ok(await discard(bob));
  });
});

describe('the start time a timer writes (issue 31)', () => {
  // Zones without daylight saving, so that each wall clock is a fixed shift from UTC:
  // the server's (this process's TZ, set here) +05:45, the user's −04:00.
  const SERVER_ZONE = { name: 'Asia/Kathmandu', minutes: 5 * 60 + 45 };
  const USER_ZONE = { name: 'America/Caracas', minutes: -4 * 60 };
  let zoned: TestUser;
  let plain: TestUser;
  let savedTz: string | undefined;
  let Z: string; // their project

  /** The wall clock `minutes` from UTC at an instant: its date and time of day. */
  const clockAt = (iso: string, minutes: number) => {
    const shifted = new Date(Date.parse(iso) + minutes * 60_000).toISOString();
    return { date: shifted.slice(0, 10), time: shifted.slice(11, 19) };
  };

  before(async () => {
    zoned = await createUser(server, { timezone: USER_ZONE.name });
    plain = await createUser(server);
    const users = { [zoned.username]: { member: true }, [plain.username]: { member: true } };
    Z = (await createProject(server, { users, default_activity: docs })).slugs[0] as string;
    savedTz = process.env.TZ;
    process.env.TZ = SERVER_ZONE.name; // the server runs in this process
  });
  after(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it("is when it started on the server's clock for a user without a time zone", async () => {
    const started = ok(await start(plain, { project: Z }));
    const at = clockAt(started.started_at, SERVER_ZONE.minutes);
    assert.equal(started.date_worked, at.date, 'today on the same clock');
    const time = ok(await stop(plain, { duration: 60 }));
    assert.deepEqual([time.date_worked, time.start_time], [at.date, at.time]);
    assert.deepEqual(ok(await server.api.get(`/times/${time.uuid}`, plain.token)), time);
  });

  it("is when it started in the user's time zone when they have one", async () => {
    const started = ok(await start(zoned, { project: Z }));
    const at = clockAt(started.started_at, USER_ZONE.minutes);
    assert.equal(started.date_worked, at.date, 'today in their zone');
    const time = ok(await stop(zoned, { duration: 60 }));
    assert.deepEqual([time.date_worked, time.start_time], [at.date, at.time]);
  });

  it("is the owner's clock when an admin stops it, and keeps a date_worked sent at start", async () => {
    const started = ok(await start(zoned, { project: Z, date_worked: '2026-01-05' }));
    const time = ok(await stop(asAdmin(), { duration: 60 }, `?user=${zoned.username}`));
    assert.deepEqual(
      [time.user, time.date_worked, time.start_time],
      [zoned.username, '2026-01-05', clockAt(started.started_at, USER_ZONE.minutes).time],
    );
  });

  it('takes a start_time sent at stop, null for none; a bad one is kind 4 and keeps the timer', async () => {
    ok(await start(plain, { project: Z }));
    for (const [start_time, type] of [
      ['7:00', 'string'],
      [700, 'number'],
    ] as const) {
      assert.deepEqual(
        (await stop(plain, { start_time })).body,
        badObjectBody(`Field start_time of time should be a time of day but was sent as ${type}`),
      );
    }
    ok(await show(plain));
    const sent = ok(await stop(plain, { duration: 60, start_time: '07:00:00' }));
    assert.equal(sent.start_time, '07:00:00');
    ok(await start(plain, { project: Z }));
    const none = ok(await stop(plain, { duration: 60, start_time: null }));
    assert.equal(none.start_time, null);
  });
});

describe('?user=', () => {
  it("lets admins read, stop and discard another user's timer", async () => {
    const admin = asAdmin();
    const started = ok(await start(alice, { project: P, notes: 'support' }));
    const shown = ok(await show(admin, { user: alice.username.toUpperCase() }));
    assert.deepEqual({ ...shown, elapsed: 0 }, { ...started, elapsed: 0 });
    assert.deepEqual((await show(admin)).body, notFoundBody('timer'), "the admin's own");

    const time = ok(await stop(admin, { duration: 120 }, `?user=${alice.username}`));
    assert.equal(time.user, alice.username);
    assert.equal(time.duration, 120);
    assert.equal(time.notes, 'support');
    assert.deepEqual(ok(await server.api.get(`/times/${time.uuid}`, alice.token)), time);
    assert.deepEqual((await show(alice)).body, notFoundBody('timer'));

    ok(await start(alice, { project: P }));
    assert.equal(ok(await discard(admin, { user: alice.username })), '');
    assert.deepEqual((await show(alice)).body, notFoundBody('timer'));
  });

  it('is kind 11 for a malformed or unknown username', async () => {
    const admin = asAdmin();
    assert.deepEqual(
      (await show(admin, { user: 'no-such-user' })).body,
      badQueryBody('user', 'no-such-user'),
    );
    assert.deepEqual(
      (await show(admin, { user: 'bad name' })).body,
      badQueryBody('user', 'bad name'),
    );
    assert.deepEqual(
      (await stop(admin, undefined, '?user=no-such-user')).body,
      badQueryBody('user', 'no-such-user'),
    );
  });

  it('refuses everyone else with kind 9 (before saying whether a timer runs); oneself is fine', async () => {
    ok(await start(alice, { project: P }));
    for (const user of [bob, sitemgr]) {
      const who = user.username;
      const target = { user: alice.username };
      const refused = (action: string) =>
        authorizationBody(who, `${action} the timer of ${alice.username}`);
      assert.deepEqual((await show(user, target)).body, refused('read'));
      assert.deepEqual((await stop(user, {}, `?user=${alice.username}`)).body, refused('stop'));
      assert.deepEqual((await discard(user, target)).body, refused('discard'));
      // The same answer whether or not a timer runs.
      assert.deepEqual(
        (await show(user, { user: carol.username })).body,
        authorizationBody(who, `read the timer of ${carol.username}`),
      );
    }
    ok(await show(alice, { user: alice.username }));
    ok(await discard(alice, { user: alice.username }));
  });
});

describe('a timer kept in the database', () => {
  it('survives a restart, and an export and import, and then stops', async () => {
    const first = await startTestServer();
    const user = await createUser(first);
    const slug = (await createProject(first, { users: { [user.username]: { member: true } } }))
      .slugs[0] as string;
    const act = (await createActivity(first)).slug;
    const started = ok(
      await first.api.post('/timer', user.token, {
        project: slug,
        activities: [act],
        notes: 'over a restart',
        date_worked: '2026-01-02',
      }),
    );
    await first.close();

    const second = await startTestServer({ dbFile: first.dbFile });
    try {
      const token = await second.api.login(user.username, user.password);
      const shown = ok(await second.api.get('/timer', token));
      assert.deepEqual({ ...shown, elapsed: 0 }, { ...started, elapsed: 0 });
    } finally {
      await second.close();
    }

    const dir = tempDir();
    const exported = join(dir, 'export.jsonl');
    const res = await runCli(['admin', 'export', '--db', first.dbFile, '--output', exported]);
    assert.equal(res.code, 0, res.stderr);
    const restored = join(dir, 'restored.db');
    const imported = await runCli(['admin', 'import', exported, '--db', restored]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(await runCli(['admin', 'check', '--db', restored]), {
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });

    const third = await startTestServer({ dbFile: restored });
    try {
      const token = await third.api.login(user.username, user.password);
      const shown = ok(await third.api.get('/timer', token));
      assert.deepEqual({ ...shown, elapsed: 0 }, { ...started, elapsed: 0 });
      const time = ok(await third.api.post('/timer/stop', token, { duration: 3 }));
      assert.deepEqual(
        [time.duration, time.notes, time.date_worked, time.activities, time.revision],
        [3, 'over a restart', '2026-01-02', [act], 1],
      );
    } finally {
      await third.close();
    }
  });
});

function asAdmin(): TestUser {
  return { username: 'admin', password: '', token: server.adminToken };
}
