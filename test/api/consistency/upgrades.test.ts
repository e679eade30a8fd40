// Upgrades of populated databases (issue 30). For every schema of sql/ — the first
// migration alone, then each later one — a database is built at that schema and filled
// with the data kept below (SQL written for schema 1, plus what later schemas added, plus
// the stored JSON a server of that schema kept), and today's server is started on it:
// every later migration applies, `admin check` is clean, and the API answers what it
// answered before. The answers are written here by hand, not captured from today's
// server, so a migration that loses or alters data fails; a field added since is allowed.
// The schemas are read from sql/, so a migration added there is covered without editing
// this file; only one that adds data worth exercising needs an entry in LATER_DATA. The
// newest schema is in the loop too, with nothing to migrate: it checks the data and the
// answers themselves, so that a failure from an older schema is the upgrade's.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { migrate } from '../../../src/db/migrate';
import { readMigrationsFrom } from '../../../src/embedded';
import { runCli } from '../../helpers/cli';
import { notFoundBody } from '../../helpers/errors';
import { startTestServer, type TestServer, tempDir } from '../../helpers/server';

const MIGRATIONS = readMigrationsFrom(join(__dirname, '..', '..', '..', 'sql'));

/** Milliseconds since the epoch, as every schema stores times. */
const at = (iso: string) => Date.parse(iso);

// Password hashes as the API of schema 1 stored them (bcrypt, cost 4): admin's is of
// ADMIN.password (test/helpers/server.ts), so that the test server can log in.
const ADMIN_HASH = '$2a$04$05K8HU6T0mrWuScvQZsOQ.V3cGeQOXoDGuIKzPvyqtwsdneD4GWje';
const ALICE = { username: 'alice', password: 'alice-password-1' };
const ALICE_HASH = '$2a$04$0bViYpUecFo4EiIKJZDsle1KMoGuDYswj9w66rIrbIG7K7zOoZ9rK';

const UUID = {
  legacy: 'a0000000-0000-4000-8000-000000000000',
  dev: 'a0000001-0000-4000-8000-000000000001',
  docs: 'a0000002-0000-4000-8000-000000000002',
  meeting: 'a0000003-0000-4000-8000-000000000003',
  gwm: 'b0000001-0000-4000-8000-000000000001',
  pgd: 'b0000002-0000-4000-8000-000000000002',
  old: 'b0000003-0000-4000-8000-000000000003',
  t1: 'c0000001-0000-4000-8000-000000000001',
  t2: 'c0000002-0000-4000-8000-000000000002',
  t3: 'c0000003-0000-4000-8000-000000000003',
  t4: 'c0000004-0000-4000-8000-000000000004',
  t5: 'c0000005-0000-4000-8000-000000000005',
  t6: 'c0000006-0000-4000-8000-000000000006',
};

const NOTES_T1 = 'Añadido el botón «Guardar» — 日本語 ✓ 🚀\nzweite Zeile mit "Anführungszeichen"';

/**
 * The data, as SQL against the tables of sql/001 alone: users of every kind (an admin,
 * a mixed-case username without a password, a deleted one), org roles, activities
 * (renamed, deleted, and one the old reference server deleted, without a slug), projects
 * (renamed with a parent revision, deleted, with users and a default activity) and time
 * entries (updated, moved between projects, deleted, with unicode notes).
 */
