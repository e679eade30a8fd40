// Weekly submission, approval and locked periods (issue 32) through real HTTP: submit,
// approve, reject (with its comment), reopen, the list and its visibility, the history,
// kind 14 on every write of a time entry and on the timer's stop, the lock date (admins
// included), and the order of the checks (kinds 5, 1, 4, 9 before the state).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../helpers/api';
import {
  authorizationBody,
  badObjectBody,
  badQueryBody,
  invalidIdentifierBody,
  notFoundBody,
} from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let admin: string;
let alice: TestUser; // member of P and Q
let bob: TestUser; // member of P
let pm: TestUser; // manager (and member) of P
let qm: TestUser; // manager of Q
let spec: TestUser; // spectator of P
let sitemgr: TestUser;
let sitespec: TestUser;
let outsider: TestUser;
let P: string;
let Q: string;
let act: string;

// 2026-W10 is Monday 2026-03-02 to Sunday 2026-03-08.
const W10 = { mon: '2026-03-02', tue: '2026-03-03', wed: '2026-03-04', sun: '2026-03-08' };

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const locked = (text: string) => ({ status: 409, error: 'Period locked', text });
const partLocked = (user: string, project: string, week: string, status: string) =>
  locked(`Time entries of ${user} on ${project} in week ${week} are ${status}`);

const newTime = async (
  token: string,
  user: string,
  project: string,
  date: string,
  duration = 3600,
) =>
  ok(
    await server.api.post('/times', token, {
      duration,
      user,
      project,
      activities: [act],
      date_worked: date,
    }),
  ) as { uuid: string; duration: number };

const submit = (token: string, user: string, week: string) =>
  server.api.post(`/weeks/${user}/${week}/submit`, token, {});
const decide = (
  token: string,
  action: 'approve' | 'reject' | 'reopen',
  user: string,
  week: string,
  project: string,
  object?: unknown,
) => server.api.post(`/approvals/${user}/${week}/${project}/${action}`, token, object);

/** PUT /v0/lock with a Bearer token. */
const putLock = (token: string, object: unknown) =>
  server.api.raw('/v0/lock', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ object }),
  });

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
  [alice, bob, pm, qm, spec, outsider] = [
    await createUser(server, { username: 'alice' }),
    await createUser(server, { username: 'bob' }),
    await createUser(server, { username: 'pm' }),
    await createUser(server, { username: 'qm' }),
    await createUser(server, { username: 'spec' }),
    await createUser(server, { username: 'outsider' }),
  ];
  sitemgr = await createUser(server, { username: 'sitemgr', site_manager: true });
  sitespec = await createUser(server, { username: 'sitespec', site_spectator: true });
  act = (await createActivity(server)).slug;
  P = (
    await createProject(server, {
      users: {
        alice: { member: true },
        bob: { member: true },
        pm: { member: true, manager: true },
        spec: { spectator: true },
        admin: { member: true },
      },
    })
  ).slugs[0] as string;
  Q = (
    await createProject(server, {
      users: { alice: { member: true }, qm: { manager: true } },
    })
  ).slugs[0] as string;
});
after(() => server.close());

