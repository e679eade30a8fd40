// Instance settings kept in the database (the signing key), so the file alone is the
// whole state of an instance.
import { randomBytes } from 'node:crypto';
import type { Db } from './open';

export function getSetting(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  return row?.value;
}

/** The stored signing key, generated (64 random bytes) on first use. */
export function ensureSecretKey(db: Db): string {
  db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(
    'secret_key',
    randomBytes(64).toString('base64'),
  );
  const key = getSetting(db, 'secret_key');
  if (!key) throw new Error('secret_key setting missing after insert');
  return key;
}
