// A database of the old reference server (SPEC §10), built from test/fixtures/timesync-node.sql.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const FIXTURE = join(__dirname, '..', 'fixtures', 'timesync-node.sql');

/** Writes the fixture's old-server database into `dir` and returns its path. */
export function createTimesyncNodeDatabase(dir: string, name = 'timesync.sqlite3'): string {
  const file = join(dir, name);
  const db = new Database(file);
  try {
    db.exec(readFileSync(FIXTURE, 'utf8'));
  } finally {
    db.close();
  }
  return file;
}
