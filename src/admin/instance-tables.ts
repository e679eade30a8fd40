// The tables that hold an instance, in dependency order (a row's references come before
// it), and generic row access over them. Export, import, migration and the emptiness
// check share this one list, so a new table is added in one place.
import { existsSync } from 'node:fs';
import type { Db } from '../db/open';
import { CliError, openReadOnlyChecked, refuseDirectory } from './cli';

export interface InstanceTable {
  name: string;
  /** Primary-key order: rows are exported in this order, so exports are reproducible. */
  orderBy: string;
}

// Left out on purpose, being short-lived state rather than data: login_failures (the
// throttle), signed_out_tokens and renewed_tokens (kept only until the tokens expire),
// idempotency_keys (kept 24 h), and oidc_sign_ins and oidc_codes (minutes, seconds).
export const INSTANCE_TABLES: readonly InstanceTable[] = [
  { name: 'settings', orderBy: 'key' },
  { name: 'users', orderBy: 'id' },
  { name: 'org_roles', orderBy: 'id' },
  { name: 'user_org_roles', orderBy: 'user_id, role_id' },
  // Hashes only: an instance moved by export and import keeps its scripts' tokens.
  { name: 'personal_tokens', orderBy: 'id' },
  { name: 'activities', orderBy: 'id' },
  { name: 'activity_revisions', orderBy: 'activity_id, revision' },
  { name: 'projects', orderBy: 'id' },
  { name: 'project_slugs', orderBy: 'project_id, position' },
  { name: 'project_revisions', orderBy: 'project_id, revision' },
  { name: 'project_users', orderBy: 'project_id, user_id' },
  { name: 'times', orderBy: 'id' },
  { name: 'time_activities', orderBy: 'time_id, activity_id' },
  { name: 'time_revisions', orderBy: 'time_id, revision' },
  { name: 'import_sources', orderBy: 'key' },
  { name: 'timers', orderBy: 'user_id' },
  { name: 'kept_rows', orderBy: 'user_id, week, position' },
  { name: 'week_parts', orderBy: 'user_id, project_id, week' },
  { name: 'week_part_decisions', orderBy: 'id' },
  // After the entries it locks: an export of a locked instance imports whole.
  { name: 'lock_date', orderBy: 'id' },
];

export type Row = Record<string, unknown>;

/**
 * Opens an existing timetrack database read-only (export, check, backup): such a command
 * must never create or migrate the file it was pointed at.
 */
export function openExistingInstance(file: string): Db {
  if (!existsSync(file)) throw new CliError(`no database at ${file}`);
  refuseDirectory(file, 'a database file');
  return openReadOnlyChecked(file, 'not a timetrack database', schemaVersionOf);
}

/** The newest migration applied to a timetrack database. */
export function schemaVersionOf(db: Db): number {
  const known = db
    .prepare("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'schema_migrations')")
    .pluck()
    .get();
  if (known !== 1) throw new CliError(`${db.name} is not a timetrack database`);
  return Number(
    db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get(),
  );
}

/** The column names of a table, in declaration order. */
export function columnsOf(db: Db, table: string): string[] {
  return db
    .prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .pluck()
    .all(table) as string[];
}

/** Every row of a table in key order, streamed (keys in column order). */
export function iterateRows(db: Db, table: InstanceTable): IterableIterator<Row> {
  return db
    .prepare(`SELECT * FROM ${table.name} ORDER BY ${table.orderBy}`)
    .iterate() as IterableIterator<Row>;
}

/** The first instance table that holds a row, or undefined when the database is empty. */
export function firstNonEmptyTable(db: Db): string | undefined {
  return INSTANCE_TABLES.find(
    (t) => db.prepare(`SELECT EXISTS (SELECT 1 FROM ${t.name})`).pluck().get() === 1,
  )?.name;
}

export class RowShapeError extends Error {}

/**
 * Inserts rows given as {column: value} objects, ids included. A column the table lacks
 * is an error; a column the row lacks gets NULL (the column's constraints decide).
 */
export function createRowWriter(db: Db) {
  const writers = new Map<string, { columns: Set<string>; insert: (row: Row) => void }>();
  const writerFor = (table: string) => {
    let writer = writers.get(table);
    if (!writer) {
      // Table names may come from a file: only the fixed list ever reaches the SQL.
      if (!INSTANCE_TABLES.some((t) => t.name === table)) {
        throw new RowShapeError(`unknown table ${table}`);
      }
      const columns = columnsOf(db, table);
      const stmt = db.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
      );
      const blank = Object.fromEntries(columns.map((c) => [c, null]));
      writer = { columns: new Set(columns), insert: (row) => stmt.run({ ...blank, ...row }) };
      writers.set(table, writer);
    }
    return writer;
  };
  return (table: string, row: Row): void => {
    const writer = writerFor(table);
    for (const key of Object.keys(row)) {
      if (!writer.columns.has(key)) {
        throw new RowShapeError(`table ${table} has no column ${key}`);
      }
    }
    writer.insert(row);
  };
}
