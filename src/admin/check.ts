// `timetrack admin check`: SQLite's own integrity and foreign-key checks plus the
// invariants of our schema that no constraint expresses (revision chains, live slugs,
// deleted users, password hashes, kept tokens, stored time and project JSON, URIs the API
// would refuse, start times and time zones). Read-only: it reports, never repairs.

import { isTimeZone } from '../dates';
import type { Db } from '../db/open';
import { STALE_PROJECT_JSON_SQL } from '../projects/json-store';
import { WRONG_MONTH_TOTALS_SQL } from '../reports/store';
import {
  ORPHAN_TIME_ROWS_SQL,
  WRONG_ACTIVITY_SETS_SQL,
  WRONG_SLUG_LISTS_SQL,
  WRONG_TIME_JSON_SQL,
} from '../times/json-sql';
import { BCRYPT_HASH, bcryptCost, isAcceptedHash, MAX_BCRYPT_COST } from '../users/password-hash';
import { CliError } from './cli';
import {
  columnsOf,
  INSTANCE_TABLES,
  type InstanceTable,
  openExistingInstance,
} from './instance-tables';
import { isRefusedUri, refusedUriText, URI_COLUMNS } from './stored-uris';

// Each query returns one column: a problem, as a line a person can act on.
const INVARIANTS: readonly string[] = [
  // Every history row's object exists.
  `SELECT printf('activity_revisions: revision %d belongs to missing activity id %d', r.revision, r.activity_id)
   FROM activity_revisions r WHERE NOT EXISTS (SELECT 1 FROM activities a WHERE a.id = r.activity_id)`,
  `SELECT printf('project_revisions: revision %d belongs to missing project id %d', r.revision, r.project_id)
   FROM project_revisions r WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = r.project_id)`,
  `SELECT printf('time_revisions: revision %d belongs to missing time id %d', r.revision, r.time_id)
   FROM time_revisions r WHERE NOT EXISTS (SELECT 1 FROM times t WHERE t.id = r.time_id)`,
  // History holds exactly revisions 1..n-1 of an object at revision n.
  ...[
    ['activity', 'activities', 'activity_revisions', 'activity_id'],
    ['project', 'projects', 'project_revisions', 'project_id'],
    ['time', 'times', 'time_revisions', 'time_id'],
  ].map(
    ([kind, table, history, key]) =>
      `SELECT printf('${kind} %s: at revision %d but its history holds revisions [%s]',
         o.uuid, o.revision, coalesce(group_concat(h.revision, ',' ORDER BY h.revision), ''))
       FROM ${table} o LEFT JOIN ${history} h ON h.${key} = o.id
       GROUP BY o.id
       HAVING o.revision < 1 OR count(h.revision) <> o.revision - 1
         OR coalesce(min(h.revision), 1) <> 1 OR coalesce(max(h.revision), 0) <> o.revision - 1`,
  ),
  // No two live objects share a slug.
  `SELECT printf('activity slug %s is used by %d live activities', slug, count(*))
   FROM activities WHERE deleted_at IS NULL AND slug <> '' GROUP BY slug HAVING count(*) > 1`,
  // A live activity has a slug; only deleted ones may lack it (activities/json.ts NO_SLUG:
  // those the old reference server deleted).
  `SELECT printf('activity %s is live but has no slug', uuid)
   FROM activities WHERE deleted_at IS NULL AND slug = ''`,
  `SELECT printf('project slug %s is used by %d live projects', s.slug, count(*))
   FROM project_slugs s JOIN projects p ON p.id = s.project_id
   WHERE p.deleted_at IS NULL GROUP BY s.slug HAVING count(*) > 1`,
  // project_slugs.live mirrors "project not deleted" (the partial unique index relies on it).
  `SELECT printf('project %s: slug %s is marked %s but the project is %s', p.uuid, s.slug,
     iif(s.live = 1, 'live', 'not live'), iif(p.deleted_at IS NULL, 'live', 'deleted'))
   FROM project_slugs s JOIN projects p ON p.id = s.project_id
   WHERE s.live <> (p.deleted_at IS NULL)`,
  `SELECT printf('user %s is deleted but still active', username)
   FROM users WHERE deleted_at IS NOT NULL AND active = 1`,
];

/** Invariants of token revocation (sql/002), run on a database that has its columns. */
const TOKEN_INVARIANTS: readonly string[] = [
  // The token kept by a user's own password change was issued before that change.
  `SELECT printf('user %s keeps a token issued at %d, after its tokens_valid_after %s', username,
     kept_token_iat, coalesce(tokens_valid_after, 'NULL'))
   FROM users WHERE kept_token_iat IS NOT NULL
     AND (tokens_valid_after IS NULL OR kept_token_iat > tokens_valid_after)`,
];

