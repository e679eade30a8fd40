// The import rows (issue 31 §4): a generated Toggl Track detailed report of the bench's
// people, projects and activities, imported into a copy of the bench database by
// `timetrack admin import-from toggl` (the built executable), once as a dry run and once
// for real, timed, with the command's peak RSS sampled from /proc.
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createRng } from './prng';
import { sampleRss } from './rss';

export interface ImportRunResult {
  rows: number;
  dryRun: boolean;
  seconds: number;
  rowsPerSecond: number;
  created: number;
  peakRssMb: number;
  exitCode: number | null;
}

/** Issue 31's targets. */
export const IMPORT_ROWS_PER_S = 20_000;
export const DRY_RUN_ROWS_PER_S = 50_000;
export const IMPORT_RSS_LIMIT_MB = 200;

const q = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const pad = (n: number) => String(n).padStart(2, '0');
const clock = (s: number) =>
  `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;

/** Days the generated file spans. */
const DAYS = 2500;

/**
 * Writes `rows` Toggl rows of the database's live users, projects and activities (by
 * username, name and name: what a Toggl export of the same team would have), in 2020–2026,
 * in start order as Toggl's detailed report lists them: day by day, each day's rows by
 * their start time.
 */
export function writeTogglCsv(dbFile: string, file: string, rows: number, seed = 31): void {
  const db = new Database(dbFile, { readonly: true });
  const users = db
    .prepare('SELECT username FROM users WHERE deleted_at IS NULL')
    .pluck()
    .all() as string[];
  const projects = db
    .prepare('SELECT name FROM projects WHERE deleted_at IS NULL')
    .pluck()
    .all() as string[];
  const activities = db
    .prepare('SELECT name FROM activities WHERE deleted_at IS NULL')
    .pluck()
    .all() as string[];
  db.close();
  const rng = createRng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rng.next() * xs.length)] as T;
  const fd = openSync(file, 'w');
  let chunk =
    '\uFEFFUser,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)\n';
  const day0 = Date.UTC(2020, 0, 1);
  let i = 0;
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(day0 + d * 86_400_000).toISOString().slice(0, 10);
    const starts: number[] = [];
    for (const end = Math.floor(((d + 1) * rows) / DAYS); i + starts.length < end; ) {
      starts.push(7 * 3600 + Math.floor(rng.next() * 12 * 3600));
    }
    starts.sort((a, b) => a - b);
    for (const start of starts) {
      const duration = 300 + Math.floor(rng.next() * 4 * 3600);
      const end = Math.min(start + duration, 86_399);
      chunk +=
        `${pick(users)},,"Client, Inc.",${q(pick(projects))},${q(pick(activities))},` +
        `"Row ${i}, imported",Yes,${day},${clock(start)},${day},${clock(end)},${clock(duration)},,12.50\n`;
      i++;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
}

/** Runs `<command> admin import-from toggl <file> --db <db> --json [--dry-run]`, timed. */
export function measureImport(options: {
  command: string;
  args: string[];
  db: string;
  file: string;
  rows: number;
  dryRun: boolean;
}): Promise<ImportRunResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      options.command,
      [
        ...options.args,
        'admin',
        'import-from',
        'toggl',
        options.file,
        '--db',
        options.db,
        '--json',
        ...(options.dryRun ? ['--dry-run'] : []),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const rss = sampleRss(child.pid as number, 20);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const seconds = (performance.now() - started) / 1000;
      let created = 0;
      try {
        created = (JSON.parse(out) as { entries: { created: number } }).entries.created;
      } catch {
        // reported as an exit code ≠ 0 below
      }
      resolve({
        rows: options.rows,
        dryRun: options.dryRun,
        seconds,
        rowsPerSecond: options.rows / seconds,
        created,
        peakRssMb: rss.stop(),
        exitCode,
      });
    });
  });
}
