// `status=approved|submitted|open` on GET /v0/times and GET /v0/reports (issue 32): each
// equals the sum by hand of the entries whose week part has that status (open: no part,
// or one open or rejected), with the list's visibility; CSV's status column.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Reply } from '../../helpers/api';
import { badQueryBody } from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let admin: string;
let alice: TestUser;
let bob: TestUser;
let pm: TestUser; // manager of P only
let P: string;
let Q: string;
/** uuid → [duration, status it should be counted under] */
const expected = new Map<string, [number, 'approved' | 'submitted' | 'open']>();

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
  alice = await createUser(server);
  bob = await createUser(server);
  pm = await createUser(server);
  const act = (await createActivity(server)).slug;
  P = (
    await createProject(server, {
      default_activity: act,
      users: {
        [alice.username]: { member: true },
        [bob.username]: { member: true },
        [pm.username]: { manager: true },
      },
    })
  ).slugs[0] as string;
  Q = (
    await createProject(server, {
      default_activity: act,
      users: { [alice.username]: { member: true } },
    })
  ).slugs[0] as string;
  const add = async (
    user: TestUser,
    project: string,
    date: string,
    duration: number,
    status: 'approved' | 'submitted' | 'open',
  ) => {
    const t = ok(
      await server.api.post('/times', user.token, {
        duration,
        user: user.username,
        project,
        date_worked: date,
      }),
    );
    expected.set(t.uuid, [duration, status]);
  };
  // 2026-W10: 03-02..03-08; W11: 03-09..03-15. A week crossing months: 2026-W14 (03-30..04-05).
  await add(alice, P, '2026-03-02', 3600, 'approved');
  await add(alice, P, '2026-03-08', 1800, 'approved');
  await add(alice, Q, '2026-03-03', 600, 'submitted');
  await add(bob, P, '2026-03-04', 900, 'open'); // rejected
  await add(bob, P, '2026-03-10', 300, 'open'); // never submitted
  await add(alice, P, '2026-03-11', 1200, 'open');
  await add(alice, P, '2026-03-31', 500, 'submitted');
  await add(alice, P, '2026-04-01', 700, 'submitted');
  ok(await server.api.post(`/weeks/${alice.username}/2026-W10/submit`, alice.token, {}));
  ok(await server.api.post(`/weeks/${bob.username}/2026-W10/submit`, bob.token, {}));
  ok(await server.api.post(`/weeks/${alice.username}/2026-W14/submit`, alice.token, {}));
  ok(await server.api.post(`/approvals/${alice.username}/2026-W10/${P}/approve`, pm.token, {}));
  ok(
    await server.api.post(`/approvals/${bob.username}/2026-W10/${P}/reject`, pm.token, {
      comment: 'fix it',
    }),
  );
});
after(() => server.close());

/** The hand sum: entries of that status the caller can see, within the dates. */
const handSum = (status: string, visible: (uuid: string) => boolean = () => true) =>
  [...expected].filter(([u, [, s]]) => s === status && visible(u)).reduce((n, [, [d]]) => n + d, 0);