describe('submitting a week', () => {
  it('submits every part of the week with entries and answers them all', async () => {
    await newTime(alice.token, 'alice', P, W10.mon, 3600);
    await newTime(alice.token, 'alice', P, W10.sun, 1800);
    await newTime(alice.token, 'alice', Q, W10.tue, 600);
    await newTime(alice.token, 'alice', P, '2026-03-09', 7200); // W11: not in the part
    const parts = ok(await submit(alice.token, 'alice', '2026-W10'));
    assert.deepEqual(
      parts.map((p: any) => [p.project[0], p.status, p.duration, p.entries, p.user, p.week]),
      [
        [P, 'submitted', 5400, 2, 'alice', '2026-W10'],
        [Q, 'submitted', 600, 1, 'alice', '2026-W10'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    assert.match(parts[0].submitted_at, /^2\d{3}-\d\d-\d\dT/);
    assert.equal(parts[0].decided_by, null);
  });

  it('refuses a week with no entries (kind 4), others (kind 9), bad paths (5) and users (1)', async () => {
    assert.deepEqual(
      (await submit(alice.token, 'alice', '2026-W20')).body,
      badObjectBody('The week is missing a time entry'),
    );
    assert.deepEqual(
      (await submit(bob.token, 'alice', '2026-W10')).body,
      authorizationBody('bob', 'submit week 2026-W10 of alice'),
    );
    assert.deepEqual(
      (await submit(pm.token, 'alice', '2026-W10')).body,
      authorizationBody('pm', 'submit week 2026-W10 of alice'),
    );
    assert.deepEqual(
      (await submit(alice.token, 'alice', '2026-W54')).body,
      invalidIdentifierBody('week', '2026-W54'),
    );
    // 2025 has no week 53; 2026 (from a Thursday) has.
    assert.deepEqual(
      (await submit(alice.token, 'alice', '2025-W53')).body,
      invalidIdentifierBody('week', '2025-W53'),
    );
    assert.deepEqual(
      (await submit(alice.token, 'alice', '2026-W53')).body,
      badObjectBody('The week is missing a time entry'),
    );
    assert.deepEqual((await submit(admin, 'nobody', '2026-W10')).body, notFoundBody('user'));
    assert.deepEqual(
      (await server.api.post('/weeks/alice/2026-W10/submit', alice.token, { week: 1 })).body,
      badObjectBody('week does not have a week field'),
    );
    assert.deepEqual(
      (await server.api.post('/weeks/alice/2026-W10/submit', bob.token, [])).body,
      badObjectBody('Field object of request should be object but was sent as array'),
    );
  });

  it('lets a site admin submit for someone', async () => {
    await newTime(bob.token, 'bob', P, '2026-03-16');
    const parts = ok(await submit(admin, 'bob', '2026-W12'));
    assert.deepEqual(
      parts.map((p: any) => p.status),
      ['submitted'],
    );
  });
});

describe('locking while submitted or approved (kind 14)', () => {
  let inW10: string;
  let inW11: string;
  let deleted: string;
  before(async () => {
    inW10 = (await newTime(bob.token, 'bob', P, W10.wed, 900)).uuid;
    inW11 = (await newTime(bob.token, 'bob', P, '2026-03-10', 900)).uuid;
    deleted = (await newTime(bob.token, 'bob', P, W10.tue, 100)).uuid;
    ok(await server.api.del(`/times/${deleted}`, bob.token));
    ok(await submit(bob.token, 'bob', '2026-W10'));
  });

  it('refuses create, update, delete and restore in the part, for admins too', async () => {
    const sub = partLocked('bob', P, '2026-W10', 'submitted');
    const create = {
      duration: 60,
      user: 'bob',
      project: P,
      activities: [act],
      date_worked: W10.mon,
    };
    assert.deepEqual((await server.api.post('/times', bob.token, create)).body, sub);
    assert.deepEqual((await server.api.post('/times', admin, create)).body, sub);
    assert.deepEqual(
      (await server.api.post(`/times/${inW10}`, bob.token, { duration: 1 })).body,
      sub,
    );
    assert.deepEqual((await server.api.post(`/times/${inW10}`, admin, { notes: 'x' })).body, sub);
    assert.deepEqual((await server.api.del(`/times/${inW10}`, bob.token)).body, sub);
    assert.deepEqual((await server.api.del(`/times/${inW10}`, sitemgr.token)).body, sub);
    assert.deepEqual((await server.api.post(`/times/${deleted}`, bob.token, {})).body, sub);
    // Nothing was written.
    const entry = ok(await server.api.get(`/times/${inW10}`, admin));
    assert.equal(entry.duration, 900);
    assert.equal(entry.revision, 1);
  });

  it('counts a move for the part it leaves and the part it joins', async () => {
    const sub = partLocked('bob', P, '2026-W10', 'submitted');
    // Into the part from an open week, and out of it.
    assert.deepEqual(
      (await server.api.post(`/times/${inW11}`, bob.token, { date_worked: W10.mon })).body,
      sub,
    );
    assert.deepEqual(
      (await server.api.post(`/times/${inW10}`, bob.token, { date_worked: '2026-03-11' })).body,
      sub,
    );
    // Open weeks stay editable.
    ok(await server.api.post(`/times/${inW11}`, bob.token, { date_worked: '2026-03-12' }));
  });

  it('checks kinds 1, 4, 3 and 9 first', async () => {
    const bad = { duration: 'x', user: 'bob', project: P, activities: [act], date_worked: W10.mon };
    assert.equal((await server.api.post('/times', bob.token, bad)).body.error, 'Bad object');
    const unknown = {
      duration: 1,
      user: 'bob',
      project: 'nope',
      activities: [act],
      date_worked: W10.mon,
    };
    assert.equal(
      (await server.api.post('/times', bob.token, unknown)).body.error,
      'Invalid foreign key',
    );
    assert.deepEqual(
      (await server.api.post(`/times/${inW10}`, alice.token, { duration: 1 })).body,
      authorizationBody('alice', `update time ${inW10}`),
    );
    assert.equal(
      (await server.api.post(`/times/${inW10}`, bob.token, { nope: 1 })).body.error,
      'Bad object',
    );
  });

  it('refuses a timer stop into the part and keeps the timer', async () => {
    ok(
      await server.api.post('/timer', bob.token, {
        project: P,
        activities: [act],
        date_worked: W10.tue,
      }),
    );
    assert.deepEqual(
      (await server.api.post('/timer/stop', bob.token, { duration: 60 })).body,
      partLocked('bob', P, '2026-W10', 'submitted'),
    );
    ok(await server.api.get('/timer', bob.token));
    // Stopped into an open week, it makes its entry.
    ok(
      await server.api.post('/timer/stop', bob.token, { duration: 60, date_worked: '2026-03-13' }),
    );
  });

  it('says approved once approved, and frees the part when rejected', async () => {
    ok(await decide(pm.token, 'approve', 'bob', '2026-W10', P));
    assert.deepEqual(
      (await server.api.post(`/times/${inW10}`, bob.token, { duration: 5 })).body,
      partLocked('bob', P, '2026-W10', 'approved'),
    );
    ok(await decide(pm.token, 'reopen', 'bob', '2026-W10', P));
    ok(await server.api.post(`/times/${inW10}`, bob.token, { duration: 5 }));
    ok(await submit(bob.token, 'bob', '2026-W10'));
    ok(await decide(pm.token, 'reject', 'bob', '2026-W10', P, { comment: 'Wednesday is wrong' }));
    ok(await server.api.post(`/times/${inW10}`, bob.token, { duration: 6 }));
    ok(await server.api.post(`/times/${deleted}`, bob.token, {})); // restore
    ok(await server.api.del(`/times/${deleted}`, bob.token));
  });
});

describe('deciding on a part', () => {
  const week = '2026-W14'; // 2026-03-30 .. 2026-04-05
  before(async () => {
    await newTime(alice.token, 'alice', P, '2026-03-30', 1200);
    await newTime(alice.token, 'alice', Q, '2026-03-31', 300);
    await newTime(pm.token, 'pm', P, '2026-03-30', 60);
    await newTime(admin, 'admin', P, '2026-03-30', 60);
    ok(await submit(alice.token, 'alice', week));
    ok(await submit(pm.token, 'pm', week));
    ok(await submit(admin, 'admin', week));
  });

  it("refuses everyone but the project's managers, site managers and admins", async () => {
    for (const [user, token] of [
      ['alice', alice.token],
      ['bob', bob.token],
      ['qm', qm.token],
      ['spec', spec.token],
      ['sitespec', sitespec.token],
      ['outsider', outsider.token],
    ] as const) {
      assert.deepEqual(
        (await decide(token, 'approve', 'alice', week, P)).body,
        authorizationBody(user, `approve week ${week} of alice in project ${P}`),
        user,
      );
    }
    // The manager of Q decides on Q, not on P.
    assert.equal(ok(await decide(qm.token, 'approve', 'alice', week, Q)).status, 'approved');
  });

  it('refuses anyone their own entries, admins included', async () => {
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'pm', week, P)).body,
      authorizationBody('pm', `approve week ${week} of pm in project ${P}`),
    );
    assert.deepEqual(
      (await decide(admin, 'approve', 'admin', week, P)).body,
      authorizationBody('admin', `approve week ${week} of admin in project ${P}`),
    );
    ok(await decide(admin, 'approve', 'pm', week, P));
    ok(await decide(sitemgr.token, 'reject', 'admin', week, P, { comment: 'no' }));
  });

  it('requires a comment to reject, and the right status for each decision', async () => {
    assert.deepEqual(
      (await decide(pm.token, 'reject', 'alice', week, P)).body,
      badObjectBody('The week is missing a comment'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'reject', 'alice', week, P, { comment: '' })).body,
      badObjectBody(
        'Field comment of week should be string of 1 to 2000 characters but was sent as string',
      ),
    );
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', week, P, { note: 'x' })).body,
      badObjectBody('week does not have a note field'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'reopen', 'alice', week, P)).body,
      badObjectBody('Only an approved week can be reopened'),
    );
    const rejected = ok(
      await decide(pm.token, 'reject', 'alice', week, P, { comment: 'Split Monday' }),
    );
    assert.equal(rejected.status, 'rejected');
    assert.equal(rejected.comment, 'Split Monday');
    assert.equal(rejected.decided_by, 'pm');
    assert.equal(rejected.duration, 1200);
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', week, P)).body,
      badObjectBody('Only a submitted week can be approved'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'reject', 'alice', week, P, { comment: 'again' })).body,
      badObjectBody('Only a submitted week can be rejected'),
    );
    ok(await submit(alice.token, 'alice', week));
    const approved = ok(await decide(pm.token, 'approve', 'alice', week, P, { comment: 'Thanks' }));
    assert.deepEqual([approved.status, approved.comment], ['approved', 'Thanks']);
    const reopened = ok(await decide(sitemgr.token, 'reopen', 'alice', week, P));
    assert.deepEqual([reopened.status, reopened.decided_by], ['open', 'sitemgr']);
  });

  it('answers kind 5, then 1, for bad paths', async () => {
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', '2026-10', P)).body,
      invalidIdentifierBody('week', '2026-10'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', week, 'Bad_Slug')).body,
      invalidIdentifierBody('slug', 'Bad_Slug'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'nobody', week, P)).body,
      notFoundBody('user'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', week, 'nope')).body,
      notFoundBody('project'),
    );
    assert.deepEqual(
      (await decide(pm.token, 'approve', 'alice', '2026-W30', P)).body,
      notFoundBody('week'),
    );
  });

  it('keeps every submission and decision, newest first, for who may see the entries', async () => {
    const history = ok(await server.api.get(`/approvals/alice/${week}/${P}/history`, spec.token));
    assert.deepEqual(
      history.map((d: any) => [d.action, d.by, d.comment]),
      [
        ['reopen', 'sitemgr', null],
        ['approve', 'pm', 'Thanks'],
        ['submit', 'alice', null],
        ['reject', 'pm', 'Split Monday'],
        ['submit', 'alice', null],
      ],
    );
    assert.deepEqual(
      (await server.api.get(`/approvals/alice/${week}/${P}/history`, qm.token)).body,
      authorizationBody('qm', `view week ${week} of alice in project ${P}`),
    );
    ok(await server.api.get(`/approvals/alice/${week}/${P}/history`, alice.token));
    ok(await server.api.get(`/approvals/alice/${week}/${P}/history`, sitespec.token));
  });
});

