// A fingerprint of everything a database file holds: every row of every table, so a
// test can prove that a refused request wrote nothing (SPEC §7).
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/**
 * SHA-256 over every table's rows in a stable order. `except` names tables whose
 * changes are expected (e.g. login_failures after a wrong password).
 */
export function databaseChecksum(file: string, except: readonly string[] = []): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    const hash = createHash('sha256');
    for (const table of tables) {
      if (except.includes(table)) continue;
      const rows = db.prepare(`SELECT * FROM "${table}"`).raw().all();
      const lines = rows.map((row) => JSON.stringify(row)).sort();
      hash.update(`${table}\n${lines.join('\n')}\n`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

/** How many rows each table holds (to explain a checksum mismatch). */
export function rowCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}
