// `timetrack migrate-from-timesync-node <old.sqlite3>` (SPEC §10): copies a database of
// the old reference server into a new, empty timetrack database in one transaction,
// keeping every uuid, revision, date, slug, permission and bcrypt hash. Old rows that
// cannot be represented are skipped and named in the summary, never silently dropped.
import { writeTransaction } from '../db/open';
import { CliError, openForCommand } from './cli';
import { assertEmpty } from './import';
import { createRowWriter, type Row } from './instance-tables';
import type { Report } from './timesync-node-chains';
import {
  copyActivities,
  copyPermissions,
  copyProjects,
  copyTimes,
  copyUsers,
} from './timesync-node-copy';
import { openTimesyncNodeDatabase, type TimesyncNodeStore } from './timesync-node-store';

export function migrateFromTimesyncNodeCommand(opts: { from: string; db: string }): string {
  const old = openTimesyncNodeDatabase(opts.from); // refuses a foreign file before we create ours
  try {
    const db = openForCommand(opts.db);
    try {
      assertEmpty(db, opts.db);
      const report = writeTransaction(db, () => {
        assertEmpty(db, opts.db); // again under the write lock
        return copyInstance(old, createRowWriter(db));
      });
      return summary(opts, report);
    } catch (err) {
      if (typeof (err as { code?: unknown }).code === 'string' && !(err instanceof CliError)) {
        throw new CliError(`nothing was written: ${(err as Error).message}`);
      }
      throw err;
    } finally {
      db.close();
    }
  } finally {
    old.close();
  }
}

function copyInstance(old: TimesyncNodeStore, insert: (table: string, row: Row) => void) {
  const report: Report = { counts: new Map(), withoutPassword: [], skipped: [], notes: [] };
  const write = (table: string, row: Row) => {
    insert(table, row);
    report.counts.set(table, (report.counts.get(table) ?? 0) + 1);
  };
  const users = copyUsers(old, write, report);
  const activities = copyActivities(old, write, report);
  const projects = copyProjects(old, write, report, activities.byUuid);
  copyPermissions(old, write, report, projects.byRow, users);
  copyTimes(old, write, report, {
    users,
    projects: projects.byUuid,
    activities: activities.byUuid,
  });
  return report;
}

const SUMMARY_TABLES = [
  'users',
  'activities',
  'activity_revisions',
  'projects',
  'project_slugs',
  'project_revisions',
  'project_users',
  'times',
  'time_activities',
  'time_revisions',
];

function summary(opts: { from: string; db: string }, report: Report): string {
  const lines = [`Migrated ${opts.from} into ${opts.db}:`];
  for (const table of SUMMARY_TABLES) {
    lines.push(`  ${table.padEnd(20)}${String(report.counts.get(table) ?? 0).padStart(8)}`);
  }
  if (report.withoutPassword.length > 0) {
    lines.push(
      `Users without a password (the old one was not a bcrypt hash; set one with \`timetrack admin set-password <username>\`): ${report.withoutPassword.join(', ')}`,
    );
  }
  const list = (title: string, items: string[]) => {
    if (items.length > 0)
      lines.push(`${title} (${items.length}):`, ...items.map((s) => `  - ${s}`));
  };
  list('Skipped', report.skipped);
  list('Notes', report.notes);
  if (report.skipped.length === 0) lines.push('Nothing was skipped.');
  return lines.join('\n');
}
