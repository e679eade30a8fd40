// `timetrack admin import-from FORMAT FILE` (issue 31): each tracker's export, as that
// tool writes it (test/fixtures/import/), imported into a running server's database and
// read back through GET /v0/times; again (nothing new), as a dry run (nothing written),
// and a file of another tool refused with the columns it lacks.
import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openForCommand } from '../../src/admin/cli';
import { importStores } from '../../src/admin/import-stores';
import { startImportWriter } from '../../src/admin/import-writer';
import { createReaderPool } from '../../src/db/readers';
import { csvBatches } from '../../src/importers/csv';
import { COMMAND_BATCH_ROWS, ImportStopped } from '../../src/importers/engine';
import { importStream } from '../../src/importers/run';
import { databaseChecksum } from '../helpers/checksum';
import { assertUserError, runCli } from '../helpers/cli';
import { byStart, EXPECTED, fixture, importWorld, shown, sums } from '../helpers/import-world';
import { startTestServer, type TestServer } from '../helpers/server';
import { serial, xlsx } from '../helpers/xlsx';

const importFrom = (server: TestServer, format: string, file: string, ...flags: string[]) =>
  runCli(['admin', 'import-from', format, file, '--db', server.dbFile, ...flags], {
    env: { TZ: 'UTC' },
  });

const allTimes = async (server: TestServer) =>
  (await server.api.get('/times', server.adminToken)).body as Record<string, any>[];