const SCHEMA_1_DATA = `
INSERT INTO users (id, username, display_name, password_hash, email, meta, site_spectator,
  site_manager, site_admin, active, created_at, updated_at, deleted_at) VALUES
  (1, 'admin', 'Administrator', '${ADMIN_HASH}', NULL, NULL, 0, 0, 1, 1,
    ${at('2024-01-02T08:00:00.000Z')}, NULL, NULL),
  (2, 'alice', 'Alice Ünïcødé', '${ALICE_HASH}', 'alice@example.org', 'likes tea ☕', 0, 0, 0, 1,
    ${at('2024-01-03T09:00:00.000Z')}, ${at('2024-02-01T10:00:00.000Z')}, NULL),
  (3, 'Bob', NULL, NULL, NULL, NULL, 1, 0, 0, 1, ${at('2024-01-03T09:30:00.000Z')}, NULL, NULL),
  (4, 'carol', 'Carol', NULL, 'carol@example.org', NULL, 0, 1, 0, 1,
    ${at('2024-01-04T11:00:00.000Z')}, NULL, NULL),
  (5, 'gone', 'Gone Away', NULL, NULL, NULL, 0, 0, 0, 0, ${at('2024-01-04T12:00:00.000Z')},
    ${at('2024-03-01T12:00:00.000Z')}, ${at('2024-03-01T12:00:00.000Z')});

INSERT INTO org_roles (id, slug, name) VALUES (1, 'dev-team', 'Developers'), (2, 'ops', 'Opérations');
INSERT INTO user_org_roles (user_id, role_id) VALUES (2, 1), (4, 1), (4, 2);

INSERT INTO activities (id, uuid, revision, name, slug, created_at, updated_at, deleted_at,
  changed_by) VALUES
  (1, '${UUID.dev}', 1, 'Development', 'dev', ${at('2024-01-05T10:00:00.000Z')}, NULL, NULL, 1),
  (2, '${UUID.docs}', 2, 'Documentation', 'docs', ${at('2024-01-05T10:05:00.000Z')},
    ${at('2024-01-20T15:00:00.000Z')}, NULL, 1),
  (3, '${UUID.meeting}', 1, 'Meetings', 'meeting', ${at('2024-01-05T10:10:00.000Z')}, NULL,
    ${at('2024-02-10T09:00:00.000Z')}, 1),
  (4, '${UUID.legacy}', 1, 'Legacy', '', ${at('2023-11-20T10:00:00.000Z')}, NULL,
    ${at('2023-12-01T10:00:00.000Z')}, NULL);
INSERT INTO activity_revisions (activity_id, revision, name, slug, created_at, updated_at,
  deleted_at, changed_by) VALUES
  (2, 1, 'Docs', 'doc', ${at('2024-01-05T10:05:00.000Z')}, NULL, NULL, 1);

INSERT INTO projects (id, uuid, revision, name, uri, owner_id, default_activity_id, created_at,
  updated_at, deleted_at, changed_by) VALUES
  (1, '${UUID.gwm}', 2, 'Ganeti Web Manager', 'https://code.osuosl.org/projects/ganeti-webmgr',
    2, 1, ${at('2024-01-06T09:00:00.000Z')}, ${at('2024-01-15T09:00:00.000Z')}, NULL, 4),
  (2, '${UUID.pgd}', 1, 'Protocols & Ñandú', NULL, NULL, NULL, ${at('2024-01-07T09:00:00.000Z')},
    NULL, NULL, 1),
  (3, '${UUID.old}', 1, 'Retired', NULL, 1, NULL, ${at('2024-01-08T09:00:00.000Z')}, NULL,
    ${at('2024-02-20T09:00:00.000Z')}, 1);
INSERT INTO project_slugs (project_id, position, slug, live) VALUES
  (1, 0, 'gwm', 1), (1, 1, 'ganeti-webmgr', 1), (2, 0, 'pgd', 1), (3, 0, 'old', 0);
INSERT INTO project_revisions (project_id, revision, name, uri, owner_id, default_activity_id,
  slugs, created_at, updated_at, deleted_at, changed_by) VALUES
  (1, 1, 'GWM', NULL, 2, NULL, '["gwm"]', ${at('2024-01-06T09:00:00.000Z')}, NULL, NULL, 1);
INSERT INTO project_users (project_id, user_id, member, spectator, manager) VALUES
  (1, 2, 1, 0, 1), (1, 3, 1, 0, 0), (1, 4, 0, 1, 0), (2, 2, 1, 0, 0), (3, 5, 1, 0, 0);

INSERT INTO times (id, uuid, revision, duration, user_id, project_id, date_worked, issue_uri,
  notes, created_at, updated_at, deleted_at, changed_by) VALUES
  (1, '${UUID.t1}', 2, 3600, 2, 1, '2024-03-04', 'https://code.osuosl.org/issues/56',
    '${NOTES_T1}', ${at('2024-03-04T17:00:00.000Z')}, ${at('2024-03-05T08:00:00.000Z')}, NULL, 2),
  (2, '${UUID.t2}', 1, 5400, 2, 2, '2024-03-05', NULL, NULL, ${at('2024-03-05T18:00:00.000Z')},
    NULL, NULL, 2),
  (3, '${UUID.t3}', 1, 7200, 3, 1, '2024-03-04', NULL, 'pair programming with alice',
    ${at('2024-03-04T19:00:00.000Z')}, NULL, NULL, 3),
  (4, '${UUID.t4}', 1, 900, 2, 1, '2024-02-28', NULL, 'duplicate', ${at('2024-02-28T16:00:00.000Z')},
    NULL, ${at('2024-03-06T10:00:00.000Z')}, 2),
  (5, '${UUID.t5}', 3, 0, 2, 1, '2024-04-01', NULL, '', ${at('2024-03-29T12:00:00.000Z')},
    ${at('2024-04-02T09:00:00.000Z')}, NULL, 4),
  (6, '${UUID.t6}', 1, 1800, 5, 3, '2024-01-10', NULL, NULL, ${at('2024-01-10T10:00:00.000Z')},
    NULL, ${at('2024-02-10T08:00:00.000Z')}, NULL);
INSERT INTO time_activities (time_id, activity_id) VALUES
  (1, 1), (1, 2), (2, 2), (3, 1), (4, 1), (5, 1), (6, 3), (6, 4);
INSERT INTO time_revisions (time_id, revision, duration, user_id, project_id, date_worked,
  issue_uri, notes, activity_ids, created_at, updated_at, deleted_at, changed_by) VALUES
  (1, 1, 1800, 2, 1, '2024-03-04', NULL, 'first try', '[1]', ${at('2024-03-04T17:00:00.000Z')},
    NULL, NULL, 2),
  (5, 1, 1200, 2, 2, '2024-03-29', NULL, 'draft', '[2]', ${at('2024-03-29T12:00:00.000Z')},
    NULL, NULL, 2),
  (5, 2, 1200, 2, 2, '2024-04-01', NULL, 'draft', '[2]', ${at('2024-03-29T12:00:00.000Z')},
    ${at('2024-03-30T12:00:00.000Z')}, NULL, 2);
`;

