// `timetrack admin check` (SPEC §8.1): SQLite's checks plus our invariants; exit 0 `ok`
// on a healthy database, exit 1 listing every problem otherwise.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { startServer } from '../../src/server';
import { assertUserError, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/server';
import { createTimesyncNodeDatabase } from '../helpers/timesync-node';

describe('timetrack admin check', () => {
  const dir = tempDir();
  const dbFile = join(dir, 'instance.db');
  before(async () => {
    // A database with revisions, slugs, permissions and deleted objects of every kind.
    const old = createTimesyncNodeDatabase(dir);
    const res = await runCli(['migrate-from-timesync-node', old, '--db', dbFile]);
    assert.equal(res.code, 0, res.stderr);
  });

  /** A copy of the migrated database, to break or to fill. */
  const copyOf = async (name: string): Promise<string> => {
    const copy = join(dir, name);
    const db = new Database(dbFile, { readonly: true });
    await db.backup(copy);
    db.close();
    return copy;
  };

  /** Runs a server on `file` until its background filler has no stored JSON left to compute. */
  const fillByServer = async (file: string): Promise<void> => {
    const config = loadConfig({ port: 0, host: '127.0.0.1', db: file }, {});
    const server = await startServer(config, { log: createLogger('error'), announce: () => {} });
    try {
      while (server.app.projectJson.hasStale()) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await server.close();
    }
  };

  it('answers ok on a healthy database', async () => {
    const res = await runCli(['admin', 'check', '--db', dbFile]);
    assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('lists each broken invariant and exits 1', async () => {
    const broken = await copyOf('broken.db');
    const edit = new Database(broken);
    edit.pragma('foreign_keys = OFF');
    edit.exec(`
      DELETE FROM activity_revisions
        WHERE activity_id = (SELECT id FROM activities WHERE slug = 'dev');
      UPDATE project_slugs SET live = 1 WHERE slug = 'retired';
      UPDATE users SET active = 1 WHERE username = 'gone';
      DROP INDEX activities_live_slug;
      UPDATE activities SET slug = 'docs' WHERE slug = 'meeting';
      INSERT INTO time_revisions (time_id, revision, duration, user_id, project_id, date_worked,
        activity_ids, created_at) VALUES (999, 1, 60, 1, 1, '2016-03-01', '[]', 0);
    `);
    edit.close();

    const res = await runCli(['admin', 'check', '--db', broken]);
    assertUserError(res, new RegExp(`^timetrack: 6 problems found in ${broken}\\n$`));
    assert.deepEqual(res.stdout.trimEnd().split('\n').sort(), [
      'activity a0000001-1111-4111-8111-000000000001: at revision 2 but its history holds revisions []',
      'activity slug docs is used by 2 live activities',
      'foreign key: a row of time_revisions refers to a missing times row',
      // Not a problem: the edits marked two projects' JSON stale, for a server to compute.
      "pending: 2 projects' stored JSON (project_json) not computed yet: reads compute it, a running server stores it",
      'project b0000005-2222-4222-8222-000000000005: slug retired is marked live but the project is deleted',
      'time_revisions: revision 1 belongs to missing time id 999',
      'user gone is deleted but still active',
    ]);
  });

  it('lists every stored URI the API would refuse (older data, an edited file)', async () => {
    const copy = await copyOf('uris.db');
    const edit = new Database(copy);
    const TIMESYNC = 'b0000001-2222-4222-8222-000000000001';
    const WEBSITE = 'b0000004-2222-4222-8222-000000000004';
    const FIRST = 'c0000001-3333-4333-8333-000000000001';
    // Written as another program would (sql/009's triggers rewrite the entry's row; the
    // project's stored JSON is marked to be computed again).
    edit.exec(`
      UPDATE projects SET uri = 'javascript:alert(1)' WHERE uuid = '${WEBSITE}';
      UPDATE project_json SET json = NULL;
      UPDATE project_revisions SET uri = 'data:text/html,x'
        WHERE project_id = (SELECT id FROM projects WHERE uuid = '${TIMESYNC}');
      UPDATE times SET issue_uri = 'javascript:alert(2)' WHERE uuid = '${FIRST}';
      UPDATE time_revisions SET issue_uri = '/relative'
        WHERE time_id = (SELECT id FROM times WHERE uuid = '${FIRST}');
      INSERT INTO timers (user_id, project_id, date_worked, started_at, issue_uri)
        VALUES ((SELECT id FROM users WHERE username = 'dev2'),
          (SELECT id FROM projects WHERE uuid = '${TIMESYNC}'), '2024-01-01', 0, 'vbscript:x');
      UPDATE times SET issue_uri = 'https://example.org/fine' WHERE uuid <> '${FIRST}';
    `);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', copy]);
    assertUserError(res, new RegExp(`^timetrack: 5 problems found in ${copy}\\n$`));
    const why = 'is not an http or https URI of at most 2048 characters';
    assert.deepEqual(res.stdout.trimEnd().split('\n'), [
      `project ${WEBSITE}: uri "javascript:alert(1)" ${why}`,
      `project ${TIMESYNC} revision 1: uri "data:text/html,x" ${why}`,
      `time ${FIRST}: issue_uri "javascript:alert(2)" ${why}`,
      `time ${FIRST} revision 1: issue_uri "/relative" ${why}`,
      `timer of dev2: issue_uri "vbscript:x" ${why}`,
      // Not a problem: what another program's write left for a server to compute.
      "pending: 5 projects' stored JSON (project_json) not computed yet: reads compute it, a running server stores it",
    ]);
  });

  it('reports a start time in history and a time zone the API would refuse', async () => {
    const copy = await copyOf('start-times.db');
    const edit = new Database(copy);
    const FIRST = 'c0000001-3333-4333-8333-000000000001';
    // Written around the API: times itself refuses a malformed start_time (a CHECK).
    assert.throws(
      () => edit.exec(`UPDATE times SET start_time = '25:00:00' WHERE uuid = '${FIRST}'`),
      /CHECK constraint failed/,
    );
    edit.exec(`
      UPDATE times SET start_time = '09:00:00' WHERE uuid = '${FIRST}';
      UPDATE time_revisions SET start_time = '9am'
        WHERE time_id = (SELECT id FROM times WHERE uuid = '${FIRST}');
      UPDATE users SET timezone = 'Mars/Olympus_Mons' WHERE username = 'dev2';
      UPDATE users SET timezone = 'Europe/Berlin' WHERE username = 'mgr';
    `);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', copy]);
    assertUserError(res, new RegExp(`^timetrack: 2 problems found in ${copy}\\n$`));
    assert.deepEqual(res.stdout.trimEnd().split('\n'), [
      `time ${FIRST} revision 1: start_time "9am" is not a time of day (HH:MM:SS)`,
      `user dev2: timezone "Mars/Olympus_Mons" is not a time zone this server knows; its timer uses the server's`,
    ]);
  });

  it('reports a gap in a revision chain', async () => {
    const gap = await copyOf('gap.db');
    const edit = new Database(gap);
    edit.exec(`UPDATE time_revisions SET revision = 2
      WHERE time_id = (SELECT id FROM times WHERE uuid = 'c0000001-3333-4333-8333-000000000001');
      UPDATE times SET revision = 3 WHERE uuid = 'c0000001-3333-4333-8333-000000000001'`);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', gap]);
    assertUserError(res, /^timetrack: 1 problem found in /);
    assert.equal(
      res.stdout,
      'time c0000001-3333-4333-8333-000000000001: at revision 3 but its history holds revisions [2]\n',
    );
  });

  it("reports an entry's derived row that differs from the entry, or is missing", async () => {
    // sql/009's rows are written by triggers in every write's transaction: a migrated
    // database has them all, and nothing is left to be computed later.
    const rows = await copyOf('time-rows.db');
    const uuid = 'c0000001-3333-4333-8333-000000000001';
    const edit = new Database(rows);
    edit.pragma('foreign_keys = OFF');
    edit
      .prepare(`UPDATE time_user_rows SET notes = '"not what the entry says"' WHERE uuid = ?`)
      .run(uuid);
    const res = await runCli(['admin', 'check', '--db', rows]);
    assertUserError(res, /^timetrack: 1 problem found in /);
    assert.equal(
      res.stdout,
      `time ${uuid}: its row of time_user_rows is missing or its JSON differs from the entry\n`,
    );
    // The row filed under another month, i.e. missing under its own key.
    edit.prepare(`UPDATE time_user_rows SET month = '1999-01' WHERE uuid = ?`).run(uuid);
    const moved = await runCli(['admin', 'check', '--db', rows]);
    assertUserError(moved, /^timetrack: 2 problems found in /);
    assert.match(
      moved.stdout,
      new RegExp(
        `^time ${uuid}: its row of time_user_rows is missing or its JSON differs from the entry\\ntime_user_rows has a row \\(user \\d+, 1999-01, time \\d+\\) of no such entry\\n$`,
      ),
    );
    edit.close();
  });

  it('reports a project slug list or an activity set that differs from the names', async () => {
    const names = await copyOf('names.db');
    const edit = new Database(names);
    edit.exec(`UPDATE project_slug_lists SET json = '["not-its-slug"]'
        WHERE project_id = (SELECT id FROM projects WHERE uuid = 'b0000001-2222-4222-8222-000000000001');
      UPDATE activity_sets SET json = '["not-its-slug"]'
        WHERE id = (SELECT max(id) FROM activity_sets)`);
    const ids = edit
      .prepare('SELECT ids FROM activity_sets WHERE id = (SELECT max(id) FROM activity_sets)')
      .pluck()
      .get();
    edit.close();
    const res = await runCli(['admin', 'check', '--db', names]);
    assertUserError(res, /^timetrack: \d+ problems found in /);
    const lines = res.stdout.trimEnd().split('\n');
    assert.ok(
      lines.includes(
        'project b0000001-2222-4222-8222-000000000001: its slug list (project_slug_lists) is missing or differs from its slugs',
      ),
      res.stdout,
    );
    assert.ok(
      lines.includes(`activity set ${ids}: its slugs (activity_sets) differ from its activities'`),
      res.stdout,
    );
    // Every entry that shows those names is reported too: what reads send is wrong.
    assert.ok(
      lines.some((line) => line.endsWith('its JSON differs from the entry')),
      res.stdout,
    );
  });

  it("fills every project's stored JSON once a server runs, and reports one that differs", async () => {
    // The migration computed every project's JSON before its COMMIT, as the server's writes
    // do; a write of another program marks it stale (sql/008's triggers): pending, not wrong.
    const filled = await copyOf('projects-filled.db');
    const stale = (file: string) => {
      const read = new Database(file, { readonly: true });
      const count = read.prepare('SELECT count(*) FROM project_json WHERE json IS NULL').pluck();
      try {
        return count.get();
      } finally {
        read.close();
      }
    };
    assert.equal(stale(filled), 0);
    const byHand = new Database(filled);
    byHand.exec(`UPDATE projects SET name = name || ' (renamed by hand)'`);
    byHand.close();
    assert.ok((stale(filled) as number) > 0);
    assert.deepEqual(await runCli(['admin', 'check', '--db', filled]), {
      code: 0,
      stdout: `pending: ${stale(filled)} projects' stored JSON (project_json) not computed yet: reads compute it, a running server stores it\nok\n`,
      stderr: '',
    });
    await fillByServer(filled);
    assert.equal(stale(filled), 0);
    assert.deepEqual(await runCli(['admin', 'check', '--db', filled]), {
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
    const edit = new Database(filled);
    edit.exec(`UPDATE project_json SET json = json_set(json, '$.name', 'not its name')
      WHERE project_id = (SELECT id FROM projects WHERE uuid = 'b0000001-2222-4222-8222-000000000001');
      DELETE FROM project_json
      WHERE project_id = (SELECT id FROM projects WHERE uuid = 'b0000002-2222-4222-8222-000000000002')`);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', filled]);
    assertUserError(res, /^timetrack: 2 problems found in /);
    assert.equal(
      res.stdout,
      'project b0000001-2222-4222-8222-000000000001: its stored JSON (project_json) differs from its current state\n' +
        'project b0000002-2222-4222-8222-000000000002 has no project_json row\n',
    );
  });

  it('reports per-month totals of reports that differ from their entries', async () => {
    const off = await copyOf('totals.db');
    const edit = new Database(off);
    const row = edit
      .prepare('SELECT month, project_id, user_id FROM time_month_totals WHERE entries > 0 LIMIT 1')
      .get() as { month: string; project_id: number; user_id: number };
    edit
      .prepare(`UPDATE time_month_totals SET duration = duration + 60
        WHERE month = ? AND project_id = ? AND user_id = ?`)
      .run(row.month, row.project_id, row.user_id);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', off]);
    assertUserError(res, /^timetrack: 1 problem found in /);
    assert.equal(
      res.stdout,
      `time totals of ${row.month}, project ${row.project_id}, user ${row.user_id} (time_month_totals) differ from its entries\n`,
    );
  });

  it('reports a row left in bulk_writes, which would make the insert triggers skip every entry', async () => {
    const left = await copyOf('bulk.db');
    const edit = new Database(left);
    edit.exec('INSERT INTO bulk_writes (id) VALUES (1)');
    edit.close();
    const res = await runCli(['admin', 'check', '--db', left]);
    assertUserError(res, /^timetrack: 1 problem found in /);
    assert.equal(
      res.stdout,
      'bulk_writes has a row: the insert triggers skip every entry written meanwhile (an import batch deletes it before its COMMIT)\n',
    );
  });

  it('refuses a file that is not a timetrack database, and a missing one', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not SQLite\n'.repeat(100));
    assertUserError(
      await runCli(['admin', 'check', '--db', junk]),
      /^timetrack: .*junk\.db is not a timetrack database\n$/,
    );
    assertUserError(
      await runCli(['admin', 'check', '--db', join(dir, 'missing.db')]),
      /^timetrack: no database at .*missing\.db\n$/,
    );
  });
});
