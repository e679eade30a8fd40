// A list read whole (up to 1,000 entries: one user's month, the commonest) is written by
// json_rows, our SQLite extension (src/db/native/json_rows.c); a single read, a page and a
// streamed list by format() (src/db/sql-json.ts). Both come from one description of the
// entry (src/times/json-sql.ts), and they must write the very same bytes: here, for
// entries whose texts hold everything JSON escapes, through every shape of list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../../src/db/open';
import { MORE_ROWS } from '../../../src/db/sql-json';
import type { Query } from '../../helpers/api';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer, tempDir } from '../../helpers/server';

/** Notes that hold what JSON escapes, and what json_rows' template would mean. */
const NOTES = [
  'plain',
  'a "quoted" word, a \\ backslash and a / slash',
  'control: \u0001 \u0008 \u0009 \u000a \u000c \u000d \u001b \u001f end',
  "it's 100 %s %q %1 %% done",
  'é ü ß 日本語 עברית 🕐',
  'x'.repeat(5000),
  '',
];

describe('a list read whole writes each entry as its single read does', () => {
  let server: TestServer;
  let owner: TestUser;
  const uuids: string[] = [];
  before(async () => {
    server = await startTestServer();
    owner = await createUser(server);
    const activities = [await createActivity(server), await createActivity(server)];
    const slugs = activities.map((a) => a.slug);
    const member = { users: { [owner.username]: { member: true } } };
    const projects = [
      await createProject(server, member),
      await createProject(server, { ...member, slugs: ['two-slugs-b', 'two-slugs-a'] }),
    ];
    for (const [i, notes] of NOTES.entries()) {
      const res = await server.api.post('/times', owner.token, {
        duration: 600 * (i + 1),
        user: owner.username,
        project: projects[i % 2]?.slugs[0],
        activities: i % 3 === 0 ? slugs : [slugs[i % 2]],
        date_worked: `2024-05-${String(10 + i).padStart(2, '0')}`,
        start_time: i % 2 === 0 ? '09:30:00' : undefined,
        issue_uri: i % 2 === 0 ? `https://example.com/issues/${i}?q="${notes.slice(0, 8)}"` : null,
        notes,
      });
      assert.equal(res.status, 200, res.text);
      uuids.push(res.body.uuid);
    }
    // A revised entry, one in the next month, and a deleted one.
    const first = uuids[0] as string;
    const revised = await server.api.post(`/times/${first}`, owner.token, { duration: 7 });
    assert.equal(revised.status, 200, revised.text);
    const june = await server.api.post('/times', owner.token, {
      duration: 60,
      user: owner.username,
      project: projects[0]?.slugs[0],
      activities: [slugs[0]],
      date_worked: '2024-06-01',
    });
    uuids.push(june.body.uuid);
    const deleted = uuids[1] as string;
    assert.equal((await server.api.del(`/times/${deleted}`, owner.token)).status, 200);
  });
  after(() => server.close());

  /** The list's body, and what the single reads of its entries, in its order, make. */
  const compare = async (query: Query) => {
    const list = await server.api.get<{ uuid: string }[]>('/times', server.adminToken, query);
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.length > 0, 'the list has entries');
    const singles: string[] = [];
    for (const { uuid } of list.body) {
      const one = await server.api.get(`/times/${uuid}`, server.adminToken, {
        include_deleted: 'true',
      });
      assert.equal(one.status, 200, one.text);
      singles.push(one.text);
    }
    assert.equal(list.text, `[${singles.join(',')}]`);
    return list.body.map((t) => t.uuid);
  };

  it("writes one user's month byte for byte as the entries' single reads", async () => {
    const listed = await compare({ user: owner.username, start: '2024-05-01', end: '2024-05-31' });
    // In list order: by last change, so the revised entry comes last.
    assert.equal(listed.at(-1), uuids[0]);
    assert.equal(listed.length, NOTES.length - 1);
  });

  it('and every other shape of list read whole', async () => {
    for (const query of [
      { user: owner.username }, // several months
      { user: owner.username, start: '2024-05-01', end: '2024-05-31', include_deleted: 'true' },
      { user: owner.username, start: '2024-05-01', end: '2024-05-31', order: '-duration' },
      { user: [owner.username, 'admin'], start: '2024-05-01', end: '2024-06-30' },
      { start: '2024-05-01', end: '2024-06-30' }, // no user: through `times`
    ] as Query[]) {
      await compare(query);
    }
  });

  it('writes a list of nothing as []', async () => {
    const res = await server.api.get('/times', server.adminToken, {
      user: owner.username,
      start: '2023-01-01',
      end: '2023-01-31',
    });
    assert.equal(res.text, '[]');
  });
});