/** Alice's personal API token (schema 11 on), as its owner saw it once; stored as a hash. */
const ALICE_API_TOKEN = `tt_${'u'.repeat(43)}`;

/** What a later schema added that the data should hold from then on, by its version. */
const LATER_DATA: Record<number, string> = {
  // Token revocation: alice changed her own password (keeping that token), gone was deleted.
  2: `UPDATE users SET tokens_valid_after = ${at('2024-02-01T10:00:00.000Z')},
        kept_token_iat = ${at('2024-02-01T09:59:00.000Z')} WHERE username = 'alice';
      UPDATE users SET tokens_valid_after = ${at('2024-03-01T12:00:00.000Z')}
        WHERE username = 'gone';`,
  // Running timers: alice's, on gwm with the docs activity.
  3: `INSERT INTO timers (user_id, project_id, activity_ids, notes, issue_uri, date_worked,
        started_at)
      VALUES (2, 1, '[2]', 'writing docs ✍️', NULL, '2024-04-03', ${at('2024-04-03T08:15:00.000Z')});`,
  // Personal API tokens (issue 33): alice's read-only one for a script.
  11: `INSERT INTO personal_tokens (user_id, name, scope, secret_hash, created_at)
      VALUES (2, 'ci', 'read', '${createHash('sha256').update(ALICE_API_TOKEN).digest('hex')}',
        ${at('2024-04-02T08:00:00.000Z')});`,
  // Approvals (issue 32): Bob's week 2024-W10 on gwm (his entry of 2024-03-04) approved.
  13: `INSERT INTO week_parts (user_id, project_id, week, status, submitted_at, decided_by,
        decided_at, comment)
      VALUES (3, 1, '2024-W10', 'approved', ${at('2024-03-08T16:00:00.000Z')}, 1,
        ${at('2024-03-11T09:00:00.000Z')}, NULL);
      INSERT INTO week_part_decisions (user_id, project_id, week, action, by_id, at, comment)
      VALUES (3, 1, '2024-W10', 'submit', 3, ${at('2024-03-08T16:00:00.000Z')}, NULL),
        (3, 1, '2024-W10', 'approve', 1, ${at('2024-03-11T09:00:00.000Z')}, NULL);`,
  // Start times and time zones (issue 31): Bob's entry started at 08:30 (the triggers write
  // its row), the revision of alice's first one at 09:00; alice works in Berlin. A later
  // migration that rebuilds the entries' rows must carry them (admin check compares).
  14: `UPDATE times SET start_time = '08:30:00' WHERE id = 3;
      UPDATE time_revisions SET start_time = '09:00:00' WHERE time_id = 1 AND revision = 1;
      UPDATE users SET timezone = 'Europe/Berlin' WHERE username = 'alice';`,
  // Imports (issue 31): Bob's entry came from an earlier import, under this source key.
  15: `INSERT INTO import_sources (key, time_id) VALUES ('upgradedImportKey0000a', 3);`,
  // Sessions that last (issue 34): alice's token was renewed once, for half an hour.
  16: `INSERT INTO renewed_tokens (user_id, issued_at, signed_in_at, expires_at)
      VALUES (2, ${at('2024-04-03T08:30:00.000Z')}, ${at('2024-04-03T08:00:00.000Z')},
        ${at('2024-04-03T09:00:00.000Z')});`,
  // Issue 34: alice kept a row (pgd, docs) on her week 2024-W15, not yet filled; gwm's
  // revision 1 kept its users map (alice a member).
  17: `INSERT INTO kept_rows (user_id, week, position, project_id, activity_ids)
      VALUES (2, '2024-W15', 0, 2, '[2]');
      UPDATE project_revisions SET users = '{"alice":{"member":true,"spectator":false,"manager":false}}'
        WHERE project_id = 1 AND revision = 1;`,
};