for (const format of Object.keys(EXPECTED)) {
  const expected = EXPECTED[format] as (typeof EXPECTED)[string];
  describe(`admin import-from ${format}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
      await importWorld(server);
    });
    after(() => server.close());

    it('a dry run reports what it would do and writes nothing', async () => {
      const before = databaseChecksum(server.dbFile);
      const res = await importFrom(server, format, fixture(format), '--dry-run', '--json');
      assert.equal(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.equal(report.dry_run, true);
      assert.equal(report.rows, 6);
      assert.equal(report.entries.created, 3);
      assert.deepEqual(
        report.projects.list.filter((p: any) => p.status === 'created').map((p: any) => p.slug),
        expected.created.projects,
      );
      assert.deepEqual(databaseChecksum(server.dbFile), before);
      assert.deepEqual(await allTimes(server), []);
    });

    it('imports the entries: count, durations per person and project, dates, start times, notes', async () => {
      const res = await importFrom(server, format, fixture(format), '--json');
      assert.equal(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.equal(report.entries.created, 3);
      // The stranger is listed and skipped; the duplicate and the task-less row are problems.
      const stranger = report.people.list.find((p: any) => p.person === expected.stranger);
      assert.equal(stranger.status, 'skipped');
      const problems = report.problems.map((p: any) => p.line);
      assert.equal(problems.length, 3, JSON.stringify(report.problems));
      assert.ok(
        problems.includes(expected.duplicateLine) && problems.includes(expected.taskless.line),
      );
      assert.ok(
        report.problems.some((p: any) => p.problem === `unknown person: ${expected.stranger}`),
        JSON.stringify(report.problems),
      );
      assert.match(
        report.problems.find((p: any) => p.line === expected.taskless.line).problem,
        new RegExp(`no activity.*${expected.taskless.project}`),
      );
      for (const column of expected.dropped) {
        const d = report.dropped.find((x: any) => x.column === column);
        assert.ok(d && d.values > 0, `${column} dropped: ${JSON.stringify(report.dropped)}`);
      }

      const times = await allTimes(server);
      assert.equal(times.length, 3);
      assert.deepEqual(sums(times), sums(expected.entries));
      const got = times.map(shown).sort(byStart);
      const want = [...expected.entries].sort(byStart);
      assert.deepEqual(got, want);

      // Imported people become members of their projects; created activities exist.
      const project = (await server.api.get('/projects/mobile-app', server.adminToken)).body;
      assert.deepEqual(project.users.bob, { member: true, spectator: false, manager: false });
      for (const slug of expected.created.activities) {
        assert.equal((await server.api.get(`/activities/${slug}`, server.adminToken)).status, 200);
      }
    });

    it('importing the same file again creates nothing', async () => {
      const before = await allTimes(server);
      const res = await importFrom(server, format, fixture(format), '--json');
      assert.equal(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      assert.equal(report.entries.created, 0);
      assert.equal(report.projects.created, 0);
      assert.equal(report.activities.created, 0);
      // The three entries and the row that duplicated one of them.
      const again = report.entries.reasons.find((r: any) => r.reason === 'already imported');
      assert.equal(again?.rows, 4, JSON.stringify(report.entries.reasons));
      assert.deepEqual(await allTimes(server), before);
    });

    it('--default-activity imports the task-less row, and only it', async () => {
      const res = await importFrom(server, format, fixture(format), '--default-activity', 'dev');
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /1 entries created/);
      const times = await allTimes(server);
      assert.equal(times.length, 4);
      const added = times.find((t) => t.project[0] !== 'website' && t.activities[0] === 'dev');
      assert.ok(added, JSON.stringify(times));
      assert.equal(added.user, 'bob');
    });
  });
}

describe('admin import-from: people and files', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await importWorld(server);
  });
  after(() => server.close());

  it('a dry run without --create-users skips the stranger and says how to create them', async () => {
    const res = await importFrom(server, 'harvest', fixture('harvest'), '--dry-run');
    assert.equal(res.code, 0, res.stderr);
    assert.match(
      res.stdout,
      /skipped Erin Stone \(no such user\): 1 rows\n {2}\(--create-users creates the people no user matches\)\n/,
    );
  });

  it('--create-users creates the stranger inactive, without a password, and imports their rows', async () => {
    const res = await importFrom(server, 'harvest', fixture('harvest'), '--create-users');
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /created Erin Stone as erin\.stone: 1 rows/);
    const erin = (await server.api.get('/users/erin.stone', server.adminToken)).body;
    assert.equal(erin.active, false);
    assert.equal(erin.display_name, 'Erin Stone');
    const theirs = (await server.api.get('/times', server.adminToken, { user: 'erin.stone' })).body;
    assert.equal(theirs.length, 1);
    assert.equal(theirs[0].duration, 4 * 3600);
    assert.equal(await server.api.login('erin.stone', '').catch(() => 'refused'), 'refused');
  });

  it('a file of another tool is refused with the columns it lacks, and nothing is written', async () => {
    const before = databaseChecksum(server.dbFile);
    const res = await importFrom(server, 'toggl', fixture('harvest'));
    assertUserError(
      res,
      /is not a Toggl Track detailed report: it has no columns Email or User, Start date, Start time, Duration or End time/,
    );
    assert.equal(res.stdout, '');
    assert.deepEqual(databaseChecksum(server.dbFile), before);
  });

  it('an overlapping file adds only its new rows', async () => {
    const dir = server.dir;
    const head = 'Date,Project,Task,Notes,Hours,First Name,Last Name\n';
    const a = '2024-04-01,Website Redesign,Development,Day one,1,Alice,Smith\n';
    const b = '2024-04-02,Website Redesign,Development,Day two,2,Alice,Smith\n';
    const c = '2024-04-03,Website Redesign,Development,Day three,3,Alice,Smith\n';
    writeFileSync(join(dir, 'march.csv'), head + a + b);
    writeFileSync(join(dir, 'april.csv'), head + b + c);
    assert.match(
      (await importFrom(server, 'harvest', join(dir, 'march.csv'))).stdout,
      /2 entries created/,
    );
    const res = await importFrom(server, 'harvest', join(dir, 'april.csv'));
    assert.match(res.stdout, /1 entries created, 1 skipped/);
    const april = (
      await server.api.get('/times', server.adminToken, { start: '2024-04-01', end: '2024-04-30' })
    ).body;
    assert.deepEqual(april.map((t: any) => t.notes).sort(), ['Day one', 'Day three', 'Day two']);
  });

  it('an unknown format or time zone is a one-line error', async () => {
    assertUserError(
      await importFrom(server, 'toggl', fixture('toggl'), '--timezone', 'Mars/Olympus'),
      /unknown time zone Mars\/Olympus/,
    );
    const res = await importFrom(server, 'excel', fixture('toggl'));
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /excel/);
  });
});

describe('admin import-from: time zones and spreadsheets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await importWorld(server);
    const res = await server.api.post('/users/alice', server.adminToken, {
      timezone: 'Europe/Berlin',
    });
    assert.equal(res.status, 200, res.text);
  });
  after(() => server.close());

  const utcFile = (notes: string) =>
    'Description,Task,Project,User,Start,End,Duration\n' +
    `${notes} A,Development,Website Redesign,Alice Smith,2024-03-04T23:30:00Z,2024-03-05T00:30:00Z,01:00:00\n` +
    `${notes} B,Development,Website Redesign,Bob Jones,2024-03-04T23:30:00+00:00,,00:30:00\n`;
  const started = async (notes: string) =>
    Object.fromEntries(
      ((await server.api.get('/times', server.adminToken)).body as any[])
        .filter((t) => t.notes.startsWith(notes))
        .map((t) => [t.user, `${t.date_worked} ${t.start_time}`]),
    );

  it("UTC times are shown in each person's time zone, else the server's", async () => {
    writeFileSync(join(server.dir, 'utc.csv'), utcFile('zoned'));
    const res = await importFrom(server, 'solidtime', join(server.dir, 'utc.csv'));
    assert.equal(res.code, 0, res.stderr);
    // Alice works in Berlin: 23:30 UTC is 00:30 the next day there; Bob has no zone (TZ=UTC).
    assert.deepEqual(await started('zoned'), {
      alice: '2024-03-05 00:30:00',
      bob: '2024-03-04 23:30:00',
    });
  });

  it('--timezone decides for everyone', async () => {
    writeFileSync(join(server.dir, 'utc2.csv'), utcFile('new-york'));
    const res = await importFrom(
      server,
      'solidtime',
      join(server.dir, 'utc2.csv'),
      '--timezone',
      'America/New_York',
    );
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(await started('new-york'), {
      alice: '2024-03-04 18:30:00',
      bob: '2024-03-04 18:30:00',
    });
  });

  it("reads Kimai's Excel export (XLSX): dates, times and durations from their number formats", async () => {
    const file = join(server.dir, 'kimai.xlsx');
    writeFileSync(
      file,
      xlsx([
        [
          'Date',
          'From',
          'To',
          'Duration',
          'User',
          'Customer',
          'Project',
          'Activity',
          'Description',
          'Billable',
        ],
        [
          { n: serial('2024-03-04T00:00:00'), style: 'date' },
          { n: serial('2024-03-04T22:30:00'), style: 'datetime' },
          { n: serial('2024-03-05T01:00:00'), style: 'datetime' },
          { n: 2.5 / 24, style: 'duration' },
          'alice',
          'Acme, Inc.',
          'Website Redesign',
          'Development',
          'Spreadsheet <night> & "day"',
          'yes',
        ],
        [
          { n: serial('2024-03-06T00:00:00'), style: 'date' },
          { n: 0.375, style: 'time' },
          { n: 0.40625, style: 'time' },
          { n: 2700 },
          'bob@example.com',
          'Acme, Inc.',
          'Website Redesign',
          '',
          'Seconds as a plain number',
          'no',
        ],
      ]),
    );
    const res = await importFrom(server, 'kimai', file, '--json');
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    assert.equal(report.entries.created, 2, JSON.stringify(report.problems));
    assert.deepEqual(report.dropped, [
      { column: 'Customer', values: 2 },
      { column: 'Billable', values: 2 },
    ]);
    const times = ((await server.api.get('/times', server.adminToken)).body as any[])
      .filter((t) => /Spreadsheet|Seconds/.test(t.notes))
      .map((t) => [t.user, t.date_worked, t.start_time, t.duration, t.notes])
      .sort();
    assert.deepEqual(times, [
      ['alice', '2024-03-04', '22:30:00', 9000, 'Spreadsheet <night> & "day"'],
      ['bob', '2024-03-06', '09:00:00', 2700, 'Seconds as a plain number'],
    ]);
  });

  it('a file whose first line is not CSV is refused as a file of another kind, dry or not', async () => {
    const file = join(server.dir, 'picture.csv');
    writeFileSync(file, Buffer.from('GIF89a\x01\x00"\x00\x02\n,;\n', 'latin1'));
    const before = databaseChecksum(server.dbFile);
    for (const flags of [['--dry-run'], []]) {
      const res = await importFrom(server, 'harvest', file, ...flags);
      assertUserError(
        res,
        /picture\.csv is not a Harvest detailed time report: its first line is not CSV \(Invalid Opening Quote: a quote is found on field 0 at line 1/,
      );
      assert.equal(res.stdout, '', flags.join(' '));
    }
    assert.deepEqual(databaseChecksum(server.dbFile), before);
  });

  it('a spreadsheet given as another tool is refused', async () => {
    writeFileSync(join(server.dir, 'x.xlsx'), xlsx([['Date']]));
    assertUserError(
      await importFrom(server, 'toggl', join(server.dir, 'x.xlsx')),
      /is a spreadsheet, not a Toggl Track detailed report \(CSV\)/,
    );
  });
});

describe('admin import-from: a file that breaks off', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await importWorld(server);
  });
  after(() => server.close());

  const rows = (from: number, to: number) => {
    let text = '';
    for (let i = from; i < to; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      text += `2024-06-${day},Website Redesign,Development,Row ${i},0.25,Alice,Smith\n`;
    }
    return text;
  };
  const head = 'Date,Project,Task,Notes,Hours,First Name,Last Name\n';
  const count = async () =>
    ((await server.api.get('/times', server.adminToken, { user: 'alice' })).body as any[]).length;

  it('keeps the rows before the break, names the line, and a second run completes it', async () => {
    const file = join(server.dir, 'broken.csv');
    // 25,000 good rows, then a quote that never closes on line 25,002.
    writeFileSync(
      file,
      `${head}${rows(0, 25_000)}2024-06-01,Website Redesign,"Development,oops,1,Alice,Smith\n${rows(25_000, 25_010)}`,
    );
    // A dry run (whose CSV is parsed on a worker thread) stops at the same line and counts
    // the same rows: those of the pieces of 1,000 records handed over before the break
    // (admin/import-from.ts PIECE_RECORDS).
    const dry = await importFrom(server, 'harvest', file, '--dry-run');
    assertUserError(
      dry,
      /the import stopped at line 25002: Quote Not Closed.*; nothing from line 25002 on was written/,
    );
    assert.match(dry.stdout, /Dry run of harvest: 25000 rows read, 25000 entries to create/);
    assert.equal(await count(), 0);

    const res = await importFrom(server, 'harvest', file);
    assertUserError(
      res,
      /the import stopped at line 25002: Quote Not Closed.*; nothing from line 25002 on was written, and running the file again \(corrected\) completes it/,
    );
    assert.match(res.stdout, /Imported harvest: 25000 rows read, 25000 entries created/);
    assert.equal(await count(), 25_000); // every row before the break, nothing after it

    writeFileSync(file, `${head}${rows(0, 25_010)}`);
    const again = await importFrom(server, 'harvest', file);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /10 entries created, 25000 skipped/);
    assert.equal(await count(), 25_010);
  });

  it('a batch whose write fails stops the run there: the batches before it stay', async () => {
    // The command's engine and writer thread, with the second batch's write failing as a
    // full disk would fail it: the engine has meanwhile checked the third batch.
    const file = join(server.dir, 'fails.csv');
    writeFileSync(file, `${head}${rows(100_000, 150_000)}`);
    const db = openForCommand(server.dbFile);
    const readers = createReaderPool(server.dbFile);
    const writer = await startImportWriter(server.dbFile, 1024);
    const before = await count();
    let plans = 0;
    try {
      const failure = await importStream(
        {
          ...importStores(db, readers),
          writePlan: (plan) =>
            ++plans === 2 ? Promise.reject(new Error('disk I/O error')) : writer.write(plan),
        },
        null,
        { format: 'harvest', dryRun: false, createUsers: false, tagsAsActivities: false },
        createReadStream(file),
        undefined,
        (input) => csvBatches(input, 1_000),
      ).then(
        () => assert.fail('the import did not stop'),
        (err: unknown) => err,
      );
      assert.ok(failure instanceof ImportStopped);
      assert.equal(failure.line, COMMAND_BATCH_ROWS + 2); // the second batch's first line
      assert.match(failure.message, /disk I\/O error; nothing from line 20002 on was written/);
      assert.equal(failure.report.entries.created, COMMAND_BATCH_ROWS);
      assert.equal(plans, 2); // the third batch was checked, never handed over
    } finally {
      await writer.close();
      readers.close();
      db.close();
    }
    assert.equal(await count(), before + COMMAND_BATCH_ROWS);
  });

  it('finds a row the file has twice, in the same batch and a later one, dry or not', async () => {
    const file = join(server.dir, 'twice.csv');
    const one = (notes: string, day = '01') =>
      `2024-07-${day},Website Redesign,Development,${notes},0.5,Alice,Smith\n`;
    const filler = (from: number, to: number) => {
      let text = '';
      for (let i = from; i < to; i++) {
        text += one(`Filler ${i}`, String((i % 28) + 1).padStart(2, '0'));
      }
      return text;
    };
    // Line 4 repeats line 3 (the same piece of the file). The command writes batches of
    // 20,000 rows on its writer thread while it checks the next: line 22,006 repeats line
    // 5 from the batch before (being written, or just written), and line 45,007 repeats
    // line 2 from two batches before (committed).
    writeFileSync(
      file,
      `${head}${one('first')}${one('second')}${one('second')}${one('third')}${filler(0, 22_000)}` +
        `${one('third')}${filler(22_000, 45_000)}${one('first')}`,
    );
    const outcome = async (...flags: string[]) => {
      const res = await importFrom(server, 'harvest', file, '--json', ...flags);
      assert.equal(res.code, 0, res.stderr);
      const report = JSON.parse(res.stdout);
      return {
        created: report.entries.created,
        reasons: report.entries.reasons,
        problems: report.problems,
      };
    };
    const duplicates = {
      created: 45_003,
      reasons: [{ reason: 'duplicate row', rows: 3 }],
      problems: [4, 22_006, 45_007].map((line) => ({
        line,
        problem: 'duplicate row: the same entry as an earlier row',
      })),
    };
    const before = await count();
    assert.deepEqual(await outcome('--dry-run'), duplicates);
    assert.equal(await count(), before);
    assert.deepEqual(await outcome(), duplicates);
    assert.equal(await count(), before + 45_003);
    assert.deepEqual(await outcome(), {
      created: 0,
      reasons: [{ reason: 'already imported', rows: 45_006 }],
      problems: [],
    });
    assert.equal(await count(), before + 45_003);
  });
});