describe('json_rows, called in SQL', () => {
  const db = openDatabase(`${tempDir()}/json-rows.db`);
  db.exec(`CREATE TABLE names (id INTEGER PRIMARY KEY, json TEXT);
    INSERT INTO names VALUES (1, '"one"'), (2, NULL);
    CREATE TABLE rows (n INTEGER, t TEXT, k INTEGER);
    INSERT INTO rows VALUES (1, 'a"b', 1), (NULL, NULL, 2), (3, 'c', 9), (-42, '4.5', NULL);`);
  const rows = (template: string, lookups: string, values: string) =>
    (
      db
        .prepare(`SELECT json_rows('${template}', '${lookups}', NULL, ${values}) FROM rows`)
        .pluck()
        .get() as Buffer
    ).toString();
  const LOOKUP = 'SELECT json FROM names WHERE id = ?1';

  it('writes numbers, texts, names and nulls in the order of the rows', () => {
    assert.equal(
      rows('{"n":%s,"t":%q,"k":%1,"q":%q,"p":"%%"}', LOOKUP, 'n, t, k, n'),
      '[{"n":1,"t":"a\\"b","k":"one","q":1,"p":"%"},' +
        '{"n":null,"t":null,"k":null,"q":null,"p":"%"},' +
        '{"n":3,"t":"c","k":null,"q":3,"p":"%"},' +
        '{"n":-42,"t":"4.5","k":null,"q":-42,"p":"%"}]',
    );
  });

  it('writes no rows as []', () => {
    const none = db.prepare(`SELECT json_rows('%s', '', NULL, n) FROM rows WHERE 0`).pluck().get();
    assert.equal((none as Buffer).toString(), '[]');
  });

  it('writes up to the most rows asked for, and stops with MORE_ROWS past them', () => {
    const most = db.prepare(`SELECT json_rows('%s', '', ?, n), count(*) FROM rows`).raw();
    const [body, count] = most.get(4) as [Buffer, number];
    assert.equal(body.toString(), '[1,null,3,-42]');
    assert.equal(count, 4);
    assert.throws(() => most.get(3), { message: MORE_ROWS });
    assert.throws(() => most.get(0), { message: MORE_ROWS });
    assert.equal((most.get(null) as [Buffer, number])[0].toString(), '[1,null,3,-42]');
  });

  // A result is lent to SQLite out of a buffer the connection keeps and the next call
  // writes into once nothing can read it (json_rows.c, the top): results that are alive
  // at once must each keep their own bytes.
  it('keeps each result its own while another is written: two in one row, a GROUP BY', () => {
    const two = db
      .prepare(`SELECT (SELECT json_rows('%s', '', NULL, n) FROM rows),
          (SELECT json_rows('%q', '', NULL, t) FROM rows WHERE t IS NOT NULL)`)
      .raw()
      .get() as [Buffer, Buffer];
    assert.deepEqual(
      two.map((b) => b.toString()),
      ['[1,null,3,-42]', '["a\\"b","c","4.5"]'],
    );
    const groups = db
      .prepare(`SELECT k IS NULL, json_rows('%s', '', NULL, n) FROM rows GROUP BY k IS NULL`)
      .raw()
      .all() as [number, Buffer][];
    assert.deepEqual(
      groups.map(([g, b]) => [g, b.toString()]),
      [
        [0, '[1,null,3]'],
        [1, '[-42]'],
      ],
    );
  });

  it('writes the same list again the same, after a shorter and a longer one (over 1 MiB)', () => {
    const list = db.prepare(`SELECT json_rows('%q', '', NULL, t) FROM rows`).pluck();
    const long = db
      .prepare(`WITH RECURSIVE i(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM i WHERE x < 5000)
        SELECT json_rows('%q', '', NULL, printf('%0300d', x)) FROM i`)
      .pluck();
    const first = (list.get() as Buffer).toString();
    assert.equal(first, '["a\\"b",null,"c","4.5"]');
    const longText = (long.get() as Buffer).toString();
    assert.equal(longText.length, 5000 * 303 + 1);
    assert.ok(longText.endsWith(`"${'5000'.padStart(300, '0')}"]`));
    assert.equal((list.get() as Buffer).toString(), first);
    assert.equal((long.get() as Buffer).toString(), longText);
    assert.equal((list.get() as Buffer).toString(), first);
  });

  it('refuses a template that does not fit its values, by name', () => {
    for (const [template, values, message] of [
      ['%s %s', 'n', /fewer values than the template asks for/],
      ['%s', 'n, t', /more values than the template asks for/],
      ['%x', 'n', /unknown directive/],
      ['%2', 'n', /unknown directive/], // only one lookup
    ] as const) {
      assert.throws(() => rows(template, LOOKUP, values), message);
    }
    assert.throws(
      () => rows('%1', 'SELECT json FROM nowhere WHERE id = ?1', 'k'),
      /no such table: nowhere/,
    );
  });
});
