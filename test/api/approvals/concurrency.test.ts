// Decisions racing writes (issue 32): requests sent together, many times over, in both
// orders. Whatever order the server takes them in, each answers 200 or its own error, and
// what is stored is what the answers say: no entry written into a locked part, no part
// whose total differs from its entries, no decision recorded twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../helpers/api';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let member: TestUser;
let pm: TestUser;
let pm2: TestUser;
let P: string;
const ROUNDS = 12;

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};
/** The Monday of the ISO week `n` of 2027 (2027-W01 starts on 2027-01-04). */
const mondayOf = (n: number) =>
  new Date(Date.UTC(2027, 0, 4 + 7 * (n - 1))).toISOString().slice(0, 10);
const weekName = (n: number) => `2027-W${String(n).padStart(2, '0')}`;

before(async () => {
  server = await startTestServer();
  [member, pm, pm2] = [
    await createUser(server),
    await createUser(server),
    await createUser(server),
  ];
  const act = (await createActivity(server)).slug;
  P = (
    await createProject(server, {
      default_activity: act,
      users: {
        [member.username]: { member: true },
        [pm.username]: { manager: true },
        [pm2.username]: { manager: true },
      },
    })
  ).slugs[0] as string;
});
after(() => server.close());

const entry = async (n: number) =>
  ok(
    await server.api.post('/times', member.token, {
      duration: 600,
      user: member.username,
      project: P,
      date_worked: mondayOf(n),
    }),
  ).uuid as string;

/** The part's total, entries and history as stored now. */
async function part(n: number) {
  const [row] = ok(
    await server.api.get('/approvals', server.adminToken, {
      user: member.username,
      start: mondayOf(n),
      end: mondayOf(n),
    }),
  );
  const history = ok(
    await server.api.get(
      `/approvals/${member.username}/${weekName(n)}/${P}/history`,
      server.adminToken,
    ),
  );
  return { row, history: history.map((d: any) => d.action) as string[] };
}

const decide = (token: string, n: number, action: string, object: unknown = {}) =>
  server.api.post(`/approvals/${member.username}/${weekName(n)}/${P}/${action}`, token, object);

describe('decisions racing writes', () => {
  it('approve vs update of a submitted part: the update never lands', async () => {
    for (let n = 1; n <= ROUNDS; n++) {
      const uuid = await entry(n);
      ok(
        await server.api.post(`/weeks/${member.username}/${weekName(n)}/submit`, member.token, {}),
      );
      const update = () => server.api.post(`/times/${uuid}`, member.token, { duration: 1200 });
      const approve = () => decide(pm.token, n, 'approve');
      const [u, a] =
        n % 2
          ? await Promise.all([update(), approve()])
          : (await Promise.all([approve(), update()])).reverse();
      assert.equal(a?.status, 200, a?.text);
      assert.equal(u?.status, 409, u?.text);
      assert.match(u?.body.text, /are (submitted|approved)$/);
      const time = ok(await server.api.get(`/times/${uuid}`, member.token));
      assert.deepEqual([time.duration, time.revision], [600, 1]);
      const stored = await part(n);
      assert.deepEqual([stored.row.status, stored.row.duration], ['approved', 600]);
    }
  });

  it('submit vs update of an open part: either the update lands first and is submitted, or it is refused', async () => {
    const outcomes = new Set<number>();
    for (let n = 20; n < 20 + ROUNDS; n++) {
      const uuid = await entry(n);
      const update = () => server.api.post(`/times/${uuid}`, member.token, { duration: 1200 });
      const submit = () =>
        server.api.post(`/weeks/${member.username}/${weekName(n)}/submit`, member.token, {});
      const [u, s] =
        n % 2
          ? await Promise.all([update(), submit()])
          : (await Promise.all([submit(), update()])).reverse();
      assert.equal(s?.status, 200, s?.text);
      assert.ok(u?.status === 200 || u?.status === 409, u?.text);
      outcomes.add(u?.status ?? 0);
      const time = ok(await server.api.get(`/times/${uuid}`, member.token));
      const stored = await part(n);
      // The part's total is its entries' as they are; a refused update wrote nothing.
      assert.equal(stored.row.duration, time.duration);
      assert.equal(time.duration, u?.status === 200 ? 1200 : 600);
      assert.equal(time.revision, u?.status === 200 ? 2 : 1);
      // Submitted answered what it submitted: the entry as it was when it ran.
      assert.equal(s?.body[0].duration, time.duration);
    }
    assert.ok(outcomes.size >= 1);
  });

  it('approve vs reject by two managers: one wins, the other is told the part is no longer submitted', async () => {
    for (let n = 40; n < 40 + ROUNDS; n++) {
      await entry(n);
      ok(
        await server.api.post(`/weeks/${member.username}/${weekName(n)}/submit`, member.token, {}),
      );
      const [a, r] = await Promise.all([
        decide(pm.token, n, 'approve'),
        decide(pm2.token, n, 'reject', { comment: 'no' }),
      ]);
      const answers = [a?.status, r?.status].sort();
      assert.deepEqual(answers, [200, 400], `${a?.text} ${r?.text}`);
      const loser = a?.status === 400 ? a : r;
      assert.match(loser?.body.text, /^Only a submitted week can be (approved|rejected)$/);
      const stored = await part(n);
      assert.deepEqual(stored.history.length, 2);
      assert.equal(stored.row.status, a?.status === 200 ? 'approved' : 'rejected');
    }
  });
});
