// The generated database, cached under bench/data/ by everything that shapes it: size,
// seed, generator version and the text of the schema and the generator.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GENERATOR_VERSION, generateDataset, type Sidecar, sidecarPath } from './generate';
import { ROOT } from './target';

export const DATA_DIR = join(ROOT, 'bench/data');

function fingerprint(): string {
  const hash = createHash('sha256').update(String(GENERATOR_VERSION));
  const sqlDir = join(ROOT, 'sql');
  for (const f of readdirSync(sqlDir).sort()) hash.update(readFileSync(join(sqlDir, f)));
  hash.update(readFileSync(join(ROOT, 'bench/generate.ts')));
  return hash.digest('hex').slice(0, 10);
}

/**
 * The cached database for this size and seed, generated first if missing; `shape` asks
 * for another number of people and days of history than the bench set's 50 and 3 years.
 */
export function ensureDataset(
  times: number,
  seed: number,
  say: (line: string) => void,
  shape?: { users: number; days: number },
) {
  mkdirSync(DATA_DIR, { recursive: true });
  const shaped = shape ? `-u${shape.users}-d${shape.days}` : '';
  const file = join(DATA_DIR, `timetrack-${times}-s${seed}${shaped}-${fingerprint()}.db`);
  if (existsSync(file) && existsSync(sidecarPath(file))) {
    say(`data set: ${file} (cached)`);
  } else {
    say(`data set: generating ${times} time entries into ${file} ...`);
    const s = generateDataset({ file, times, seed, ...shape });
    say(`data set: generated in ${s.seconds} s`);
  }
  const sidecar = JSON.parse(readFileSync(sidecarPath(file), 'utf8')) as Sidecar;
  return { file, sidecar };
}

/**
 * Derived tables (kept by triggers, never exported): everything else is the instance's
 * plain data and its indexes. Issue 30's target: the file at most 1.5× the plain part.
 */
export const DERIVED_TABLES = [
  'time_user_rows',
  'project_slug_lists',
  'activity_sets',
  'project_json',
  'time_month_totals',
];

/** The bytes of the file's pages by plain and derived table (indexes with their table). */
export function databaseSizes(file: string): { plain: number; derived: number } {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT coalesce(m.tbl_name, d.name) AS tbl, sum(d.pgsize) AS bytes
        FROM dbstat d LEFT JOIN sqlite_schema m ON m.name = d.name GROUP BY tbl`)
      .all() as { tbl: string; bytes: number }[];
    let plain = 0;
    let derived = 0;
    for (const r of rows) {
      if (DERIVED_TABLES.includes(r.tbl)) derived += r.bytes;
      else plain += r.bytes;
    }
    return { plain, derived };
  } finally {
    db.close();
  }
}