// The answers of the API, by hand. Time entries and projects in their current revision
// (the shape a server of schemas 4 to 8 also stored), then what include_revisions adds.
const TIME = {
  t1: {
    uuid: UUID.t1,
    revision: 2,
    duration: 3600,
    user: 'alice',
    project: ['gwm', 'ganeti-webmgr'],
    activities: ['dev', 'docs'],
    date_worked: '2024-03-04',
    issue_uri: 'https://code.osuosl.org/issues/56',
    notes: NOTES_T1,
    created_at: '2024-03-04',
    updated_at: '2024-03-05',
    deleted_at: null,
  },
  t2: {
    uuid: UUID.t2,
    revision: 1,
    duration: 5400,
    user: 'alice',
    project: ['pgd'],
    activities: ['docs'],
    date_worked: '2024-03-05',
    issue_uri: null,
    notes: null,
    created_at: '2024-03-05',
    updated_at: null,
    deleted_at: null,
  },
  t3: {
    uuid: UUID.t3,
    revision: 1,
    duration: 7200,
    user: 'Bob',
    project: ['gwm', 'ganeti-webmgr'],
    activities: ['dev'],
    date_worked: '2024-03-04',
    issue_uri: null,
    notes: 'pair programming with alice',
    created_at: '2024-03-04',
    updated_at: null,
    deleted_at: null,
  },
  t4: {
    uuid: UUID.t4,
    revision: 1,
    duration: 900,
    user: 'alice',
    project: ['gwm', 'ganeti-webmgr'],
    activities: ['dev'],
    date_worked: '2024-02-28',
    issue_uri: null,
    notes: 'duplicate',
    created_at: '2024-02-28',
    updated_at: null,
    deleted_at: '2024-03-06',
  },
  t5: {
    uuid: UUID.t5,
    revision: 3,
    duration: 0,
    user: 'alice',
    project: ['gwm', 'ganeti-webmgr'],
    activities: ['dev'],
    date_worked: '2024-04-01',
    issue_uri: null,
    notes: '',
    created_at: '2024-03-29',
    updated_at: '2024-04-02',
    deleted_at: null,
  },
  // The activity without a slug is left out, as the old reference server did.
  t6: {
    uuid: UUID.t6,
    revision: 1,
    duration: 1800,
    user: 'gone',
    project: ['old'],
    activities: ['meeting'],
    date_worked: '2024-01-10',
    issue_uri: null,
    notes: null,
    created_at: '2024-01-10',
    updated_at: null,
    deleted_at: '2024-02-10',
  },
};

const T1_WITH_REVISIONS = {
  ...TIME.t1,
  parents: [
    {
      ...TIME.t1,
      revision: 1,
      duration: 1800,
      activities: ['dev'],
      issue_uri: null,
      notes: 'first try',
      updated_at: null,
    },
  ],
};

// Moved from pgd to gwm by a project manager; the parents show the project they were in.
const T5_WITH_REVISIONS = {
  ...TIME.t5,
  parents: [
    {
      ...TIME.t5,
      revision: 2,
      duration: 1200,
      project: ['pgd'],
      activities: ['docs'],
      notes: 'draft',
      updated_at: '2024-03-30',
    },
    {
      ...TIME.t5,
      revision: 1,
      duration: 1200,
      project: ['pgd'],
      activities: ['docs'],
      date_worked: '2024-03-29',
      notes: 'draft',
      updated_at: null,
    },
  ],
};

// Alice's running timer (schema 3 on); `elapsed` is checked apart.
const TIMER = {
  project: ['gwm', 'ganeti-webmgr'],
  activities: ['docs'],
  notes: 'writing docs ✍️',
  issue_uri: null,
  date_worked: '2024-04-03',
  started_at: '2024-04-03T08:15:00.000Z',
};

const PROJECT = {
  // Users in the order of their usernames, case aside (what the stored text has).
  gwm: {
    name: 'Ganeti Web Manager',
    slugs: ['gwm', 'ganeti-webmgr'],
    uri: 'https://code.osuosl.org/projects/ganeti-webmgr',
    owner: 'alice',
    default_activity: 'dev',
    users: {
      alice: { member: true, spectator: false, manager: true },
      Bob: { member: true, spectator: false, manager: false },
      carol: { member: false, spectator: true, manager: false },
    },
    uuid: UUID.gwm,
    revision: 2,
    created_at: '2024-01-06',
    updated_at: '2024-01-15',
    deleted_at: null,
  },
  pgd: {
    name: 'Protocols & Ñandú',
    slugs: ['pgd'],
    uri: null,
    owner: null,
    default_activity: null,
    users: { alice: { member: true, spectator: false, manager: false } },
    uuid: UUID.pgd,
    revision: 1,
    created_at: '2024-01-07',
    updated_at: null,
    deleted_at: null,
  },
  old: {
    name: 'Retired',
    slugs: ['old'],
    uri: null,
    owner: 'admin',
    default_activity: null,
    users: { gone: { member: true, spectator: false, manager: false } },
    uuid: UUID.old,
    revision: 1,
    created_at: '2024-01-08',
    updated_at: null,
    deleted_at: '2024-02-20',
  },
};

