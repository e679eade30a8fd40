// SQL of reports: time entries grouped and summed by SQLite, on the indexes the list of
// GET /times uses. The WHERE clause (filters and visibility) is the list's own
// (times/store.ts timeWhere), so a report counts exactly the entries the list shows.
import { inSnapshot, type ReaderPool } from '../db/readers';
import { projectSlugsSql } from '../projects/store';
import type { TimeListFilters } from '../times/store';
import { timeWhere } from '../times/store';
import { usernameSql } from '../users/store';
import type { Grouping, ReportRow, Totals } from './json';

interface GroupSql {
  /** What entries are grouped by (FROM times t, and `ga` = time_activities). */
  key: string;
  /** The row's columns, from the group's key `k`. */
  shown: (k: string) => string;
  /** What the rows are sorted by, from `k`. */
  order: (k: string) => string;
}

const GROUPS: Record<Grouping, GroupSql> = {
  project: {
    key: 't.project_id',
    shown: (k) =>
      `${projectSlugsSql(k)} AS project, (SELECT name FROM projects WHERE id = ${k}) AS project_name`,
    // By the project's first slug, as times show it (a deleted project keeps its slugs).
    order: (k) =>
      `(SELECT slug FROM project_slugs WHERE project_id = ${k} ORDER BY position LIMIT 1), ${k}`,
  },
  activity: {
    key: 'ga.activity_id',
    shown: (k) => `(SELECT slug FROM activities WHERE id = ${k}) AS activity`,
    order: (k) => `activity, ${k}`,
  },
  user: {
    key: 't.user_id',
    shown: (k) => `${usernameSql(k)} AS user`,
    order: () => 'user',
  },
  day: { key: 't.date_worked', shown: (k) => `${k} AS day`, order: (k) => k },
  // ISO 8601 week-numbering year and week (2021-01-03 is in 2020-W53).
  week: {
    key: `strftime('%G-W%V', t.date_worked)`,
    shown: (k) => `${k} AS week`,
    order: (k) => k,
  },
  month: { key: 'substr(t.date_worked, 1, 7)', shown: (k) => `${k} AS month`, order: (k) => k },
};

/**
 * The report statements for these filters and groupings: the groups (inner query: ids
 * and date keys only, grouped on the filters' index; outer: names and order), and the
 * total, which counts every entry once (no join to its activities). The inner query
 * reads only columns that times_user_date and times_date cover (sql/004), so one user's
 * month and a year of everyone are index range reads with no table lookup per entry.
 */
export function reportQuery(f: TimeListFilters, groupBy: readonly Grouping[]) {
  const where = timeWhere(f);
  const { clause, params } = where;
  // Everyone's entries over dates: the date range of times_date, not a guess of the planner.
  const everyone = f.viewer.seesAll && f.userIds.length === 0 && f.projectIds.length === 0;
  const from = everyone ? 'times t INDEXED BY times_date' : where.from;
  const keys = groupBy.map((g, i) => ({ g, k: `g.k${i}`, key: `${GROUPS[g].key} AS k${i}` }));
  const join = groupBy.includes('activity')
    ? 'CROSS JOIN time_activities ga ON ga.time_id = t.id'
    : '';
  const inner = `SELECT ${keys.map((k) => k.key).join(', ')}, sum(t.duration) AS duration,
      count(*) AS entries
    FROM ${from} ${join} ${clause}
    GROUP BY ${keys.map((_, i) => `k${i}`).join(', ')}`;
  const rowsSql = `SELECT ${keys.map(({ g, k }) => GROUPS[g].shown(k)).join(', ')}, g.duration,
      g.entries
    FROM (${inner}) g
    ORDER BY ${keys.map(({ g, k }) => GROUPS[g].order(k)).join(', ')}`;
  const totalSql = `SELECT coalesce(sum(t.duration), 0) AS duration, count(*) AS entries
    FROM ${from} ${clause}`;
  return { rowsSql, totalSql, params };
}

export type ReportStore = ReturnType<typeof createReportStore>;

export function createReportStore(readers: ReaderPool) {
  return {
    /**
     * The groups and the total, in one snapshot. Without an activity grouping every entry
     * is in exactly one group, so the total is the sum of the groups (no second pass).
     */
    report(filters: TimeListFilters, groupBy: readonly Grouping[]) {
      const q = reportQuery(filters, groupBy);
      return inSnapshot(readers, (reader) => {
        const rows = reader.sql(q.rowsSql).all(...q.params) as ReportRow[];
        const total: Totals = groupBy.includes('activity')
          ? (reader.sql(q.totalSql).get(...q.params) as Totals)
          : rows.reduce(
              (t, r) => ({ duration: t.duration + r.duration, entries: t.entries + r.entries }),
              {
                duration: 0,
                entries: 0,
              },
            );
        return { rows, total };
      });
    },
  };
}
