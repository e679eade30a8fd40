// CSV answers of GET /v0/times and GET /v0/reports (issue 15): parsed with a real parser
// (csv-parse) and checked against the JSON of the same query; formula cells, headers,
// paging, streaming and errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Query } from '../../helpers/api';
import { createUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const TIME_HEADER = [
  'uuid',
  'date_worked',
  'user',
  'user_name',
  'project',
  'project_name',
  'project_slugs',
  'activities',
  'duration_seconds',
  'hours',
  'notes',
  'issue_uri',
  'created_at',
  'updated_at',
  'deleted_at',
  'revision',
  'start_time',
  'status', // of the entry's week part (issue 32): none here is submitted
];

interface Time {
  uuid: string;
  revision: number;
  duration: number;
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
  start_time: string | null;
  issue_uri: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
}

/** Display names of the test's users (-minus has none). */
const NAMES: Record<string, string> = { bob: 'Bob Builder' };

/** What a time's CSV record must hold, from its JSON (and the names beside it). */
const csvOf = (t: Time): string[] => [
  t.uuid,
  t.date_worked,
  t.user,
  NAMES[t.user] ?? '',
  t.project[0] ?? '',
  t.project.length > 0 ? 'Project P' : '',
  t.project.join(' '),
  t.activities.join(' '),
  String(t.duration),
  (t.duration / 3600).toFixed(2),
  t.notes ?? '',
  t.issue_uri ?? '',
  t.created_at,
  t.updated_at ?? '',
  t.deleted_at ?? '',
  String(t.revision),
  t.start_time ?? '',
  'open',
];

/** RFC 4180 records: CRLF between records, every record as wide as the header. */
const records = (text: string): string[][] =>
  parse(text, { record_delimiter: '\r\n', relax_column_count: false });

describe('CSV export', () => {
  let server: TestServer;
  let admin: string;
  const NOTES = [
    '=HYPERLINK("http://evil.example","click")',
    '+1+2',
    '-3',
    '@SUM(A1)',
    '\tindented',
    '\rcarriage',
    'plain, with "quotes"\r\nand two lines',
    'naïve café – ünïcödé ✓',
    "'already quoted",
    'a-b=c',
  ];

  const get = (path: string, query: Query, headers: Record<string, string> = {}) => {
    const params = new URLSearchParams({ token: admin });
    for (const [k, v] of Object.entries(query)) {
      for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
    }
    return server.api.raw(`/v0${path}?${params}`, { headers });
  };

  before(async () => {
    server = await startTestServer();
    admin = server.adminToken;
    const post = async (path: string, object: unknown) => {
      const res = await server.api.post(path, admin, object);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    await createUser(server, { username: '-minus' });
    await createUser(server, { username: 'bob', display_name: 'Bob Builder' });
    for (const slug of ['dev', 'docs']) await post('/activities', { name: slug, slug });
    await post('/projects', {
      name: 'Project P',
      slugs: ['pp', 'pp-old'],
      users: { '-minus': { member: true }, bob: { member: true } },
    });
    for (const [i, notes] of NOTES.entries()) {
      await post('/times', {
        user: i % 2 === 0 ? '-minus' : 'bob',
        project: 'pp',
        activities: i % 3 === 0 ? ['dev', 'docs'] : ['docs'],
        date_worked: `2024-0${1 + (i % 3)}-1${i}`,
        duration: 450 * (i + 1) + 7,
        notes,
        issue_uri: i === 1 ? 'https://example.org/issues/1' : null,
      });
    }
    const first = (await server.api.get('/times', admin)).body[0] as Time;
    await post(`/times/${first.uuid}`, { duration: 1 });
    const last = (await server.api.get('/times', admin)).body.at(-1) as Time;
    assert.equal((await server.api.del(`/times/${last.uuid}`, admin)).status, 200);
  });
  after(() => server.close());

  it('answers GET /times as RFC 4180 CSV matching the JSON of the same query', async () => {
    for (const query of [
      {},
      { include_deleted: true },
      { user: 'bob', start: '2024-01-01', end: '2024-02-29' },
      { activity: 'dev', limit: 2, skip: 1 },
    ] as Query[]) {
      const json = await get('/times', query);
      const csv = await get('/times', { ...query, format: 'csv' });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(csv.headers.get('x-total-count'), json.headers.get('x-total-count'));
      assert.equal(csv.headers.get('link'), json.headers.get('link'));
      const [header, ...rows] = records(csv.text);
      assert.deepEqual(header, TIME_HEADER);
      const expected = (json.body as Time[])
        .map(csvOf)
        .map((r) => r.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell)));
      assert.deepEqual(rows, expected, JSON.stringify(query));
      assert.ok(csv.text.endsWith('\r\n'));
    }
  });

  it('prefixes cells that a spreadsheet would run as formulas with a quote', async () => {
    const csv = await get('/times', { format: 'csv', include_deleted: true });
    const rows = records(csv.text).slice(1);
    const notes = rows.map((r) => r[10]);
    for (const n of NOTES.slice(0, 6)) assert.ok(notes.includes(`'${n}`), n);
    for (const n of NOTES.slice(6)) assert.ok(notes.includes(n), n);
    assert.ok(rows.some((r) => r[2] === "'-minus"));
    for (const r of rows) for (const cell of r) assert.doesNotMatch(cell, /^[=+\-@\t\r]/);
    // The raw text: the = of the formula never starts a cell.
    assert.ok(csv.text.includes(`"'=HYPERLINK(""http://evil.example"",""click"")"`));
  });

  it('starts no cell with a formula character when read with `,` or with `;`', async () => {
    // A spreadsheet set to split on `;` sees the quotes only at the start of its own
    // cells, and a line break ends its row: what follows a `;` or a line break in our
    // text starts a cell there (issue 29, item 2).
    const payloads: [notes: string, read: string][] = [
      ['x;=1+1', "x;'=1+1"],
      ['a;+SUM(1)', "a;'+SUM(1)"],
      ['b;-2', "b;'-2"],
      ['c;@cmd', "c;'@cmd"],
      ['d;\t=1', "d;'\t=1"],
      ['e;\r=1', "e;'\r'=1"],
      [';=start', ";'=start"],
      ['q;"=1"', `q;'"=1"`],
      ['line\n=1+1', "line\n'=1+1"],
      ['line\r\n@cmd', "line\r\n'@cmd"],
      ['=both;=ends', "'=both;'=ends"],
      ['only; a semicolon', 'only; a semicolon'],
    ];
    await server.api.post('/projects', admin, {
      name: 'Semicolons',
      slugs: ['semi'],
      users: { bob: { member: true } },
    });
    for (const [i, [notes]] of payloads.entries()) {
      const res = await server.api.post('/times', admin, {
        user: 'bob',
        project: 'semi',
        activities: ['dev'],
        date_worked: `2024-05-${String(i + 1).padStart(2, '0')}`,
        duration: 60,
        notes,
      });
      assert.equal(res.status, 200, res.text);
    }
    const csv = await get('/times', { format: 'csv', project: 'semi' });
    assert.equal(csv.status, 200, csv.text);
    // Read with `,`: RFC 4180, the notes as sent but for the quote before a formula.
    const rows = records(csv.text).slice(1);
    assert.deepEqual(rows.map((r) => r[10]).sort(), payloads.map(([, read]) => read).sort());
    for (const r of rows) for (const cell of r) assert.doesNotMatch(cell, /^[=+\-@\t\r]/);
    // Every cell with a `;` is quoted, so a reader splitting on `,` keeps it whole.
    for (const [notes] of payloads) assert.ok(!csv.text.includes(`,${notes},`), notes);
    // Read with `;` as a spreadsheet would: quotes only at a cell's start (elsewhere
    // they are text), any line break ends a row.
    const bySemicolon = parse(csv.text, {
      delimiter: ';',
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_quotes: true,
      relax_column_count: true,
    }) as string[][];
    assert.ok(bySemicolon.length > payloads.length);
    for (const r of bySemicolon) {
      for (const cell of r) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(r));
    }
  });

  it('answers CSV for Accept: text/csv, JSON by default and for format=json', async () => {
    const accept = await get('/times', {}, { Accept: 'text/csv' });
    assert.equal(accept.headers.get('content-type'), 'text/csv; charset=utf-8');
    const both = await get('/times', {}, { Accept: 'application/json;q=0.5, text/csv' });
    assert.equal(both.headers.get('content-type'), 'text/csv; charset=utf-8');
    const jsonAsked: Record<string, string>[] = [
      {},
      { Accept: 'application/json, text/csv;q=0.5' },
      { Accept: '*/*' },
    ];
    for (const headers of jsonAsked) {
      const res = await get('/times', {}, headers);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    }
    const json = await get('/times', { format: 'json' }, { Accept: 'text/csv' });
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
  });

  it('names the download after the dates asked for', async () => {
    const ranged = await get('/times', { format: 'csv', start: '2024-01-01', end: '2024-03-31' });
    assert.equal(
      ranged.headers.get('content-disposition'),
      'attachment; filename="timetrack-times-2024-01-01-2024-03-31.csv"',
    );
    const open = await get('/times', { format: 'csv', end: '2024-03-31' });
    assert.equal(
      open.headers.get('content-disposition'),
      'attachment; filename="timetrack-times-all-2024-03-31.csv"',
    );
    const report = await get('/reports', {
      format: 'csv',
      start: '2024-01-01',
      end: '2024-03-31',
      group_by: 'user',
    });
    assert.equal(
      report.headers.get('content-disposition'),
      'attachment; filename="timetrack-report-2024-01-01-2024-03-31.csv"',
    );
  });

  it('answers GET /reports as CSV matching its JSON', async () => {
    for (const groupBy of [['project', 'activity'], ['user', 'month'], ['week'], ['day']]) {
      const query = { start: '2024-01-01', end: '2024-12-31', group_by: groupBy };
      const json = (await get('/reports', query)).body as {
        rows: Record<string, unknown>[];
      };
      const csv = await get('/reports', query, { Accept: 'text/csv' });
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
      const [header, ...rows] = records(csv.text);
      const columns = groupBy.flatMap((g) =>
        g === 'project' ? [g, 'project_name'] : g === 'user' ? [g, 'user_name'] : [g],
      );
      assert.deepEqual(header, [...columns, 'hours', 'duration_seconds', 'entries']);
      const quoted = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);
      const expected = json.rows.map((r) => [
        ...groupBy.flatMap((g) =>
          g === 'project'
            ? [quoted((r.project as string[])[0] as string), String(r.project_name)]
            : g === 'user'
              ? [quoted(String(r.user)), NAMES[String(r.user)] ?? '']
              : [quoted(String(r[g]))],
        ),
        ((r.duration as number) / 3600).toFixed(2),
        String(r.duration),
        String(r.entries),
      ]);
      assert.deepEqual(rows, expected, groupBy.join(','));
      assert.ok(rows.length > 0);
    }
    const users = records(
      (
        await get('/reports', {
          start: '2024-01-01',
          end: '2024-12-31',
          group_by: 'user',
          format: 'csv',
        })
      ).text,
    );
    assert.equal(users[1]?.[0], "'-minus");
  });

  it('streams a list longer than its first read, with the header once', async () => {
    const post = (object: unknown) => server.api.post('/times', admin, object);
    // Thunks, sent 50 at a time: 1,100 requests at once time out on a loaded machine.
    const batch = Array.from(
      { length: 1100 },
      (_, i) => () =>
        post({
          user: 'bob',
          project: 'pp',
          activities: ['dev'],
          date_worked: '2025-05-05',
          duration: i,
          notes: i % 2 ? '=1+1' : 'x',
        }),
    );
    for (let i = 0; i < batch.length; i += 50) {
      await Promise.all(batch.slice(i, i + 50).map((send) => send()));
    }
    const json = await get('/times', { start: '2025-05-05', end: '2025-05-05' });
    const csv = await get('/times', { start: '2025-05-05', end: '2025-05-05', format: 'csv' });
    assert.equal(csv.headers.get('content-length'), null); // streamed, not sent in one piece
    assert.equal(csv.headers.get('x-total-count'), '1100');
    const [header, ...rows] = records(csv.text);
    assert.deepEqual(header, TIME_HEADER);
    assert.deepEqual(
      rows.map((r) => r[0]),
      (json.body as Time[]).map((t) => t.uuid),
    );
    const head = await server.api.raw(
      `/v0/times?token=${admin}&format=csv&start=2025-05-05&end=2025-05-05`,
      { method: 'HEAD' },
    );
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-type'), 'text/csv; charset=utf-8');
  });

  it('refuses other formats with kind 11 and answers errors as JSON', async () => {
    for (const path of ['/times', '/reports']) {
      const res = await get(path, {
        format: 'xml',
        start: '2024-01-01',
        end: '2024-01-31',
        group_by: 'day',
      });
      assert.deepEqual(res.body, {
        status: 400,
        error: 'Bad query value',
        text: 'Parameter format contained invalid value xml',
      });
    }
    const bad = await get('/reports', { format: 'csv', start: '2024-01-01' });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(bad.body, {
      status: 400,
      error: 'Bad query value',
      text: 'Parameter end contained invalid value ',
    });
  });
});
