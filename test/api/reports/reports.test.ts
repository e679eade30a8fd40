// GET /v0/reports (issue 15): totals grouped in SQL, with exactly the filters and the
// visibility of GET /times — checked for every role of the authorization matrix against
// sums computed from GET /times with the same query — ISO weeks across year
// boundaries, the multi-activity counting rule, the errors, and the query plans.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { migrate } from '../../../src/db/migrate';
import { openDatabase } from '../../../src/db/open';
import type { Grouping } from '../../../src/reports/json';
import { reportQuery } from '../../../src/reports/store';
import type { TimeListFilters } from '../../../src/times/store';
import type { Query } from '../../helpers/api';
import { createUser } from '../../helpers/factories';
import { startTestServer, type TestServer, tempDir } from '../../helpers/server';

interface Time {
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
  duration: number;
}
interface Row {
  project?: string[];
  project_name?: string;
  activity?: string;
  user?: string;
  day?: string;
  week?: string;
  month?: string;
  status?: string;
  duration: number;
  entries: number;
}

const badQuery = (key: string, value: string) => ({
  status: 400,
  error: 'Bad query value',
  text: `Parameter ${key} contained invalid value ${value}`,
});

/** ISO 8601 week of a date, YYYY-Www (the week of its Thursday). */
function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const thursday = new Date(d);
  thursday.setUTCDate(d.getUTCDate() + 3 - ((d.getUTCDay() + 6) % 7));
  const year = thursday.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  const week = Math.floor((thursday.getTime() - jan1) / 86_400_000 / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** A time's keys for one grouping (several for activities: it counts under each). */
function keysOf(t: Time, g: Grouping): string[] {
  switch (g) {
    case 'project':
      return [JSON.stringify(t.project)];
    case 'activity':
      return t.activities;
    case 'user':
      return [t.user];
    case 'day':
      return [t.date_worked];
    case 'week':
      return [isoWeek(t.date_worked)];
    case 'month':
      return [t.date_worked.slice(0, 7)];
    case 'status':
      return ['open']; // nothing is submitted here (test/api/approvals/ has the others)
  }
}

/** The report rows GET /times implies: each time under every combination of its keys. */
function expectedRows(times: Time[], groupBy: Grouping[]): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const t of times) {
    let combos: string[][] = [[]];
    for (const g of groupBy) combos = combos.flatMap((c) => keysOf(t, g).map((k) => [...c, k]));
    for (const c of combos) {
      const key = c.join('|');
      const [d, n] = out.get(key) ?? [0, 0];
      out.set(key, [d + t.duration, n + 1]);
    }
  }
  return out;
}

const rowKey = (r: Row, groupBy: Grouping[]) =>
  groupBy.map((g) => (g === 'project' ? JSON.stringify(r.project) : r[g])).join('|');