/**
 * Invariants of the entries' derived rows (sql/009), run on a database that has them:
 * nothing of an entry's is ever left to be computed later, so any difference is wrong.
 */
const TIME_ROWS_INVARIANTS: readonly string[] = [
  // Every entry's JSON as reads send it is what its plain rows say now.
  `SELECT printf('time %s: its row of time_user_rows is missing or its JSON differs from the entry', s.uuid)
   FROM (${WRONG_TIME_JSON_SQL}) s`,
  `SELECT printf('time_user_rows has a row (user %d, %s, time %d) of no such entry',
     o.user_id, o.month, o.time_id)
   FROM (${ORPHAN_TIME_ROWS_SQL}) o`,
  `SELECT printf('project %s: its slug list (project_slug_lists) is missing or differs from its slugs', s.uuid)
   FROM (${WRONG_SLUG_LISTS_SQL}) s`,
  `SELECT printf('activity set %s: its slugs (activity_sets) differ from its activities''', s.ids)
   FROM (${WRONG_ACTIVITY_SETS_SQL}) s`,
];

/** Invariants of the stored project JSON (sql/008), run on a database that has its table. */
const PROJECT_JSON_INVARIANTS: readonly string[] = [
  // Stored JSON is what the project's rows say now (NULL: not computed yet, which is fine).
  `SELECT printf('project %s: its stored JSON (project_json) differs from its current state', s.uuid)
   FROM (${STALE_PROJECT_JSON_SQL}) s`,
  `SELECT printf('project %s has no project_json row', p.uuid)
   FROM projects p WHERE NOT EXISTS (SELECT 1 FROM project_json j WHERE j.project_id = p.id)`,
];

/**
 * Start times (sql/014) another program wrote into history: times itself has a CHECK, its
 * revisions are only ever copied from it, so one here was written around the API.
 */
const START_TIME_INVARIANTS: readonly string[] = [
  `SELECT printf('time %s revision %d: start_time %s is not a time of day (HH:MM:SS)', t.uuid,
     r.revision, json_quote(r.start_time))
   FROM time_revisions r JOIN times t ON t.id = r.time_id
   WHERE r.start_time IS NOT NULL AND NOT (r.start_time GLOB '[0-2][0-9]:[0-5][0-9]:[0-5][0-9]'
     AND r.start_time <= '23:59:59')
   ORDER BY t.id, r.revision`,
];

/**
 * Users' time zones (sql/014) this server's time zone data does not know (written around
 * the API, or dropped from a newer tz database): the timer uses the server's zone instead.
 */
function unknownTimeZones(db: Db): string[] {
  if (!columnsOf(db, 'users').includes('timezone')) return []; // an older schema
  const rows = db
    .prepare('SELECT username, timezone FROM users WHERE timezone IS NOT NULL ORDER BY id')
    .raw()
    .iterate() as Iterable<[string, string]>;
  const problems: string[] = [];
  for (const [username, zone] of rows) {
    if (!isTimeZone(String(zone))) {
      problems.push(
        `user ${username}: timezone ${JSON.stringify(zone)} is not a time zone this server knows; its timer uses the server's`,
      );
    }
  }
  return problems;
}

/** The per-month totals of reports (sql/006) agree with the entries. */
const MONTH_TOTALS_INVARIANTS: readonly string[] = [
  `SELECT printf('time totals of %s, project %d, user %d (time_month_totals) differ from its entries',
     w.month, w.project_id, w.user_id)
   FROM (${WRONG_MONTH_TOTALS_SQL}) w`,
];

/** sql/018: the row that makes the insert triggers leave an import batch's derived rows to it. */
const BULK_WRITES_INVARIANTS: readonly string[] = [
  `SELECT 'bulk_writes has a row: the insert triggers skip every entry written meanwhile (an import batch deletes it before its COMMIT)'
   FROM bulk_writes LIMIT 1`,
];

/**
 * Why a stored password hash can never let its user log in (SPEC §2.4), or undefined
 * for a hash logins compare. Shared by `admin check` and `admin import`.
 */
export function passwordHashProblem(username: string, hash: unknown): string | undefined {
  if (hash === null || (typeof hash === 'string' && isAcceptedHash(hash))) return undefined;
  const what =
    typeof hash === 'string' && BCRYPT_HASH.test(hash)
      ? `a bcrypt hash of cost ${bcryptCost(hash)}, above ${MAX_BCRYPT_COST}`
      : 'a password hash that is not a bcrypt hash';
  return `user ${username} has ${what}: password logins always fail until \`timetrack admin set-password ${username}\``;
}

/**
 * Every stored URI the API would refuse (stored-uris.ts): the web app would show it as
 * text, but a client of the API might make it a link. Read in JavaScript, as the rule is
 * the API's own (a URL parser), once per stored URI.
 */
