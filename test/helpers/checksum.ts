// A fingerprint of everything a database file holds: every row of every table, so a
// test can prove that a refused request wrote nothing (SPEC §7).
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * SHA-256 over every table's rows in a stable order. `except` names tables whose
 * changes are expected (e.g. login_failures after a wrong password).
 */
export function databaseChecksum(file: string, except: readonly string[] = []): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fingerprint(db, except);
  } finally {
    db.close();
  }
}

/**
 * databaseChecksum for a suite that takes thousands of them: one read-only connection
 * kept open until close(), and a fingerprint taken again only once the file or its WAL
 * (inode, size, modification time) or SQLite's data_version (which every commit of
 * another connection changes) is not as it was. Opening the file and reading every table
 * before and after each request was most of test/http/hostile-input.test.ts's time.
 */
export function checksumWatcher(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const inode = statSync(file).ino;
  let state = '';
  const sums = new Map<string, string>();
  return {
    checksum(except: readonly string[] = []): string {
      if (statSync(file).ino !== inode) throw new Error(`${file} was replaced`);
      const version = db.pragma('data_version', { simple: true }) as number;
      const now = `${stamp(file)} ${stamp(`${file}-wal`)} ${version}`;
      if (now !== state) {
        state = now;
        sums.clear();
      }
      const key = except.join('\n');
      let sum = sums.get(key);
      if (sum === undefined) {
        sum = fingerprint(db, except);
        sums.set(key, sum);
      }
      return sum;
    },
    close: () => db.close(),
  };
}

/** A file's inode, size and modification time, or `none`. */
function stamp(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/** Every table's rows, hashed in one read transaction (one snapshot of the file). */
function fingerprint(db: Database.Database, except: readonly string[]): string {
  return db.transaction(() => {
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
  })();
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
