// Applies the ordered migrations of sql/ once each, each in its own transaction, and
// records them in schema_migrations. A database migrated by a newer timetrack is refused.
import { migrations as bundledMigrations, type Migration } from '../embedded';
import type { Db } from './open';

export class SchemaTooNewError extends Error {}

export function migrate(db: Db, migrations: Migration[] = bundledMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  );
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const newest = Math.max(0, ...applied);
  if (newest > known) {
    throw new SchemaTooNewError(
      `the database is at schema version ${newest}, newer than this timetrack knows (${known}); use a newer timetrack`,
    );
  }
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const done: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    const ran = db
      .transaction(() => {
        // Another process starting on the same new file may have applied it meanwhile.
        if (isApplied.get(m.version)) return false;
        db.exec(m.sql);
        record.run(m.version, m.name, Date.now());
        return true;
      })
      .immediate();
    if (ran) done.push(m.version);
  }
  return done;
}