function refusedUris(db: Db): string[] {
  const problems: string[] = [];
  const nameOf: Record<(typeof URI_COLUMNS)[number]['table'], string> = {
    projects: "'project ' || o.uuid",
    project_revisions:
      "'project ' || (SELECT uuid FROM projects WHERE id = o.project_id) || ' revision ' || o.revision",
    times: "'time ' || o.uuid",
    time_revisions:
      "'time ' || (SELECT uuid FROM times WHERE id = o.time_id) || ' revision ' || o.revision",
    timers: "'timer of ' || (SELECT username FROM users WHERE id = o.user_id)",
  };
  for (const { table, column } of URI_COLUMNS) {
    if (!columnsOf(db, table).includes(column)) continue; // an older schema
    const rows = db
      .prepare(`SELECT ${nameOf[table]}, o.${column} FROM ${table} o
        WHERE o.${column} IS NOT NULL ORDER BY ${keyOrder(table)}`)
      .raw()
      .iterate() as Iterable<[string, unknown]>;
    for (const [name, value] of rows) {
      if (isRefusedUri(value)) problems.push(`${name}: ${column} ${refusedUriText(value)}`);
    }
  }
  return problems;
}

/** A table's key order (instance-tables.ts), for rows listed in a stable order. */
const keyOrder = (table: string) =>
  (INSTANCE_TABLES.find((t) => t.name === table) as InstanceTable).orderBy;

/** Every problem found, in a stable order; empty when the database is healthy. */
export function findProblems(db: Db): string[] {
  const problems: string[] = [];
  for (const line of db.prepare('PRAGMA integrity_check').pluck().all() as string[]) {
    if (line !== 'ok') problems.push(`integrity: ${line}`);
  }
  const orphans = db.prepare('PRAGMA foreign_key_check').all() as {
    table: string;
    rowid: number | null;
    parent: string;
  }[];
  for (const o of orphans) {
    const where = o.rowid === null ? '' : ` (rowid ${o.rowid})`;
    problems.push(`foreign key: a row of ${o.table}${where} refers to a missing ${o.parent} row`);
  }
  // An older database (check never migrates) may lack the revocation columns.
  const invariants = [
    ...INVARIANTS,
    ...(columnsOf(db, 'users').includes('kept_token_iat') ? TOKEN_INVARIANTS : []),
    ...(columnsOf(db, 'time_user_rows').length > 0 ? TIME_ROWS_INVARIANTS : []),
    ...(columnsOf(db, 'project_json').length > 0 ? PROJECT_JSON_INVARIANTS : []),
    ...(columnsOf(db, 'time_month_totals').length > 0 ? MONTH_TOTALS_INVARIANTS : []),
    ...(columnsOf(db, 'bulk_writes').length > 0 ? BULK_WRITES_INVARIANTS : []),
    ...(columnsOf(db, 'time_revisions').includes('start_time') ? START_TIME_INVARIANTS : []),
  ];
  for (const sql of invariants) problems.push(...(db.prepare(sql).pluck().all() as string[]));
  problems.push(...refusedUris(db));
  problems.push(...unknownTimeZones(db));
  const hashes = db.prepare(
    'SELECT username, password_hash FROM users WHERE password_hash IS NOT NULL ORDER BY id',
  );
  for (const u of hashes.iterate() as Iterable<{ username: string; password_hash: string }>) {
    const problem = passwordHashProblem(u.username, u.password_hash);
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Derived data merely not computed yet (NULL, marked by sql/008's triggers after a write
 * of another program): not wrong, since reads compute it; a running server fills it.
 */
export function findPending(db: Db): string[] {
  if (columnsOf(db, 'project_json').length === 0) return [];
  const count = db.prepare('SELECT count(*) FROM project_json WHERE json IS NULL').pluck().get();
  return count === 0
    ? []
    : [
        `pending: ${count} project${count === 1 ? "'s" : "s'"} stored JSON (project_json) not computed yet: reads compute it, a running server stores it`,
      ];
}

/**
 * Prints each problem (one a line) and fails with their count; `ok` when there are none.
 * Derived data not computed yet is listed apart (findPending): it is no problem.
 */
export function checkCommand(opts: { db: string }, print: (line: string) => void): string {
  const db = openExistingInstance(opts.db);
  let problems: string[];
  let pending: string[];
  try {
    db.exec('BEGIN'); // one snapshot, also while a server writes
    problems = findProblems(db);
    pending = findPending(db);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  if (problems.length === 0) {
    for (const p of pending) print(p);
    return 'ok';
  }
  for (const p of [...problems, ...pending]) print(p);
  throw new CliError(
    `${problems.length} problem${problems.length === 1 ? '' : 's'} found in ${opts.db}`,
  );
}