describe('status filter', () => {
  const range = { start: '2026-03-01', end: '2026-04-30' };

  it('lists and totals exactly the entries of that status, for every status', async () => {
    for (const status of ['approved', 'submitted', 'open'] as const) {
      const times = ok(await server.api.get('/times', admin, { ...range, status }));
      const want = [...expected].filter(([, [, s]]) => s === status).map(([u]) => u);
      assert.deepEqual(times.map((t: any) => t.uuid).sort(), want.sort(), status);
      const sum = times.reduce((n: number, t: any) => n + t.duration, 0);
      assert.equal(sum, handSum(status), status);
      // A report of whole months (the per-month totals) and one by day agree with it.
      for (const group_by of ['project', 'day', 'user']) {
        const report = ok(await server.api.get('/reports', admin, { ...range, status, group_by }));
        assert.equal(report.total.duration, handSum(status), `${status} by ${group_by}`);
      }
    }
    assert.equal(
      handSum('approved') + handSum('submitted') + handSum('open'),
      ok(await server.api.get('/reports', admin, { ...range, group_by: 'user' })).total.duration,
    );
  });

  it("keeps the list's visibility and filters (one user's month)", async () => {
    const mine = ok(
      await server.api.get('/times', alice.token, {
        user: alice.username,
        status: 'submitted',
        start: '2026-03-01',
        end: '2026-03-31',
      }),
    );
    assert.deepEqual(mine.map((t: any) => t.duration).sort(), [500, 600]);
    // pm sees P only: Q's submitted part is not counted.
    const report = ok(
      await server.api.get('/reports', pm.token, {
        ...range,
        status: 'submitted',
        group_by: 'project',
      }),
    );
    assert.equal(report.total.duration, 1200);
    const open = ok(await server.api.get('/times', pm.token, { ...range, status: 'open' }));
    assert.equal(
      open.reduce((n: number, t: any) => n + t.duration, 0),
      2400,
    );
    assert.deepEqual(
      (await server.api.get('/times', admin, { status: 'rejected' })).body,
      badQueryBody('status', 'rejected'),
    );
    assert.deepEqual(
      (await server.api.get('/reports', admin, { ...range, status: 'x', group_by: 'user' })).body,
      badQueryBody('status', 'x'),
    );
  });

  it('groups a report by status, each total its hand sum, JSON and CSV', async () => {
    const report = ok(
      await server.api.get('/reports', admin, { ...range, group_by: ['status', 'user'] }),
    );
    const byStatus = new Map<string, number>();
    for (const row of report.rows) {
      byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + row.duration);
    }
    // bob's rejected week (900) is `rejected` here; `open` in the filter (editable).
    assert.deepEqual(Object.fromEntries(byStatus), {
      approved: handSum('approved'),
      open: handSum('open') - 900,
      rejected: 900,
      submitted: handSum('submitted'),
    });
    const csv = await server.api.raw(
      `/v0/reports?token=${admin}&format=csv&start=${range.start}&end=${range.end}&group_by=status`,
    );
    const [header, ...rows] = parse(csv.text, { record_delimiter: '\r\n' }) as string[][];
    assert.deepEqual(header, ['status', 'hours', 'duration_seconds', 'entries']);
    assert.deepEqual(
      rows.map((r) => [r[0], Number(r[2])]),
      [
        ['approved', handSum('approved')],
        ['open', handSum('open') - 900],
        ['rejected', 900],
        ['submitted', handSum('submitted')],
      ],
    );
  });

  it("gives CSV a status column with each entry's part's status", async () => {
    const res = await server.api.raw(
      `/v0/times?token=${admin}&format=csv&start=2026-03-01&end=2026-04-30`,
    );
    const [header, ...rows] = parse(res.text, { record_delimiter: '\r\n' }) as string[][];
    assert.equal(header?.at(-1), 'status');
    const byUuid = new Map(rows.map((r) => [r[0], r.at(-1)]));
    const shown = (s: string) => (s === 'open' ? ['open', 'rejected'] : [s]);
    for (const [uuid, [, status]] of expected) {
      assert.ok(shown(status).includes(byUuid.get(uuid) as string), `${uuid}: ${byUuid.get(uuid)}`);
    }
    assert.equal([...byUuid.values()].filter((s) => s === 'rejected').length, 1);
    // Filtered CSV holds only those.
    const approved = await server.api.raw(`/v0/times?token=${admin}&format=csv&status=approved`);
    const approvedRows = (parse(approved.text, { record_delimiter: '\r\n' }) as string[][]).slice(
      1,
    );
    assert.deepEqual(
      approvedRows.map((r) => r.at(-1)),
      ['approved', 'approved'],
    );
  });
});
