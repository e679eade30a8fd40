// `timetrack migrate-from-timesync-node` (SPEC §10): an old reference server's database
// (test/fixtures/timesync-node.sql, the exact old schema) is migrated, then a server on
// the result shows every object, revision and permission through the API, and old users
// log in with their old passwords.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { type RunningServer, startServer } from '../../src/server';
import { type Api, createApi } from '../helpers/api';
import { assertUserError, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/server';
import { createTimesyncNodeDatabase } from '../helpers/timesync-node';

const PROJECT = {
  timesync: 'b0000001-2222-4222-8222-000000000001',
  gwm: 'b0000002-2222-4222-8222-000000000002',
  retired: 'b0000005-2222-4222-8222-000000000005',
};
const TIME = {
  first: 'c0000001-3333-4333-8333-000000000001',
  deleted: 'c0000006-3333-4333-8333-000000000006',
  viaOldActivityRow: 'c0000007-3333-4333-8333-000000000007',
};
const member = { member: true, spectator: false, manager: false };

/** Migrates the old database into dbFile, then serves it and logs in as the old admin. */
async function migrateAndServe(oldFile: string, dbFile: string) {
  const res = await runCli(['migrate-from-timesync-node', oldFile, '--db', dbFile]);
  assert.equal(res.code, 0, res.stderr);
  const config = loadConfig({ port: 0, host: '127.0.0.1', db: dbFile }, {});
  const running = await startServer(config, {
    log: createLogger('error', () => {}),
    announce: () => {},
  });
  const api = createApi(running.url);
  const admin = await api.login('oldadmin', 'old-admin-pass');
  return { summary: res.stdout, running, api, admin };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('timetrack migrate-from-timesync-node', () => {
  const dir = tempDir();
  const dbFile = join(dir, 'timetrack.db');
  let oldFile: string;
  let oldHash: string;
  let summary: string;
  let running: RunningServer;
  let api: Api;
  let admin: string;

  before(async () => {
    oldFile = createTimesyncNodeDatabase(dir);
    oldHash = sha256(oldFile);
    ({ summary, running, api, admin } = await migrateAndServe(oldFile, dbFile));
  });
  after(() => running?.close());

  it('prints counts per table and the users left without a password', () => {
    assert.equal(
      summary,
      [
        `Migrated ${oldFile} into ${dbFile}:`,
        '  users                      7',
        '  activities                 5',
        '  activity_revisions         1',
        '  projects                   5',
        '  project_slugs              7',
        '  project_revisions          2',
        '  project_users              9',
        '  times                      7',
        '  time_activities           10',
        '  time_revisions             2',
        'Users without a password (the old one was not a bcrypt hash; set one with `timetrack admin set-password <username>`): legacy',
        'Nothing was skipped.',
        '',
      ].join('\n'),
    );
  });

  it('opens the old file read-only', () => {
    assert.equal(sha256(oldFile), oldHash);
  });

  it('keeps bcrypt hashes: old users log in with their old passwords, any letter case', async () => {
    const token = await api.login('dev1', 'dev1-password');
    const me = await api.get('/users/DEV1', token);
    assert.equal(me.body.username, 'Dev1');
    await api.login('mgr', 'mgr-password');
    const legacy = await api.raw('/v0/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth: { type: 'password', username: 'legacy', password: 'x' } }),
    });
    assert.deepEqual(legacy.body, {
      status: 401,
      error: 'Authentication failure',
      text: 'Invalid username or password',
    });
  });

  it('brings every user across with flags and dates; the deleted one inactive', async () => {
    const res = await api.get('/users', admin, { include_deleted: true });
    const byName = Object.fromEntries(
      (res.body as Record<string, unknown>[]).map((u) => [u.username, u]),
    );
    assert.deepEqual(Object.keys(byName).sort(), [
      'Dev1',
      'dev2',
      'gone',
      'legacy',
      'mgr',
      'oldadmin',
      'spec',
    ]);
    assert.deepEqual(byName.mgr, {
      username: 'mgr',
      display_name: 'Manager',
      email: null,
      'org-roles': [],
      site_spectator: false,
      site_manager: true,
      site_admin: false,
      active: true,
      meta: 'runs things',
      timezone: null,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: null,
    });
    assert.deepEqual(
      [byName.gone?.active, byName.gone?.deleted_at, byName.spec?.site_spectator],
      [false, '2017-01-15', true],
    );
  });

  it('keeps activities with their revisions, the deleted one included', async () => {
    const res = await api.get('/activities', admin, {
      include_deleted: true,
      include_revisions: true,
    });
    const bySlug = Object.fromEntries(
      (res.body as Record<string, unknown>[]).map((a) => [a.slug, a]),
    );
    assert.deepEqual(Object.keys(bySlug).sort(), [
      'code-review',
      'dev',
      'docs',
      'meeting',
      'old-stuff',
    ]);
    assert.deepEqual(bySlug.dev, {
      name: 'Development',
      slug: 'dev',
      uuid: 'a0000001-1111-4111-8111-000000000001',
      revision: 2,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: null,
      parents: [
        {
          name: 'Dev',
          slug: 'dev',
          uuid: 'a0000001-1111-4111-8111-000000000001',
          revision: 1,
          created_at: '2016-01-04',
          updated_at: null,
          deleted_at: null,
        },
      ],
    });
    assert.equal(bySlug['old-stuff']?.deleted_at, '2017-01-15');
    assert.equal((await api.get('/activities/old-stuff', admin)).status, 404);
  });

  it('keeps projects: slugs from any revision row, revisions, default activity, permissions', async () => {
    const res = await api.get('/projects/ts', admin, { include_revisions: true });
    assert.deepEqual(res.body, {
      name: 'TimeSync',
      slugs: ['timesync', 'ts'],
      uri: 'https://github.com/osuosl/timesync',
      owner: null,
      default_activity: 'dev',
      users: {
        Dev1: member,
        dev2: member, // its old row hung on the first revision
        mgr: { member: true, spectator: false, manager: true },
        spec: { member: false, spectator: true, manager: false },
      },
      uuid: PROJECT.timesync,
      revision: 2,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: null,
      parents: [
        {
          name: 'Timesync',
          slugs: ['timesync', 'ts'],
          uri: 'https://github.com/osuosl/timesync',
          owner: null,
          default_activity: null,
          uuid: PROJECT.timesync,
          revision: 1,
          created_at: '2016-01-04',
          updated_at: null,
          deleted_at: null,
        },
      ],
    });
    // The old server did not record who made a revision.
    const history = await api.get(`/projects/${PROJECT.timesync}/history`, admin);
    assert.deepEqual(
      history.body.map((r: { changed_by: unknown }) => r.changed_by),
      [null, null],
    );
    const gwm = await api.get('/projects/ganeti-webmgr', admin, { include_revisions: true });
    assert.deepEqual(
      [gwm.body.uuid, gwm.body.users, gwm.body.parents[0].uri],
      [
        PROJECT.gwm,
        { Dev1: { member: true, spectator: false, manager: true }, legacy: member },
        'https://code.osuosl.org/projects/ganeti-webmgr',
      ],
    );
  });

  it('keeps the deleted project with its slugs released', async () => {
    assert.equal(
      (await api.get('/projects/retired', admin, { include_deleted: true })).status,
      404,
    );
    const all = await api.get('/projects', admin, { include_deleted: true });
    const retired = (all.body as { uuid: string }[]).find((p) => p.uuid === PROJECT.retired);
    assert.deepEqual(
      [all.body.length, retired],
      [
        5,
        {
          name: 'Retired',
          slugs: ['retired'],
          uri: null,
          owner: null,
          default_activity: null,
          users: { dev2: member },
          uuid: PROJECT.retired,
          revision: 1,
          created_at: '2016-01-04',
          updated_at: null,
          deleted_at: '2017-01-15',
        },
      ],
    );
  });

  it('keeps times with their activities at every revision, the deleted one included', async () => {
    const res = await api.get(`/times/${TIME.first}`, admin, { include_revisions: true });
    assert.deepEqual(res.body, {
      uuid: TIME.first,
      revision: 2,
      duration: 7200,
      user: 'Dev1',
      project: ['timesync', 'ts'],
      activities: ['code-review', 'dev'],
      date_worked: '2016-03-01',
      start_time: null,
      issue_uri: 'https://github.com/osuosl/timesync/issues/1',
      notes: 'first pass, reviewed',
      created_at: '2016-04-01',
      updated_at: '2016-05-10',
      deleted_at: null,
      parents: [
        {
          uuid: TIME.first,
          revision: 1,
          duration: 3600,
          user: 'Dev1',
          project: ['timesync', 'ts'],
          activities: ['docs'],
          date_worked: '2016-03-01',
          start_time: null,
          issue_uri: null,
          notes: 'first pass',
          created_at: '2016-04-01',
          updated_at: null,
          deleted_at: null,
        },
      ],
    });
    // The old server did not record who made a revision; each one was made on its date.
    const history = await api.get(`/times/${TIME.first}/history`, admin);
    assert.deepEqual(
      history.body.map((r: { changed_by: unknown; changed_at: string }) => [
        r.changed_by,
        r.changed_at.slice(0, 10),
      ]),
      [
        [null, '2016-05-10'],
        [null, '2016-04-01'],
      ],
    );
    const all = await api.get('/times', admin, { include_deleted: true });
    assert.equal(all.body.length, 7);
    assert.equal((await api.get('/times', admin)).body.length, 6);
    const deleted = await api.get(`/times/${TIME.deleted}`, admin, { include_deleted: true });
    assert.deepEqual([deleted.body.deleted_at, deleted.body.project], ['2017-01-15', ['website']]);
    const viaOldRow = await api.get(`/times/${TIME.viaOldActivityRow}`, admin);
    assert.deepEqual([viaOldRow.body.user, viaOldRow.body.activities], ['legacy', ['dev']]);
  });

  it('keeps permissions working: a member whose old row hung on an old revision logs time', async () => {
    const token = await api.login('dev2', 'dev2-password');
    const res = await api.post('/times', token, {
      duration: 60,
      user: 'dev2',
      project: 'ts',
      date_worked: '2016-06-01',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.project, res.body.activities], [['timesync', 'ts'], ['dev']]);
  });

  it('passes admin check', async () => {
    const res = await runCli(['admin', 'check', '--db', dbFile]);
    assert.deepEqual([res.code, res.stdout], [0, 'ok\n']);
  });

  it('skips what it cannot represent and says why', async () => {
    const odd = createTimesyncNodeDatabase(tempDir(), 'odd.sqlite3');
    const db = new Database(odd);
    db.exec(`
      INSERT INTO users (id, username, password, created_at)
        VALUES (8, 'bad user', NULL, 1451898000000);
      INSERT INTO times (id, duration, user, project, date_worked, created_at, uuid, revision, newest)
        VALUES (10, 60, 8, 'b0000003-2222-4222-8222-000000000003', 1456790400000, 1459498500000,
                'c0000008-3333-4333-8333-000000000008', 1, 1),
               (11, 60, 4, 'ffffffff-2222-4222-8222-000000000000', 1456790400000, 1459498500000,
                'c0000009-3333-4333-8333-000000000009', 1, 1);`);
    db.close();
    const res = await runCli(['migrate-from-timesync-node', odd, '--db', join(tempDir(), 'x.db')]);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trimEnd().split('\n');
    assert.ok(lines.includes('  users                      7'), res.stdout);
    assert.ok(lines.includes('  times                      7'), res.stdout);
    assert.deepEqual(lines.slice(lines.indexOf('Skipped (3):')), [
      'Skipped (3):',
      '  - user bad user: not a valid username (1-64 of A-Z a-z 0-9 - . _ ~)',
      '  - time c0000008-3333-4333-8333-000000000008: its user (old id 8) was not migrated',
      '  - time c0000009-3333-4333-8333-000000000009: its project ffffffff-2222-4222-8222-000000000000 was not migrated',
    ]);
  });

  it('refuses a target that is not empty, writing nothing', async () => {
    const before = (await api.get('/users', admin)).body.length;
    const res = await runCli(['migrate-from-timesync-node', oldFile, '--db', dbFile]);
    assertUserError(
      res,
      /^timetrack: .*timetrack\.db is not empty \(table settings has rows\); use a new database file\n$/,
    );
    assert.equal((await api.get('/users', admin)).body.length, before);
  });

  it('refuses a file that is not an old-server database, creating nothing', async () => {
    const target = join(dir, 'never.db');
    const res = await runCli(['migrate-from-timesync-node', dbFile, '--db', target]);
    assertUserError(res, /is not a timesync-node database: table users lacks password\n$/);
    const partial = join(dir, 'partial.sqlite3');
    const db = new Database(partial);
    db.exec(readFileSync(join(__dirname, '../fixtures', 'timesync-node.sql'), 'utf8'));
    db.exec('DROP TABLE userroles');
    db.close();
    assertUserError(
      await runCli(['migrate-from-timesync-node', partial, '--db', target]),
      /partial\.sqlite3 is not a timesync-node database: it has no table userroles\n$/,
    );
    assertUserError(
      await runCli(['migrate-from-timesync-node', join(dir, 'absent.sqlite3'), '--db', target]),
      /^timetrack: no file .*absent\.sqlite3\n$/,
    );
    assert.equal(existsSync(target), false);
  });
});

// The old server's DELETE /activities/:slug ran
//   UPDATE activities SET deleted_at = <now>, slug = NULL WHERE slug = <slug>
// so every row that had the current slug lost it (and got deleted_at), while rows from
// before a rename kept their old slug. Its POST /activities/:slug marked the rows with the
// old slug not newest and inserted the next revision. Both are replayed here on the
// fixture: Travel is renamed to trips then deleted; Hiring is renamed (name only) then
// deleted, so none of its rows keeps a slug.
describe('timetrack migrate-from-timesync-node: activities the old server deleted', () => {
  const ACTIVITY = {
    travel: 'a0000006-1111-4111-8111-000000000006',
    hiring: 'a0000007-1111-4111-8111-000000000007',
  };
  const LIVE_TIME = 'c000000a-3333-4333-8333-00000000000a';
  const DELETED_TIME = 'c000000b-3333-4333-8333-00000000000b';
  const dir = tempDir();
  const dbFile = join(dir, 'timetrack.db');
  let summary: string;
  let running: RunningServer;
  let api: Api;
  let admin: string;

  before(async () => {
    const oldFile = createTimesyncNodeDatabase(dir);
    const old = new Database(oldFile);
    // 1451898000000 = 2016-01-04, 1454329800000 = 2016-02-01, 1459498500000 = 2016-04-01,
    // 1462902300000 = 2016-05-10, 1484474400000 = 2017-01-15.
    old.exec(`
      -- POST /activities: travel and hiring.
      INSERT INTO activities (id, name, slug, created_at, uuid, revision, newest) VALUES
        (7, 'Travel', 'travel', 1451898000000, '${ACTIVITY.travel}', 1, 1),
        (8, 'Hiring', 'hiring', 1451898000000, '${ACTIVITY.hiring}', 1, 1);
      -- POST /activities/travel {name: Trips, slug: trips}; POST /activities/hiring {name: Recruiting}.
      UPDATE activities SET newest = 0 WHERE slug = 'travel';
      INSERT INTO activities (id, name, slug, created_at, updated_at, uuid, revision) VALUES
        (9, 'Trips', 'trips', 1451898000000, 1454329800000, '${ACTIVITY.travel}', 2);
      UPDATE activities SET newest = 0 WHERE slug = 'hiring';
      INSERT INTO activities (id, name, slug, created_at, updated_at, uuid, revision) VALUES
        (10, 'Recruiting', 'hiring', 1451898000000, 1454329800000, '${ACTIVITY.hiring}', 2);
      -- A live time that had trips (and docs) in its first revision, docs only now; a
      -- deleted time with recruiting. Neither stops the deletes (live, newest rows only).
      INSERT INTO times (id, duration, user, project, date_worked, created_at, updated_at,
                         deleted_at, uuid, revision, newest) VALUES
        (10, 600, 4, '${PROJECT.timesync}', 1456790400000, 1459498500000, NULL, NULL, '${LIVE_TIME}', 1, 0),
        (11, 900, 4, '${PROJECT.timesync}', 1456790400000, 1459498500000, 1462902300000, NULL, '${LIVE_TIME}', 2, 1),
        (12, 300, 5, 'b0000003-2222-4222-8222-000000000003', 1456790400000, 1459498500000, NULL,
         1462902300000, '${DELETED_TIME}', 1, 1);
      INSERT INTO timesactivities VALUES (10, 9), (10, 2), (11, 2), (12, 10);
      -- DELETE /activities/trips; DELETE /activities/hiring.
      UPDATE activities SET deleted_at = 1484474400000, slug = NULL WHERE slug = 'trips';
      UPDATE activities SET deleted_at = 1484474400000, slug = NULL WHERE slug = 'hiring';`);
    old.close();
    ({ summary, running, api, admin } = await migrateAndServe(oldFile, dbFile));
  });
  after(() => running?.close());

  it('keeps them, with every revision, skipping nothing', () => {
    const lines = summary.trimEnd().split('\n');
    assert.ok(lines.includes('  activities                 7'), summary);
    assert.ok(lines.includes('  activity_revisions         3'), summary);
    assert.ok(lines.includes('  times                      9'), summary);
    assert.ok(lines.includes('  time_revisions             3'), summary);
    assert.equal(lines.at(-1), 'Nothing was skipped.', summary);
    assert.ok(!summary.includes('Notes'), summary);
  });

  it('lists them deleted with slug null, and their revisions as the old server kept them', async () => {
    const res = await api.get('/activities', admin, {
      include_deleted: true,
      include_revisions: true,
    });
    const byUuid = Object.fromEntries(
      (res.body as Record<string, unknown>[]).map((a) => [a.uuid, a]),
    );
    assert.deepEqual(byUuid[ACTIVITY.travel], {
      name: 'Trips',
      slug: null,
      uuid: ACTIVITY.travel,
      revision: 2,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: '2017-01-15',
      parents: [
        {
          name: 'Travel',
          slug: 'travel', // the row from before the rename kept its slug
          uuid: ACTIVITY.travel,
          revision: 1,
          created_at: '2016-01-04',
          updated_at: null,
          deleted_at: null,
        },
      ],
    });
    assert.deepEqual(byUuid[ACTIVITY.hiring], {
      name: 'Recruiting',
      slug: null,
      uuid: ACTIVITY.hiring,
      revision: 2,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: '2017-01-15',
      parents: [
        {
          name: 'Hiring',
          slug: null,
          uuid: ACTIVITY.hiring,
          revision: 1,
          created_at: '2016-01-04',
          updated_at: null,
          deleted_at: '2017-01-15', // the old delete stamped every row with the slug
        },
      ],
    });
    const live = await api.get('/activities', admin);
    assert.deepEqual(
      (live.body as { uuid: string }[]).filter((a) => Object.values(ACTIVITY).includes(a.uuid)),
      [],
    );
  });

  it('groups a report by activity as GET /times shows the entries: never by a missing slug', async () => {
    const query = { start: '2016-01-01', end: '2016-12-31', include_deleted: true };
    const times = (await api.get('/times', admin, query)).body as {
      uuid: string;
      activities: string[];
      duration: number;
    }[];
    assert.deepEqual(times.find((t) => t.uuid === DELETED_TIME)?.activities, []);
    // Each entry under every activity it shows (SPEC §11); one that shows none, in total only.
    const expected = new Map<string, { duration: number; entries: number }>();
    for (const t of times) {
      for (const activity of t.activities) {
        const row = expected.get(activity) ?? { duration: 0, entries: 0 };
        expected.set(activity, { duration: row.duration + t.duration, entries: row.entries + 1 });
      }
    }
    for (const format of ['json', 'csv']) {
      const res = await api.get('/reports', admin, { ...query, group_by: 'activity', format });
      assert.equal(res.status, 200, res.text);
      if (format === 'csv') {
        assert.ok(!res.text.includes('\r\n,'), 'no row of an empty activity');
        continue;
      }
      assert.deepEqual(
        res.body.rows,
        [...expected]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([activity, totals]) => ({
            activity,
            ...totals,
          })),
      );
      assert.deepEqual(res.body.total, {
        duration: times.reduce((sum, t) => sum + t.duration, 0),
        entries: times.length,
      });
    }
  });

  it('never reaches them by slug: their old slugs are free for new activities', async () => {
    for (const slug of ['trips', 'travel', 'hiring']) {
      for (const include_deleted of [false, true]) {
        const res = await api.get(`/activities/${slug}`, admin, { include_deleted });
        assert.deepEqual([res.status, res.body.text], [404, 'Nonexistent activity'], slug);
      }
      const update = await api.post(`/activities/${slug}`, admin, { name: 'Back' });
      assert.deepEqual([update.status, update.body.text], [404, 'Nonexistent activity'], slug);
      const remove = await api.del(`/activities/${slug}`, admin);
      assert.deepEqual([remove.status, remove.body.text], [404, 'Nonexistent activity'], slug);
    }
    const created = await api.post('/activities', admin, { name: 'Trips again', slug: 'trips' });
    assert.equal(created.status, 200, created.text);
    assert.notEqual(created.body.uuid, ACTIVITY.travel);
    const all = await api.get('/activities', admin, { include_deleted: true });
    const travel = (all.body as { uuid: string }[]).find((a) => a.uuid === ACTIVITY.travel);
    assert.deepEqual(travel, {
      name: 'Trips',
      slug: null,
      uuid: ACTIVITY.travel,
      revision: 2,
      created_at: '2016-01-04',
      updated_at: '2016-02-01',
      deleted_at: '2017-01-15',
    });
  });

  it('keeps them in the times that had them; their slugs are left out, as the old server did', async () => {
    const time = await api.get(`/times/${LIVE_TIME}`, admin, { include_revisions: true });
    assert.deepEqual(
      [time.body.activities, time.body.parents.map((p: { activities: string[] }) => p.activities)],
      [['docs'], [['docs']]],
    );
    const deleted = await api.get(`/times/${DELETED_TIME}`, admin, { include_deleted: true });
    assert.deepEqual([deleted.body.deleted_at, deleted.body.activities], ['2016-05-10', []]);
    const db = new Database(dbFile, { readonly: true });
    try {
      const idOf = (uuid: string) =>
        db.prepare('SELECT id FROM activities WHERE uuid = ?').pluck().get(uuid);
      assert.deepEqual(
        db
          .prepare(`SELECT r.activity_ids FROM time_revisions r JOIN times t ON t.id = r.time_id
            WHERE t.uuid = ?`)
          .pluck()
          .all(LIVE_TIME),
        [JSON.stringify([idOf('a0000002-1111-4111-8111-000000000002'), idOf(ACTIVITY.travel)])],
      );
      assert.deepEqual(
        db
          .prepare(`SELECT ta.activity_id FROM time_activities ta JOIN times t ON t.id = ta.time_id
            WHERE t.uuid = ?`)
          .pluck()
          .all(DELETED_TIME),
        [idOf(ACTIVITY.hiring)],
      );
    } finally {
      db.close();
    }
    // Restoring the deleted time cannot bring the activity back with it.
    const restore = await api.post(`/times/${DELETED_TIME}`, admin, { notes: 'back' });
    assert.deepEqual(
      [restore.status, restore.body.text],
      [409, 'The time does not contain a valid activity reference'],
    );
  });

  it('passes admin check, and export → import → export gives the same bytes', async () => {
    assert.deepEqual((await runCli(['admin', 'check', '--db', dbFile])).stdout, 'ok\n');
    const exported = join(dir, 'export.jsonl');
    const out = await runCli(['admin', 'export', '--db', dbFile, '--output', exported]);
    assert.equal(out.code, 0, out.stderr);
    const copy = join(dir, 'copy.db');
    const imported = await runCli(['admin', 'import', exported, '--db', copy]);
    assert.equal(imported.code, 0, imported.stderr);
    const again = await runCli(['admin', 'export', '--db', copy]);
    assert.equal(again.stdout, readFileSync(exported, 'utf8'));
    assert.deepEqual(await runCli(['admin', 'check', '--db', copy]), {
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });

  it('admin check reports a live activity without a slug', async () => {
    const broken = join(dir, 'broken.db');
    const db = new Database(dbFile, { readonly: true });
    await db.backup(broken);
    db.close();
    const edit = new Database(broken);
    edit.prepare('UPDATE activities SET deleted_at = NULL WHERE uuid = ?').run(ACTIVITY.travel);
    edit.close();
    const res = await runCli(['admin', 'check', '--db', broken]);
    assertUserError(res, /^timetrack: 1 problem found in /);
    assert.equal(res.stdout, `activity ${ACTIVITY.travel} is live but has no slug\n`);
  });
});

describe('timetrack migrate-from-timesync-node: links the API would refuse', () => {
  const EVIL = 'javascript:alert(document.domain)';
  const WEBSITE = 'b0000004-2222-4222-8222-000000000004';
  const dir = tempDir();
  const dbFile = join(dir, 'timetrack.db');
  let summary: string;
  let running: RunningServer;
  let api: Api;
  let admin: string;

  before(async () => {
    const oldFile = createTimesyncNodeDatabase(dir);
    const old = new Database(oldFile);
    // The old server wrote issue_uri and uri as it found them.
    old.prepare('UPDATE projects SET uri = ? WHERE id = 4').run(EVIL);
    old.prepare("UPDATE projects SET uri = '' WHERE id = 2").run();
    old.prepare('UPDATE times SET issue_uri = ? WHERE id = 2').run(EVIL);
    old.prepare("UPDATE times SET issue_uri = 'ftp://example.org/1' WHERE id = 1").run();
    old.close();
    ({ summary, running, api, admin } = await migrateAndServe(oldFile, dbFile));
  });
  after(() => running?.close());

  it('leaves them out and names each one in the summary', async () => {
    const refused = summary.split('\n').filter((line) => line.includes(' URI '));
    const why = 'is not an http or https URI of at most 2048 characters; left out';
    assert.deepEqual(refused, [
      `  - project ${WEBSITE} revision 1: uri "${EVIL}" ${why}`,
      `  - time ${TIME.first} revision 2: issue_uri "${EVIL}" ${why}`,
      `  - time ${TIME.first} revision 1: issue_uri "ftp://example.org/1" ${why}`,
    ]);
    const website = await api.get('/projects/website', admin);
    assert.equal(website.body.uri, null);
    const gwm = await api.get('/projects/gwm', admin, { include_revisions: true });
    assert.equal(gwm.body.parents[0].uri, null, "'' is null, as the API takes it");
    const time = await api.get(`/times/${TIME.first}`, admin, { include_revisions: true });
    assert.deepEqual([time.body.issue_uri, time.body.parents[0].issue_uri], [null, null]);
    const check = await runCli(['admin', 'check', '--db', dbFile]);
    assert.deepEqual(check, { code: 0, stdout: 'ok\n', stderr: '' });
  });
});
