// POST /v0/imports (issue 31 §3): a tracker's export streamed as the body. Admins import
// every row, plain users their own only; a dry run writes nothing; the same file again
// creates nothing; a file of another tool is refused with its missing columns named.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { databaseChecksum } from '../../helpers/checksum';
import { authorizationBody, badObjectBody, badQueryBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { byStart, EXPECTED, fixture, importWorld, shown, sums } from '../../helpers/import-world';
import { startTestServer, type TestServer } from '../../helpers/server';

type Body = string | Buffer | ReadableStream<Uint8Array>;

const post = (server: TestServer, token: string | undefined, query: string, body: Body) =>
  server.api.raw(`/v0/imports?${query}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'text/csv',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    body,
    duplex: 'half',
  } as RequestInit);

const allTimes = async (server: TestServer, query = {}) =>
  (await server.api.get('/times', server.adminToken, query)).body as Record<string, any>[];

describe('POST /v0/imports', () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    ({ alice } = await importWorld(server));
  });
  after(() => server.close());

  it('a dry run answers the report and writes nothing', async () => {
    const before = databaseChecksum(server.dbFile);
    const res = await post(
      server,
      server.adminToken,
      'format=toggl&dry_run=true',
      readFileSync(fixture('toggl')),
    );
    assert.equal(res.status, 200, res.text);
    const report = res.body as any;
    assert.equal(report.dry_run, true);
    assert.equal(report.entries.created, 3);
    assert.deepEqual(
      report.people.list.map((p: any) => [p.person, p.username, p.status]),
      [
        ['alice@example.com', 'alice', 'matched'],
        ['BOB@Example.com', 'bob', 'matched'],
        ['carol@example.com', null, 'skipped'],
      ],
    );
    assert.deepEqual(report.entries.by_person_project, [
      { user: 'alice', project: 'Website Redesign', entries: 2, seconds: 9900 },
      { user: 'bob', project: 'Mobile App', entries: 1, seconds: 7200 },
    ]);
    assert.deepEqual(databaseChecksum(server.dbFile), before);
  });

  it('imports the file as the body: the entries as GET /v0/times shows them', async () => {
    const res = await post(
      server,
      server.adminToken,
      'format=toggl&dry_run=false',
      readFileSync(fixture('toggl')),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as any).entries.created, 3);
    const times = await allTimes(server);
    const want = [...(EXPECTED.toggl?.entries ?? [])].sort(byStart);
    assert.deepEqual(times.map(shown).sort(byStart), want);
    assert.deepEqual(sums(times), { 'alice website': 9900, 'bob mobile-app': 7200 });
  });

  it('the same file again creates nothing', async () => {
    const res = await post(
      server,
      server.adminToken,
      'format=toggl',
      readFileSync(fixture('toggl')),
    );
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as any).entries.created, 0);
    assert.equal((await allTimes(server)).length, 3);
  });

  it('a file of another tool is refused with the columns it lacks', async () => {
    const before = databaseChecksum(server.dbFile);
    const res = await post(
      server,
      server.adminToken,
      'format=clockify',
      readFileSync(fixture('solidtime')),
    );
    assert.deepEqual(
      res.body,
      badObjectBody(
        'The file is not a Clockify detailed report: it has no columns Start Date, Start Time',
      ),
    );
    assert.deepEqual(databaseChecksum(server.dbFile), before);
  });

  it('refuses a file whose first line is not CSV as a file of another kind', async () => {
    const before = databaseChecksum(server.dbFile);
    const res = await post(
      server,
      server.adminToken,
      'format=harvest',
      Buffer.from('GIF89a\x01\x00"\x00\x02\n,;\n', 'latin1'),
    );
    assert.deepEqual(
      res.body,
      badObjectBody(
        'The file is not a Harvest detailed time report: its first line is not CSV (Invalid Opening Quote: a quote is found on field 0 at line 1, value is "GIF89a\\u0001\\u0000")',
      ),
    );
    assert.deepEqual(databaseChecksum(server.dbFile), before);
  });

  it('refuses an unknown format, time zone or default activity as bad query values', async () => {
    const body = readFileSync(fixture('toggl'));
    for (const [query, key, value] of [
      ['format=excel', 'format', 'excel'],
      ['format=toggl&timezone=Mars%2FOlympus', 'timezone', 'Mars/Olympus'],
      ['format=toggl&default_activity=nope', 'default_activity', 'nope'],
    ] as const) {
      const res = await post(server, server.adminToken, query, body);
      assert.deepEqual(res.body, badQueryBody(key, value));
    }
  });

  it('needs a token', async () => {
    const res = await post(server, undefined, 'format=toggl', readFileSync(fixture('toggl')));
    assert.equal(res.status, 401);
  });

  it('a plain user imports only their own rows; the others are skipped and counted', async () => {
    const res = await post(
      server,
      alice.token,
      'format=solidtime',
      readFileSync(fixture('solidtime')),
    );
    assert.equal(res.status, 200, res.text);
    const report = res.body as any;
    assert.equal(report.entries.created, 2);
    assert.deepEqual(
      report.entries.reasons.find((r: any) => r.reason === "another person's row"),
      { reason: "another person's row", rows: 3 },
    );
    const mine = await allTimes(server, { user: 'alice', start: '2024-03-04', end: '2024-03-04' });
    assert.deepEqual(mine.map((t) => t.notes).sort(), [
      'Header, footer and "hero" fixes',
      'Hotfix "500" on checkout\n(rolled back at 1am)',
      'Landing page, first draft',
      'Release night:\ndeploy and smoke test',
    ]);
    assert.equal((await allTimes(server, { user: 'bob' })).length, 1);
  });

  it('a plain user may not create users', async () => {
    const res = await post(
      server,
      alice.token,
      'format=solidtime&create_users=true',
      readFileSync(fixture('solidtime')),
    );
    assert.deepEqual(res.body, authorizationBody('alice', 'create users'));
  });

  it('reads a body streamed in pieces, thousands of rows in several transactions', async () => {
    const manager = await createUser(server, { site_manager: true });
    const header = 'Date,Project,Task,Notes,Hours,First Name,Last Name\n';
    const rows = 2500;
    const encoder = new TextEncoder();
    let sent = -1;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === -1) controller.enqueue(encoder.encode(header));
        else if (sent >= rows) return controller.close();
        else {
          // 100 rows a piece, a record split across two pieces each time.
          let text = '';
          for (let i = sent; i < Math.min(rows, sent + 100); i++) {
            text += `2024-05-${String((i % 28) + 1).padStart(2, '0')},Website Redesign,Development,"Row ${i}, streamed",0.5,Bob,Jones\n`;
          }
          const cut = Math.floor(text.length / 2);
          controller.enqueue(encoder.encode(text.slice(0, cut)));
          controller.enqueue(encoder.encode(text.slice(cut)));
          sent += 99;
        }
        sent++;
      },
    });
    const res = await post(server, manager.token, 'format=harvest', stream);
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as any).entries.created, rows);
    const may = await allTimes(server, { user: 'bob', start: '2024-05-01', end: '2024-05-31' });
    assert.equal(may.length, rows);
    assert.equal(sums(may)['bob website'], rows * 1800);
  });
});

// Issue 32: an import writes nothing a person could not write through the API into a
// locked period: rows before the lock date, or in a submitted or approved week part of
// that person and project, are skipped and listed.
describe('POST /v0/imports into locked periods', () => {
  let server: TestServer;
  const HEADER =
    'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags';
  const row = (date: string, notes: string) =>
    `Alice Smith,alice@example.com,,Website Redesign,Development,${notes},No,${date},09:00:00,${date},10:00:00,01:00:00,`;
  const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');
  before(async () => {
    server = await startTestServer();
    await importWorld(server);
  });
  after(() => server.close());

  it('skips rows before the lock date and in a submitted week, and imports the rest', async () => {
    const first = await post(
      server,
      server.adminToken,
      'format=toggl',
      csv(row('2024-03-04', 'Monday')),
    );
    assert.equal(first.status, 200, first.text);
    assert.equal((first.body as any).entries.created, 1);
    const submitted = await server.api.post('/weeks/alice/2024-W10/submit', server.adminToken, {});
    assert.equal(submitted.status, 200, submitted.text);
    const lock = await server.api.raw('/v0/lock', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        auth: { type: 'token', token: server.adminToken },
        object: { before: '2024-03-01' },
      }),
    });
    assert.equal(lock.status, 200, lock.text);

    const res = await post(
      server,
      server.adminToken,
      'format=toggl',
      csv(
        row('2024-02-28', 'Before the lock date'),
        row('2024-03-06', 'In the submitted week'),
        row('2024-03-12', 'The week after'),
      ),
    );
    assert.equal(res.status, 200, res.text);
    const report = res.body as any;
    assert.equal(report.entries.created, 1);
    assert.deepEqual(
      report.entries.reasons.find((r: any) => r.reason === 'locked period'),
      { reason: 'locked period', rows: 2 },
    );
    assert.deepEqual(report.problems, [
      { line: 2, problem: 'locked period: 2024-02-28 is before the lock date 2024-03-01' },
      {
        line: 3,
        problem: 'locked period: week 2024-W10 of alice in Website Redesign is submitted',
      },
    ]);
    const alices = await allTimes(server, { user: 'alice' });
    assert.deepEqual(alices.map((t) => t.notes).sort(), ['Monday', 'The week after']);
  });
});