const { users: _gwmUsers, ...GWM_REVISION_FIELDS } = PROJECT.gwm;
const GWM_WITH_REVISIONS = {
  ...PROJECT.gwm,
  parents: [
    {
      ...GWM_REVISION_FIELDS,
      name: 'GWM',
      slugs: ['gwm'],
      uri: null,
      default_activity: null,
      revision: 1,
      updated_at: null,
    },
  ],
};

const ACTIVITY = {
  legacy: {
    name: 'Legacy',
    slug: null,
    uuid: UUID.legacy,
    revision: 1,
    created_at: '2023-11-20',
    updated_at: null,
    deleted_at: '2023-12-01',
  },
  dev: {
    name: 'Development',
    slug: 'dev',
    uuid: UUID.dev,
    revision: 1,
    created_at: '2024-01-05',
    updated_at: null,
    deleted_at: null,
  },
  meeting: {
    name: 'Meetings',
    slug: 'meeting',
    uuid: UUID.meeting,
    revision: 1,
    created_at: '2024-01-05',
    updated_at: null,
    deleted_at: '2024-02-10',
  },
  docs: {
    name: 'Documentation',
    slug: 'docs',
    uuid: UUID.docs,
    revision: 2,
    created_at: '2024-01-05',
    updated_at: '2024-01-20',
    deleted_at: null,
  },
};

const USER = {
  admin: {
    username: 'admin',
    display_name: 'Administrator',
    email: null,
    'org-roles': [],
    site_spectator: false,
    site_manager: false,
    site_admin: true,
    active: true,
    meta: null,
    created_at: '2024-01-02',
    updated_at: null,
    deleted_at: null,
  },
  Bob: {
    username: 'Bob',
    display_name: null,
    email: null,
    'org-roles': [],
    site_spectator: true,
    site_manager: false,
    site_admin: false,
    active: true,
    meta: null,
    created_at: '2024-01-03',
    updated_at: null,
    deleted_at: null,
  },
  carol: {
    username: 'carol',
    display_name: 'Carol',
    email: 'carol@example.org',
    'org-roles': ['dev-team', 'ops'],
    site_spectator: false,
    site_manager: true,
    site_admin: false,
    active: true,
    meta: null,
    created_at: '2024-01-04',
    updated_at: null,
    deleted_at: null,
  },
  alice: {
    username: 'alice',
    display_name: 'Alice Ünïcødé',
    email: 'alice@example.org',
    'org-roles': ['dev-team'],
    site_spectator: false,
    site_manager: false,
    site_admin: false,
    active: true,
    meta: 'likes tea ☕',
    created_at: '2024-01-03',
    updated_at: '2024-02-01',
    deleted_at: null,
  },
  gone: {
    username: 'gone',
    display_name: 'Gone Away',
    email: null,
    'org-roles': [],
    site_spectator: false,
    site_manager: false,
    site_admin: false,
    active: false,
    meta: null,
    created_at: '2024-01-04',
    updated_at: '2024-03-01',
    deleted_at: '2024-03-01',
  },
};

/**
 * The newest schema whose stored JSON this file writes as that server kept it (the API's
 * text of each entry and project, as above). A database at a newer schema gets none: it
 * is left to be computed (NULL), which every schema reads correctly, because the text a
 * newer server stores may have another shape than these answers. Raise it only with a
 * schema whose stored text is exactly these answers.
 */
const STORED_JSON_UP_TO = 8;

const hasTable = (db: Database.Database, table: string) =>
  db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !==
  undefined;

/**
 * The stored JSON a server of `schema` would have kept for this data (schemas 4 to 8),
 * so that an upgrade that changes what it shows must also compute it again: text left
 * from before would differ from a fresh computation, which `admin check` reports.
 */
function storeJsonAsKept(db: Database.Database, schema: number): void {
  if (schema > STORED_JSON_UP_TO) return;
  const times = Object.values(TIME);
  if (hasTable(db, 'time_json')) {
    const set = db.prepare(
      'UPDATE time_json SET json = ? WHERE time_id = (SELECT id FROM times WHERE uuid = ?)',
    );
    for (const t of times) assert.equal(set.run(JSON.stringify(t), t.uuid).changes, 1);
  }
  if (hasTable(db, 'time_user_json')) {
    const set = db.prepare('UPDATE time_user_json SET json = ? WHERE uuid = ?');
    for (const t of times) assert.equal(set.run(JSON.stringify(t), t.uuid).changes, 1);
  }
  if (hasTable(db, 'project_json')) {
    const set = db.prepare(
      'UPDATE project_json SET json = ? WHERE project_id = (SELECT id FROM projects WHERE uuid = ?)',
    );
    for (const p of Object.values(PROJECT)) {
      assert.equal(set.run(JSON.stringify(p), p.uuid).changes, 1);
    }
  }
}

