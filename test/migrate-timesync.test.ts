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
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { type RunningServer, startServer } from '../src/server';
import { type Api, createApi } from './helpers/api';
import { assertUserError, runCli } from './helpers/cli';
import { tempDir } from './helpers/server';
import { createTimesyncNodeDatabase } from './helpers/timesync-node';

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
    const res = await runCli(['migrate-from-timesync-node', oldFile, '--db', dbFile]);
    assert.equal(res.code, 0, res.stderr);
    summary = res.stdout;
    const config = loadConfig({ port: 0, host: '127.0.0.1', db: dbFile }, {});
    running = await startServer(config, {
      log: createLogger('error', () => {}),
      announce: () => {},
    });
    api = createApi(running.url);
    admin = await api.login('oldadmin', 'old-admin-pass');
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
          issue_uri: null,
          notes: 'first pass',
          created_at: '2016-04-01',
          updated_at: null,
          deleted_at: null,
        },
      ],
    });
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
    db.exec(readFileSync(join(__dirname, 'fixtures', 'timesync-node.sql'), 'utf8'));
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