describe('GET /v0/approvals', () => {
  const week = '2026-W16'; // 2026-04-13 .. 2026-04-19
  before(async () => {
    await newTime(alice.token, 'alice', P, '2026-04-13', 100);
    await newTime(alice.token, 'alice', P, '2026-04-19', 200);
    await newTime(alice.token, 'alice', Q, '2026-04-14', 400);
    await newTime(bob.token, 'bob', P, '2026-04-15', 800);
    ok(await submit(alice.token, 'alice', week));
  });
  const keys = (body: any[]) =>
    body.map((p) => `${p.user}/${p.project[0]}/${p.status}/${p.duration}`);
  const list = (token: string, query: Record<string, string> = {}) =>
    server.api.get('/approvals', token, { start: '2026-04-13', end: '2026-04-19', ...query });

  it('shows exactly the parts of the entries GET /v0/times shows the caller', async () => {
    const everyone = [
      `alice/${P}/submitted/300`,
      `alice/${Q}/submitted/400`,
      `bob/${P}/open/800`,
    ].sort();
    const sorted = (res: Reply<any>) => keys(ok(res)).sort();
    assert.deepEqual(sorted(await list(admin)), everyone);
    assert.deepEqual(sorted(await list(sitespec.token)), everyone);
    assert.deepEqual(sorted(await list(sitemgr.token)), everyone);
    assert.deepEqual(sorted(await list(pm.token)), [
      `alice/${P}/submitted/300`,
      `bob/${P}/open/800`,
    ]);
    assert.deepEqual(sorted(await list(spec.token)), [
      `alice/${P}/submitted/300`,
      `bob/${P}/open/800`,
    ]);
    assert.deepEqual(sorted(await list(qm.token)), [`alice/${Q}/submitted/400`]);
    assert.deepEqual(sorted(await list(alice.token)), [
      `alice/${P}/submitted/300`,
      `alice/${Q}/submitted/400`,
    ]);
    assert.deepEqual(sorted(await list(outsider.token)), []);
  });

  it('lists each status as the whole list filtered by it, for every caller', async () => {
    for (const token of [admin, pm.token, qm.token, spec.token, alice.token, outsider.token]) {
      const all = ok(await server.api.get('/approvals', token)) as any[];
      for (const status of ['open', 'submitted', 'approved', 'rejected']) {
        const some = ok(await server.api.get('/approvals', token, { status }));
        assert.deepEqual(
          keys(some).sort(),
          keys(all.filter((p) => p.status === status)).sort(),
          status,
        );
      }
      // And within dates (weeks), one user, one project.
      const dated = { start: '2026-03-04', end: '2026-04-13', user: 'alice', project: P };
      const within = ok(await server.api.get('/approvals', token, dated)) as any[];
      const approved = ok(
        await server.api.get('/approvals', token, { ...dated, status: 'approved' }),
      );
      assert.deepEqual(keys(approved), keys(within.filter((p) => p.status === 'approved')));
    }
  });

  it('filters by status, user and project, and takes whole weeks', async () => {
    const res = await list(pm.token, { status: 'submitted' });
    assert.deepEqual(keys(ok(res)), [`alice/${P}/submitted/300`]);
    assert.equal(res.headers.get('x-total-count'), '1');
    assert.deepEqual(keys(ok(await list(admin, { status: 'open', user: 'bob' }))), [
      `bob/${P}/open/800`,
    ]);
    assert.deepEqual(keys(ok(await list(admin, { project: Q }))), [`alice/${Q}/submitted/400`]);
    // One day of the week lists the whole part.
    assert.deepEqual(
      keys(
        ok(
          await list(admin, { start: '2026-04-15', end: '2026-04-15', user: 'alice', project: P }),
        ),
      ),
      [`alice/${P}/submitted/300`],
    );
    // Paged like every list: X-Total-Count, Link while more remain.
    const all = ok(await list(admin));
    const page = await list(admin, { limit: '1', skip: '1' });
    assert.deepEqual(keys(ok(page)), keys(all).slice(1, 2));
    assert.equal(page.headers.get('x-total-count'), String(all.length));
    assert.match(page.headers.get('link') ?? '', /rel="next"/);
    assert.deepEqual((await list(admin, { status: 'done' })).body, badQueryBody('status', 'done'));
    assert.deepEqual((await list(admin, { user: 'nobody' })).body, badQueryBody('user', 'nobody'));
  });
});