/** A database file at `schema` (migrations 1..schema applied and recorded), filled. */
function databaseAt(schema: number): string {
  const file = join(tempDir('timetrack-upgrade-'), `schema-${schema}.db`);
  const db = new Database(file);
  try {
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= schema),
    );
    db.transaction(() => {
      db.exec(SCHEMA_1_DATA);
      for (const [version, sql] of Object.entries(LATER_DATA)) {
        if (Number(version) <= schema) db.exec(sql);
      }
      storeJsonAsKept(db, schema);
    })();
  } finally {
    db.close();
  }
  return file;
}

/**
 * `actual` with only the keys `expected` has, at every depth: a field added since is
 * allowed, one missing or changed is not (then deepEqual shows the difference).
 */
function asBefore(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.map((a, i) => asBefore(a, expected[i]));
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(actual) && isObject(expected)) {
    return Object.fromEntries(
      Object.keys(expected)
        .filter((k) => k in actual)
        .map((k) => [k, asBefore(actual[k], expected[k])]),
    );
  }
  return actual;
}

for (const from of MIGRATIONS) {
  const later = MIGRATIONS.filter((m) => m.version > from.version);
  const what =
    later.length === 0
      ? 'nothing to migrate: the data reads as expected at today’s schema'
      : `migrations ${later.map((m) => m.version).join(', ')} to apply`;
  describe(`a populated database at schema ${from.version} (${from.name}), ${what}`, () => {
    let dbFile: string;
    let server: TestServer;
    let startedAt: number;
    let admin: string;
    const get = async (path: string, query: Record<string, string | string[]> = {}) => {
      const res = await server.api.get(path, admin, query);
      assert.equal(res.status, 200, res.text);
      return res.body as unknown;
    };
    const answers = async (
      path: string,
      query: Record<string, string | string[]>,
      expected: unknown,
    ) => assert.deepEqual(asBefore(await get(path, query), expected), expected);

    before(async () => {
      dbFile = databaseAt(from.version);
      await sleep(2); // so that what the server applies is recorded later than what was
      startedAt = Date.now();
      server = await startTestServer({ dbFile, env: { TIMETRACK_WEB: 'false' } });
      admin = server.adminToken;
      // The server computes stored JSON left to be computed in the background: wait
      // until it is done, so that what it filled in is checked too.
      const { projectJson } = server.running.app;
      const deadline = Date.now() + 10_000;
      while (projectJson.hasStale()) {
        assert.ok(Date.now() < deadline, 'the stored JSON is still not filled after 10 s');
        await sleep(10);
      }
    });
    after(async () => {
      await server?.close();
    });

    it('applies every later migration once, in order, and keeps the earlier ones', () => {
      const db = new Database(dbFile, { readonly: true });
      try {
        const rows = db
          .prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')
          .all() as { version: number; name: string; applied_at: number }[];
        assert.deepEqual(
          rows.map(({ version, name }) => ({ version, name })),
          MIGRATIONS.map(({ version, name }) => ({ version, name })),
        );
        for (const row of rows) {
          assert.equal(row.applied_at >= startedAt, row.version > from.version, row.name);
        }
      } finally {
        db.close();
      }
    });

    it('shows each time entry as before, with its history', async () => {
      for (const t of Object.values(TIME)) {
        await answers(`/times/${t.uuid}`, { include_deleted: 'true' }, t);
      }
      await answers(`/times/${UUID.t1}`, { include_revisions: 'true' }, T1_WITH_REVISIONS);
      // Who made each revision: the history (issue 29), newest first.
      const history = (await get(`/times/${UUID.t5}/history`, {})) as { changed_by: string }[];
      assert.deepEqual(
        history.map((r) => r.changed_by),
        ['carol', 'alice', 'alice'],
      );
      await answers(`/times/${UUID.t5}`, { include_revisions: 'true' }, T5_WITH_REVISIONS);
    });

    it('lists time entries as before, in order of last change', async () => {
      await answers('/times', { user: 'alice' }, [TIME.t1, TIME.t2, TIME.t5]);
      await answers('/times', { user: 'alice', include_deleted: 'true' }, [
        TIME.t4,
        TIME.t1,
        TIME.t2,
        TIME.t5,
      ]);
      await answers('/times', { user: 'alice', start: '2024-03-01', end: '2024-03-31' }, [
        TIME.t1,
        TIME.t2,
      ]);
      await answers('/times', { project: 'ganeti-webmgr' }, [TIME.t3, TIME.t1, TIME.t5]);
      await answers('/times', { activity: 'docs' }, [TIME.t1, TIME.t2]);
      await answers('/times', { include_deleted: 'true' }, [
        TIME.t6,
        TIME.t4,
        TIME.t3,
        TIME.t1,
        TIME.t2,
        TIME.t5,
      ]);
    });

    it('reports the same totals', async () => {
      const gwm = { project: ['gwm', 'ganeti-webmgr'], project_name: 'Ganeti Web Manager' };
      const pgd = { project: ['pgd'], project_name: 'Protocols & Ñandú' };
      const query = { start: '2024-01-01', end: '2024-12-31', group_by: ['project', 'month'] };
      await answers('/reports', query, {
        start: '2024-01-01',
        end: '2024-12-31',
        group_by: ['project', 'month'],
        rows: [
          { ...gwm, month: '2024-03', duration: 10800, entries: 2 },
          { ...gwm, month: '2024-04', duration: 0, entries: 1 },
          { ...pgd, month: '2024-03', duration: 5400, entries: 1 },
        ],
        total: { duration: 16200, entries: 4 },
      });
      await answers(
        '/reports',
        { ...query, include_deleted: 'true' },
        {
          start: '2024-01-01',
          end: '2024-12-31',
          group_by: ['project', 'month'],
          rows: [
            { ...gwm, month: '2024-02', duration: 900, entries: 1 },
            { ...gwm, month: '2024-03', duration: 10800, entries: 2 },
            { ...gwm, month: '2024-04', duration: 0, entries: 1 },
            {
              project: ['old'],
              project_name: 'Retired',
              month: '2024-01',
              duration: 1800,
              entries: 1,
            },
            { ...pgd, month: '2024-03', duration: 5400, entries: 1 },
          ],
          total: { duration: 18900, entries: 6 },
        },
      );
    });

    it('shows projects as before, with their history', async () => {
      await answers('/projects/gwm', {}, PROJECT.gwm);
      await answers('/projects/ganeti-webmgr', { include_revisions: 'true' }, GWM_WITH_REVISIONS);
      const history = (await get(`/projects/${PROJECT.gwm.uuid}/history`, {})) as {
        changed_by: string;
      }[];
      assert.deepEqual(
        history.map((r) => r.changed_by),
        ['carol', 'admin'],
      );
      await answers('/projects', {}, [PROJECT.pgd, PROJECT.gwm]);
      await answers('/projects', { include_deleted: 'true' }, [
        PROJECT.pgd,
        PROJECT.old,
        PROJECT.gwm,
      ]);
      await answers('/projects', { user: 'Bob' }, [PROJECT.gwm]);
    });

    it('shows activities as before, with their history', async () => {
      await answers('/activities', {}, [ACTIVITY.dev, ACTIVITY.docs]);
      await answers('/activities', { include_deleted: 'true', include_revisions: 'true' }, [
        { ...ACTIVITY.legacy, parents: [] },
        { ...ACTIVITY.dev, parents: [] },
        { ...ACTIVITY.meeting, parents: [] },
        {
          ...ACTIVITY.docs,
          parents: [{ ...ACTIVITY.docs, name: 'Docs', slug: 'doc', revision: 1, updated_at: null }],
        },
      ]);
    });

    it('shows users and org roles as before', async () => {
      await answers('/users', {}, [USER.admin, USER.Bob, USER.carol, USER.alice]);
      await answers('/users', { include_deleted: 'true' }, [
        USER.admin,
        USER.Bob,
        USER.carol,
        USER.alice,
        USER.gone,
      ]);
      await answers('/users', { role: 'dev-team' }, [USER.carol, USER.alice]);
      await answers('/users/org-roles', {}, [
        { name: 'Developers', slug: 'dev-team' },
        { name: 'Opérations', slug: 'ops' },
      ]);
    });

    it("keeps passwords, and alice's running timer from schema 3 on", async () => {
      const token = await server.api.login(ALICE.username, ALICE.password);
      const res = await server.api.get('/timer', token);
      if (from.version < 3) {
        assert.deepEqual([res.status, res.body], [404, notFoundBody('timer')]);
        return;
      }
      assert.equal(res.status, 200, res.text);
      const { elapsed, ...timer } = res.body as { elapsed: number };
      assert.deepEqual(asBefore(timer, TIMER), TIMER);
      assert.ok(elapsed >= Math.floor((startedAt - at('2024-04-03T08:15:00.000Z')) / 1000));
    });

    it('keeps start times and time zones from schema 14 on, null before', async () => {
      const kept = from.version >= 14;
      const t3 = (await get(`/times/${UUID.t3}`)) as { start_time: unknown };
      const t1 = (await get(`/times/${UUID.t1}`, { include_revisions: 'true' })) as {
        start_time: unknown;
        parents: { start_time: unknown }[];
      };
      const alice = (await get('/users/alice')) as { timezone: unknown };
      assert.deepEqual(
        [t3.start_time, t1.start_time, t1.parents[0]?.start_time, alice.timezone],
        kept ? ['08:30:00', null, '09:00:00', 'Europe/Berlin'] : [null, null, null, null],
      );
      const listed = (await get('/times', { user: 'Bob' })) as { start_time: unknown }[];
      assert.deepEqual(
        listed.map((t) => t.start_time),
        [kept ? '08:30:00' : null],
      );
    });

    it("keeps alice's personal API token from schema 11 on", async () => {
      const res = await server.api.raw('/v0/users/alice', {
        headers: { Authorization: `Bearer ${ALICE_API_TOKEN}` },
      });
      assert.equal(res.status, from.version >= 11 ? 200 : 401, res.text);
    });

    it("keeps Bob's approved week from schema 13 on, and it stays locked", async () => {
      const kept = from.version >= 13;
      const parts = (await get('/approvals', { user: 'Bob', status: 'approved' })) as {
        week: string;
        project: string[];
        decided_by: string;
      }[];
      assert.deepEqual(
        parts.map((p) => [p.week, p.project[0], p.decided_by]),
        kept ? [['2024-W10', 'gwm', 'admin']] : [],
      );
      if (!kept) return;
      const res = await server.api.post(`/times/${UUID.t3}`, admin, { duration: 60 });
      assert.deepEqual(
        [res.status, res.body],
        [
          409,
          {
            status: 409,
            error: 'Period locked',
            text: 'Time entries of Bob on gwm in week 2024-W10 are approved',
          },
        ],
      );
    });

    it("keeps alice's kept timesheet row and gwm's revision's members from schema 17 on", async () => {
      const kept = from.version >= 17;
      assert.deepEqual(await get('/weeks/alice/2024-W15/rows'), {
        rows: kept ? [{ project: ['pgd'], activities: ['docs'] }] : [],
      });
      const history = (await get(`/projects/${UUID.gwm}/history`)) as { users?: unknown }[];
      assert.deepEqual(
        history[1]?.users,
        kept ? { alice: { member: true, spectator: false, manager: false } } : undefined,
      );
    });

    it("keeps an earlier import's source key (schema 15 on) and a renewal (schema 16 on)", () => {
      // What the migrations after them must carry: the key makes a re-import skip the
      // entry; the renewal keeps the session's first sign-in for --session-max.
      const db = new Database(dbFile, { readonly: true });
      try {
        const keys = db.prepare('SELECT key, time_id FROM import_sources').all();
        assert.deepEqual(
          keys,
          from.version >= 15 ? [{ key: 'upgradedImportKey0000a', time_id: 3 }] : [],
        );
        const renewals = db.prepare('SELECT user_id, signed_in_at FROM renewed_tokens').all();
        assert.deepEqual(
          renewals,
          from.version >= 16
            ? [{ user_id: 2, signed_in_at: Date.parse('2024-04-03T08:00:00.000Z') }]
            : [],
        );
      } finally {
        db.close();
      }
    });

    it('passes `admin check` once upgraded', async () => {
      const res = await runCli(['admin', 'check', '--db', dbFile]);
      assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
    });

    // Schema 18: an import batch writes its entries' derived rows itself (the insert
    // triggers skip them while it runs); they must be what the triggers would write.
    it('imports a Toggl file onto the upgraded data: the entries show their activities and `admin check` stays clean', async () => {
      const file = [
        'User,Email,Project,Task,Description,Start date,Start time,End date,End time,Duration,Tags',
        'alice,,Ganeti Web Manager,Development,"pairing, remote",2024-05-02,09:00:00,2024-05-02,10:30:00,01:30:00,Documentation',
        'alice,,Ganeti Web Manager,Documentation,,2024-05-03,14:00:00,2024-05-03,14:45:00,00:45:00,',
        'alice,,Protocols & Ñandú,Development,drafts,2024-06-03,08:15:00,2024-06-03,09:15:00,01:00:00,',
      ].join('\n');
      const res = await server.api.raw('/v0/imports?format=toggl&tags_as_activities=true', {
        method: 'POST',
        headers: { 'Content-Type': 'text/csv', Authorization: `Bearer ${admin}` },
        body: file,
      });
      const report = res.body as { entries: { created: number } };
      assert.equal(res.status, 200, JSON.stringify(report));
      assert.equal(report.entries.created, 3);
      const times = (await get('/times', { user: 'alice', start: '2024-05-01' })) as {
        date_worked: string;
        start_time: string | null;
        activities: string[];
        duration: number;
        notes: string | null;
      }[];
      assert.deepEqual(
        times
          .map((t) => [t.date_worked, t.start_time, t.activities, t.duration, t.notes])
          .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
        [
          ['2024-05-02', '09:00:00', ['dev', 'docs'], 5400, 'pairing, remote'],
          ['2024-05-03', '14:00:00', ['docs'], 2700, null],
          ['2024-06-03', '08:15:00', ['dev'], 3600, 'drafts'],
        ],
      );
      const check = await runCli(['admin', 'check', '--db', dbFile]);
      assert.deepEqual(check, { code: 0, stdout: 'ok\n', stderr: '' });
    });
  });
}
