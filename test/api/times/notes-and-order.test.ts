// GET /v0/times extensions (issue 34): `notes_contains` keeps the entries whose notes
// contain a text (ASCII letters in any case), in the list, its CSV and GET /v0/reports
// alike; `order` sorts by date worked or duration, either way, ties by last change.
// Bad values are kind 11 and the SPEC's default order is unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { badQueryBody } from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('GET /v0/times: notes_contains and order', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const made: { uuid: string; date: string; duration: number; notes: string | null }[] = [];

  before(async () => {
    server = await startTestServer();
    alice = await createUser(server, { username: 'alice' });
    bob = await createUser(server, { username: 'bob' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createProject(server, {
      name: 'P',
      slugs: ['pp'],
      default_activity: 'dev',
      users: { alice: { member: true }, bob: { member: true } },
    });
    const rows: [TestUser, string, number, string | null][] = [
      [alice, '2024-03-05', 3600, 'Review of the ROADMAP'],
      [alice, '2024-03-01', 600, 'roadmap draft'],
      [alice, '2024-03-09', 1800, 'meeting'],
      [bob, '2024-03-03', 7200, 'Roadmap with alice'],
      [bob, '2024-03-07', 900, null],
    ];
    for (const [user, date, duration, notes] of rows) {
      const res = await server.api.post('/times', user.token, {
        user: user.username,
        project: 'pp',
        activities: ['dev'],
        date_worked: date,
        duration,
        ...(notes ? { notes } : {}),
      });
      assert.equal(res.status, 200, res.text);
      made.push({ uuid: (res.body as { uuid: string }).uuid, date, duration, notes });
    }
  });
  after(() => server.close());

  const dates = (body: unknown) => (body as { date_worked: string }[]).map((t) => t.date_worked);

  it('keeps the entries whose notes contain the text, in any letter case', async () => {
    const all = await server.api.get('/times', server.adminToken, { notes_contains: 'roadMap' });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(dates(all.body).sort(), ['2024-03-01', '2024-03-03', '2024-03-05']);
    // One user's list reads other rows (time_user_rows): the same filter there.
    const hers = await server.api.get('/times', server.adminToken, {
      user: 'alice',
      notes_contains: 'ROADMAP',
    });
    assert.deepEqual(dates(hers.body).sort(), ['2024-03-01', '2024-03-05']);
    assert.equal(hers.headers.get('x-total-count'), '2');
    const none = await server.api.get('/times', alice.token, { notes_contains: 'nothing like it' });
    assert.deepEqual(none.body, []);
  });

  it('is honoured by the CSV and by GET /v0/reports (the total of what matches)', async () => {
    const csv = await server.api.get('/times', server.adminToken, {
      notes_contains: 'roadmap',
      format: 'csv',
    });
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(rows.map((r) => r.date_worked).sort(), [
      '2024-03-01',
      '2024-03-03',
      '2024-03-05',
    ]);
    const report = await server.api.get('/reports', server.adminToken, {
      start: '2024-03-01',
      end: '2024-03-31',
      group_by: 'user',
      notes_contains: 'roadmap',
    });
    assert.equal(report.status, 200, report.text);
    assert.deepEqual((report.body as { total: unknown }).total, { duration: 11400, entries: 3 });
  });

  it('sorts by date worked or duration, either way', async () => {
    const get = async (order: string, query = {}) =>
      (await server.api.get('/times', server.adminToken, { order, ...query })).body;
    assert.deepEqual(dates(await get('-date_worked')), [
      '2024-03-09',
      '2024-03-07',
      '2024-03-05',
      '2024-03-03',
      '2024-03-01',
    ]);
    assert.deepEqual(dates(await get('date_worked', { user: 'alice' })), [
      '2024-03-01',
      '2024-03-05',
      '2024-03-09',
    ]);
    const durations = (body: unknown) => (body as { duration: number }[]).map((t) => t.duration);
    assert.deepEqual(durations(await get('-duration')), [7200, 3600, 1800, 900, 600]);
    assert.deepEqual(durations(await get('duration', { limit: 2, skip: 1 })), [900, 1800]);
    // Absent: the SPEC's order, last change first to last.
    const plain = await server.api.get('/times', server.adminToken);
    assert.deepEqual(
      (plain.body as { uuid: string }[]).map((t) => t.uuid),
      made.map((m) => m.uuid),
    );
  });

  it('refuses an empty or too long text and an unknown order (kind 11)', async () => {
    for (const [key, value] of [
      ['notes_contains', ''],
      ['notes_contains', 'x'.repeat(501)],
      ['order', 'notes'],
      ['order', '-changed'],
    ]) {
      const res = await server.api.get('/times', bob.token, { [key as string]: value as string });
      assert.equal(res.status, 400, `${key}=${value}`);
      assert.deepEqual(res.body, badQueryBody(key as string, value as string));
    }
  });
});