describe('the lock date', () => {
  let early: string;
  let late: string;
  before(async () => {
    early = (await newTime(admin, 'alice', P, '2025-12-30', 100)).uuid;
    late = (await newTime(admin, 'alice', P, '2026-01-05', 100)).uuid;
  });
  after(async () => {
    ok(await putLock(admin, { before: null }));
  });

  it('is set by admins only, with a date or null', async () => {
    assert.deepEqual(ok(await server.api.get('/lock', outsider.token)), { before: null });
    assert.deepEqual(
      (await putLock(sitemgr.token, { before: '2026-01-01' })).body,
      authorizationBody('sitemgr', 'set the lock date'),
    );
    assert.deepEqual(
      (await putLock(sitemgr.token, {})).body,
      badObjectBody('The lock is missing a before'),
    );
    assert.deepEqual(
      (await putLock(admin, { before: '2026-02-30' })).body,
      badObjectBody('Field before of lock should be date or null but was sent as string'),
    );
    assert.deepEqual(ok(await putLock(admin, { before: '2026-01-01' })), { before: '2026-01-01' });
    assert.deepEqual(ok(await server.api.get('/lock', bob.token)), { before: '2026-01-01' });
  });

  it('refuses every write of an entry dated before it, admins included', async () => {
    const text = locked('Time entries before 2026-01-01 are locked');
    const create = {
      duration: 60,
      user: 'alice',
      project: P,
      activities: [act],
      date_worked: '2025-12-31',
    };
    assert.deepEqual((await server.api.post('/times', admin, create)).body, text);
    assert.deepEqual((await server.api.post('/times', alice.token, create)).body, text);
    assert.deepEqual((await server.api.post(`/times/${early}`, admin, { duration: 1 })).body, text);
    assert.deepEqual((await server.api.del(`/times/${early}`, admin)).body, text);
    // Moving an entry across it, either way.
    assert.deepEqual(
      (await server.api.post(`/times/${late}`, admin, { date_worked: '2025-12-01' })).body,
      text,
    );
    assert.deepEqual(
      (await server.api.post(`/times/${early}`, admin, { date_worked: '2026-02-01' })).body,
      text,
    );
    ok(await server.api.post(`/times/${late}`, admin, { duration: 2 }));
    // Once moved back, the same write goes through.
    ok(await putLock(admin, { before: '2025-12-01' }));
    ok(await server.api.post(`/times/${early}`, admin, { duration: 3 }));
  });
});