describe('GET /v0/reports', () => {
  let server: TestServer;
  let admin: string;
  const tokens: Record<string, string> = {};
  const ROLES = ['admin', 'sitemgr', 'sitespec', 'projmgr', 'member', 'spectator', 'plain'];

  const post = async (path: string, object: unknown) => {
    const res = await server.api.post(path, admin, object);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body;
  };
  const time = (
    user: string,
    project: string,
    date_worked: string,
    duration: number,
    activities = ['dev'],
  ) => post('/times', { user, project, date_worked, duration, activities });
  const report = (token: string, query: Query) => server.api.get('/reports', token, query);

  before(async () => {
    server = await startTestServer();
    admin = server.adminToken;
    tokens.admin = admin;
    const flags: Record<string, object> = {
      sitemgr: { site_manager: true },
      sitespec: { site_spectator: true },
    };
    for (const name of ROLES.slice(1)) {
      tokens[name] = (await createUser(server, { username: name, ...flags[name] })).token;
    }
    for (const name of ['member2', 'qmember', '-dash'])
      await createUser(server, { username: name });
    for (const slug of ['dev', 'docs', 'ops']) await post('/activities', { name: slug, slug });
    await post('/projects', {
      name: 'Project P',
      slugs: ['pp', 'p-alias'],
      users: {
        projmgr: { manager: true, member: true },
        member: { member: true },
        member2: { member: true },
        spectator: { spectator: true },
      },
    });
    await post('/projects', {
      name: 'Project Q',
      slugs: ['qq'],
      users: { qmember: { member: true }, member: { member: true }, '-dash': { member: true } },
    });
    await time('member', 'pp', '2024-01-02', 3600, ['dev', 'docs']);
    await time('member', 'pp', '2024-01-15', 1800);
    await time('member', 'qq', '2024-02-01', 900, ['ops']);
    await time('member2', 'pp', '2024-01-15', 7200, ['docs']);
    await time('member2', 'pp', '2024-03-31', 60, ['dev', 'docs', 'ops']);
    await time('projmgr', 'pp', '2024-02-29', 5400);
    await time('qmember', 'qq', '2024-01-02', 4500, ['dev', 'ops']);
    await time('-dash', 'qq', '2024-03-01', 300);
    const gone = (await time('qmember', 'qq', '2024-01-20', 999)) as { uuid: string };
    assert.equal((await server.api.del(`/times/${gone.uuid}`, admin)).status, 200);
    await time('member', 'pp', '2023-12-31', 100); // outside the range below
    // Counted where an update put it (another month, project and user), and again once
    // restored: what reports keep per month (sql/006) follows every write.
    const moved = (await time('member', 'pp', '2024-01-10', 1200)) as { uuid: string };
    await post(`/times/${moved.uuid}`, {
      date_worked: '2024-03-05',
      project: 'qq',
      user: 'qmember',
      duration: 2400,
    });
    const back = (await time('member2', 'pp', '2024-02-10', 600)) as { uuid: string };
    assert.equal((await server.api.del(`/times/${back.uuid}`, admin)).status, 200);
    await post(`/times/${back.uuid}`, { notes: 'restored' });
  });
  after(() => server.close());

  const RANGE = { start: '2024-01-01', end: '2024-03-31' };
  const FILTERS: Query[] = [
    {},
    { user: 'member' },
    { user: ['member2', 'qmember'] },
    { project: 'pp' },
    { project: 'qq' },
    { activity: 'docs' },
    { activity: ['ops', 'docs'], user: 'member2' },
    { include_deleted: true },
    { start: '2024-01-15', end: '2024-02-29' },
  ];
  const GROUPINGS: Grouping[][] = [
    ['user'],
    ['project'],
    ['activity'],
    ['project', 'month'],
    ['user', 'week', 'activity'],
    ['day'],
  ];

  it('counts for every role exactly what GET /times lists with the same filters', async () => {
    for (const role of ROLES) {
      for (const filters of FILTERS) {
        const query = { ...RANGE, ...filters };
        const listed = await server.api.get('/times', tokens[role], query);
        assert.equal(listed.status, 200, listed.text);
        const times = listed.body as Time[];
        for (const groupBy of GROUPINGS) {
          const res = await report(tokens[role] as string, { ...query, group_by: groupBy });
          const where = `${role} ${JSON.stringify(query)} by ${groupBy}`;
          assert.equal(res.status, 200, `${where}: ${res.text}`);
          assert.deepEqual(
            res.body.total,
            {
              duration: times.reduce((s, t) => s + t.duration, 0),
              entries: times.length,
            },
            where,
          );
          const got = new Map<string, [number, number]>(
            (res.body.rows as Row[]).map((r) => [rowKey(r, groupBy), [r.duration, r.entries]]),
          );
          assert.deepEqual(got, expectedRows(times, groupBy), where);
        }
      }
    }
  });

  it('answers the query, the rows sorted by their keys and the total', async () => {
    const res = await report(admin, { ...RANGE, group_by: ['project', 'user'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['start', 'end', 'group_by', 'rows', 'total']);
    assert.equal(res.body.start, '2024-01-01');
    assert.equal(res.body.end, '2024-03-31');
    assert.deepEqual(res.body.group_by, ['project', 'user']);
    assert.deepEqual(res.body.rows, [
      {
        project: ['pp', 'p-alias'],
        project_name: 'Project P',
        user: 'member',
        duration: 5400,
        entries: 2,
      },
      {
        project: ['pp', 'p-alias'],
        project_name: 'Project P',
        user: 'member2',
        duration: 7860,
        entries: 3,
      },
      {
        project: ['pp', 'p-alias'],
        project_name: 'Project P',
        user: 'projmgr',
        duration: 5400,
        entries: 1,
      },
      { project: ['qq'], project_name: 'Project Q', user: '-dash', duration: 300, entries: 1 },
      { project: ['qq'], project_name: 'Project Q', user: 'member', duration: 900, entries: 1 },
      { project: ['qq'], project_name: 'Project Q', user: 'qmember', duration: 6900, entries: 2 },
    ]);
    assert.deepEqual(res.body.total, { duration: 26760, entries: 10 });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  });

  it('counts an entry under each of its activities, and once in the total', async () => {
    const res = await report(tokens.member as string, {
      start: '2024-01-02',
      end: '2024-01-02',
      user: 'member',
      group_by: 'activity',
    });
    assert.deepEqual(res.body.rows, [
      { activity: 'dev', duration: 3600, entries: 1 },
      { activity: 'docs', duration: 3600, entries: 1 },
    ]);
    assert.deepEqual(res.body.total, { duration: 3600, entries: 1 });
  });

  it('groups by day, ISO week (week-numbering year) and month', async () => {
    await post('/projects', {
      name: 'Weeks',
      slugs: ['weeks'],
      users: { plain: { member: true } },
    });
    const dates = ['2019-12-30', '2020-12-31', '2021-01-03', '2021-01-04', '2024-12-30'];
    for (const d of dates) await time('plain', 'weeks', d, 60);
    const by = async (g: Grouping) =>
      (
        await report(tokens.plain as string, {
          start: '2019-12-30',
          end: '2024-12-30',
          project: 'weeks',
          group_by: g,
        })
      ).body.rows as Row[];
    assert.deepEqual(
      (await by('week')).map((r) => [r.week, r.entries]),
      [
        ['2020-W01', 1],
        ['2020-W53', 2],
        ['2021-W01', 1],
        ['2025-W01', 1],
      ],
    );
    assert.deepEqual(
      (await by('day')).map((r) => r.day),
      dates,
    );
    assert.deepEqual(
      (await by('month')).map((r) => [r.month, r.entries]),
      [
        ['2019-12', 1],
        ['2020-12', 1],
        ['2021-01', 2],
        ['2024-12', 1],
      ],
    );
    for (const d of dates)
      assert.ok(['2020-W01', '2020-W53', '2021-W01', '2025-W01'].includes(isoWeek(d)));
  });

  it('answers an empty report with zero totals', async () => {
    const res = await report(admin, { start: '2030-01-01', end: '2030-01-31', group_by: 'day' });
    assert.deepEqual(res.body, {
      start: '2030-01-01',
      end: '2030-01-31',
      group_by: ['day'],
      rows: [],
      total: { duration: 0, entries: 0 },
    });
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await server.api.raw(
      `/v0/reports?token=${admin}&start=2024-01-01&end=2024-01-31&group_by=user`,
      { method: 'HEAD' },
    );
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
  });

  it('refuses bad queries with kind 11 (Bad Query Value)', async () => {
    const cases: [Query, string, string][] = [
      [{ end: '2024-01-31', group_by: 'day' }, 'start', ''],
      [{ start: '2024-01-01', group_by: 'day' }, 'end', ''],
      [{ start: '', end: '2024-01-31', group_by: 'day' }, 'start', ''],
      [{ start: '2024-02-30', end: '2024-03-31', group_by: 'day' }, 'start', '2024-02-30'],
      [{ start: '2024-02-01', end: '2024-01-31', group_by: 'day' }, 'end', '2024-01-31'],
      [{ start: '2020-01-01', end: '2025-01-02', group_by: 'day' }, 'end', '2025-01-02'],
      [{ ...RANGE }, 'group_by', ''],
      [{ ...RANGE, group_by: 'year' }, 'group_by', 'year'],
      [{ ...RANGE, group_by: 'project,month' }, 'group_by', 'project,month'],
      [{ ...RANGE, group_by: ['day', 'user', 'day'] }, 'group_by', 'day'],
      [{ ...RANGE, group_by: ['day', 'user', 'project', 'month'] }, 'group_by', 'month'],
      [{ ...RANGE, group_by: 'day', user: 'nobody' }, 'user', 'nobody'],
      [{ ...RANGE, group_by: 'day', project: 'nope' }, 'project', 'nope'],
      [{ ...RANGE, group_by: 'day', activity: 'NOT A SLUG' }, 'activity', 'NOT A SLUG'],
      [{ ...RANGE, group_by: 'day', include_deleted: 'maybe' }, 'include_deleted', 'maybe'],
    ];
    for (const [query, key, value] of cases) {
      const res = await report(admin, query);
      assert.deepEqual(res.body, badQuery(key, value), JSON.stringify(query));
    }
    // Exactly five years apart is allowed.
    const ok = await report(admin, { start: '2020-01-01', end: '2025-01-01', group_by: 'day' });
    assert.equal(ok.status, 200, ok.text);
  });

  it('reports on any date the API accepts, years 0000 to 9999', async () => {
    await post('/projects', {
      name: 'Edges',
      slugs: ['edges'],
      users: { member: { member: true } },
    });
    for (const day of ['0000-01-01', '0000-02-29', '0004-12-31', '9995-01-01', '9999-12-31']) {
      await time('member', 'edges', day, 60);
    }
    const cases: [Query, string[], string[]][] = [
      [
        { start: '9995-01-01', end: '9999-12-31' },
        ['9995-01-01', '9999-12-31'],
        ['9994-W52', '9999-W52'],
      ],
      [{ start: '9999-12-31', end: '9999-12-31' }, ['9999-12-31'], ['9999-W52']],
      [{ start: '9996-03-01', end: '9999-12-31' }, ['9999-12-31'], ['9999-W52']],
      [
        { start: '0000-01-01', end: '0004-12-31' },
        ['0000-01-01', '0000-02-29', '0004-12-31'],
        ['-0001-W52', '0000-W09', '0004-W53'],
      ],
    ];
    for (const [range, days, weeks] of cases) {
      for (const group_by of ['day', 'week', 'month', 'project', 'user', 'activity']) {
        const res = await report(admin, { ...range, project: 'edges', group_by });
        const where = `${JSON.stringify(range)} by ${group_by}`;
        assert.equal(res.status, 200, `${where}: ${res.text}`);
        assert.deepEqual(res.body.total, { duration: 60 * days.length, entries: days.length });
        if (group_by === 'day')
          assert.deepEqual(
            res.body.rows.map((r: Row) => r.day),
            days,
          );
        if (group_by === 'week')
          assert.deepEqual(
            res.body.rows.map((r: Row) => r.week),
            weeks,
          );
      }
    }
    // Five years at either end of the calendar (29 February + 5 years is 1 March).
    for (const [start, end, allowed] of [
      ['9994-02-28', '9999-02-28', true],
      ['9994-02-28', '9999-03-01', false],
      ['9995-01-01', '9999-12-31', true],
      ['0000-02-29', '0005-03-01', true],
      ['0000-02-29', '0005-03-02', false],
    ] as const) {
      const res = await report(admin, { start, end, group_by: 'month' });
      if (allowed) assert.equal(res.status, 200, `${start}..${end}: ${res.text}`);
      else assert.deepEqual(res.body, badQuery('end', end), `${start}..${end}`);
    }
  });

  it('needs a token (kind 7)', async () => {
    const res = await server.api.get('/reports', undefined, { ...RANGE, group_by: 'day' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'Authentication failure');
  });
});

describe('report query plans', () => {
  const db = openDatabase(join(tempDir(), 'plan.db'));
  migrate(db);
  const plan = (filters: TimeListFilters, groupBy: Grouping[]) => {
    const q = reportQuery(filters, groupBy);
    return (
      db.prepare(`EXPLAIN QUERY PLAN ${q.rowsSql}`).all(...q.rowsParams) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join('\n');
  };
  const base: TimeListFilters = {
    viewer: { id: 1, seesAll: true },
    userIds: [],
    projectIds: [],
    activityIds: [],
    includeDeleted: false,
    includeRevisions: false,
  };

  it("reads one user's month from times_user_date alone", () => {
    for (const viewer of [base.viewer, { id: 3, seesAll: false }]) {
      const p = plan({ ...base, viewer, userIds: [3], start: '2024-01-01', end: '2024-01-31' }, [
        'day',
      ]);
      assert.match(
        p,
        /SEARCH t USING COVERING INDEX times_user_date \(user_id=\? AND date_worked>\?/,
      );
      assert.doesNotMatch(p, /SCAN t\b/);
    }
  });

  it("reads everyone's year as a range of times_date alone, not the table", () => {
    // (project, month and user groupings of whole months read their totals: query-plan.test.ts)
    for (const groupBy of [['day'], ['week', 'project'], ['activity']] as Grouping[][]) {
      const p = plan({ ...base, start: '2024-01-01', end: '2024-12-31' }, groupBy);
      assert.match(
        p,
        /SEARCH t USING COVERING INDEX times_date \(date_worked>\? AND date_worked<\?\)/,
      );
      assert.doesNotMatch(p, /SCAN t\b/);
    }
  });

  it("reads one project's range through times_project_date", () => {
    const p = plan({ ...base, projectIds: [2], start: '2024-01-01', end: '2024-12-31' }, [
      'activity',
    ]);
    assert.match(p, /SEARCH t USING (COVERING )?INDEX times_project_date \(project_id=\?/);
    assert.doesNotMatch(p, /SCAN t\b/);
  });
});
