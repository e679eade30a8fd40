// SQL of reports: time entries grouped and summed by SQLite, on the indexes the list of
// GET /times uses. The WHERE clause (filters and visibility) is the list's own
// (times/store.ts timeWhere), so a report counts exactly the entries the list shows.
import { hasSlugSql } from '../activities/store';
import { inSnapshot, type ReaderPool } from '../db/readers';
import { type TextStream, type TextStreams, textHere } from '../db/text-streams';
import { projectSlugsSql } from '../projects/store';
import type { TimeListFilters } from '../times/store';
import { timeWhere } from '../times/store';
import { usernameSql } from '../users/store';
import type { Grouping } from './json';
import { splitByMonth } from './months';
import { openReportText, type ReportRequest } from './text';

interface GroupSql {
  /** What rows `r` are grouped by: entries (times t, `ga` = time_activities) or sums (d). */
  key: (r: string) => string;
  /** The row's columns, from the group's key `k`. */
  shown: (k: string) => string;
  /** What the rows are sorted by, from `k`. */
  order: (k: string) => string;
  /** Which groups are rows at all, from `k` (every one when absent). */
  kept?: (k: string) => string;
}

const GROUPS: Record<Grouping, GroupSql> = {
  project: {
    key: (r) => `${r}.project_id`,
    shown: (k) =>
      `${projectSlugsSql(k)} AS project, (SELECT name FROM projects WHERE id = ${k}) AS project_name`,
    // By the project's first slug, as times show it (a deleted project keeps its slugs).
    order: (k) =>
      `(SELECT slug FROM project_slugs WHERE project_id = ${k} ORDER BY position LIMIT 1), ${k}`,
  },
  activity: {
    key: () => 'ga.activity_id',
    shown: (k) => `(SELECT slug FROM activities WHERE id = ${k}) AS activity`,
    order: (k) => `activity, ${k}`,
    // An activity the old reference server deleted has no slug (NO_SLUG), and times do
    // not show it (times/json-sql.ts): an entry counts under the activities it shows,
    // so one that shows none is in `total` only. Its group is dropped after grouping,
    // one lookup per group rather than per entry.
    kept: (k) => hasSlugSql(`(SELECT slug FROM activities WHERE id = ${k})`),
  },
  user: {
    key: (r) => `${r}.user_id`,
    // user_name for the CSV only: the JSON row keeps its shape (src/shapes/report.ts).
    shown: (k) =>
      `${usernameSql(k)} AS user, (SELECT display_name FROM users WHERE id = ${k}) AS user_name`,
    order: () => 'user',
  },
  day: { key: (r) => `${r}.date_worked`, shown: (k) => `${k} AS day`, order: (k) => k },
  // ISO 8601 week-numbering year and week (2021-01-03 is in 2020-W53). 0000-01-01 and
  // 02 are in week 52 of year -1, which SQLite writes `-001-W52`: shown as ISO 8601's
  // expanded year, `-0001-W52` (it sorts first either way).
  week: {
    key: (r) => `strftime('%G-W%V', ${r}.date_worked)`,
    shown: (k) => `iif(${k} LIKE '-%', '-0' || substr(${k}, 2), ${k}) AS week`,
    order: (k) => k,
  },
  month: {
    key: (r) => `substr(${r}.date_worked, 1, 7)`,
    shown: (k) => `${k} AS month`,
    order: (k) => k,
  },
  // The status of the entry's week part (issue 32): entries only (`t`), never sums.
  status: {
    key: (r) => `coalesce((SELECT wp.status FROM week_parts wp WHERE wp.user_id = ${r}.user_id
      AND wp.project_id = ${r}.project_id AND wp.week = strftime('%G-W%V', ${r}.date_worked)),
      'open')`,
    shown: (k) => `${k} AS status`,
    order: (k) => k,
  },
};

/**
 * The columns everyone's entries are summed by first, per day (and project), when the
 * groupings allow it; else undefined. times_date is ordered by (date_worked, project_id,
 * …), so SQLite sums a range of it in index order, with no sort, and the outer query
 * groups those per-day rows (~200 a day) instead of every entry: sorting a year's
 * ~330,000 entries in a temporary B-tree was most of that report's time. Not with users
 * (a day's users and projects are nearly as many rows as its entries) nor activities
 * (they are not in the index).
 */
function dayColumns(groupBy: readonly Grouping[]): string | undefined {
  if (groupBy.includes('user') || groupBy.includes('activity') || groupBy.includes('status')) {
    return undefined;
  }
  return groupBy.includes('project') ? 't.date_worked, t.project_id' : 't.date_worked';
}

/** What the per-month totals (sql/006) can be grouped by: they hold no day nor activity. */
const MONTHLY: readonly Grouping[] = ['project', 'user', 'month'];

/**
 * Everyone's entries as rows of (date_worked, project_id, user_id, duration, entries)
 * from the per-month totals of sql/006 for the whole months of the range (date_worked
 * is then the month's first day) and from times_date for the partial months at its
 * edges; undefined when the totals cannot answer (no whole month in the range, a day,
 * week or activity grouping, an activity filter). The edges go through timeWhere like
 * any report, with their own dates.
 */
function monthTotalsSource(f: TimeListFilters, groupBy: readonly Grouping[]) {
  // The totals know no week part's status (issue 32) nor the entries' notes: those filters
  // count the entries.
  if (f.activityIds.length > 0 || f.status !== undefined || f.notesContains !== undefined) {
    return undefined;
  }
  if (!groupBy.every((g) => MONTHLY.includes(g))) return undefined;
  const split =
    f.start !== undefined && f.end !== undefined ? splitByMonth(f.start, f.end) : undefined;
  if (!split) return undefined;
  const plus = (column: string) =>
    f.includeDeleted ? `m.${column} + m.deleted_${column}` : `m.${column}`;
  const parts = [
    `SELECT m.month || '-01' AS date_worked, m.project_id, m.user_id,
      ${plus('duration')} AS duration, ${plus('entries')} AS entries
    FROM time_month_totals m WHERE m.month >= ? AND m.month <= ? AND ${plus('entries')} > 0`,
  ];
  const params: unknown[] = [split.months.first, split.months.last];
  for (const edge of [split.head, split.tail]) {
    if (!edge) continue;
    const { clause, params: edgeParams } = timeWhere({ ...f, ...edge });
    parts.push(`SELECT t.date_worked, t.project_id, t.user_id, sum(t.duration) AS duration,
        count(*) AS entries
      FROM times t INDEXED BY times_date ${clause}
      GROUP BY t.date_worked, t.project_id, t.user_id`);
    params.push(...edgeParams);
  }
  return { from: parts.join(' UNION ALL '), params };
}

/**
 * The report statements for these filters and groupings: the groups (inner query: ids
 * and date keys only, grouped on the filters' index; outer: names and order), and the
 * total, which counts every entry once (no join to its activities). The inner query
 * reads only columns that times_user_date and times_date cover (sql/004), so one user's
 * month and a year of everyone are index range reads with no table lookup per entry;
 * everyone's whole months come from their per-month totals (sql/006).
 */
export function reportQuery(f: TimeListFilters, groupBy: readonly Grouping[]) {
  const where = timeWhere(f);
  const { clause, params } = where;
  // Everyone's entries over dates: the date range of times_date, not a guess of the planner.
  const everyone = f.viewer.seesAll && f.userIds.length === 0 && f.projectIds.length === 0;
  const from = everyone ? 'times t INDEXED BY times_date' : where.from;
  const keys = groupBy.map((g, i) => ({ g, k: `g.k${i}` }));
  const select = (r: string) =>
    `SELECT ${keys.map(({ g }, i) => `${GROUPS[g].key(r)} AS k${i}`).join(', ')}, sum(${r}.duration) AS duration`;
  const groups = `GROUP BY ${keys.map((_, i) => `k${i}`).join(', ')}`;
  const months = everyone ? monthTotalsSource(f, groupBy) : undefined;
  const days = everyone ? dayColumns(groupBy) : undefined;
  const join = groupBy.includes('activity')
    ? 'CROSS JOIN time_activities ga ON ga.time_id = t.id'
    : '';
  // Rows of sums (per month or day) are `d`, entries `t`.
  let inner: string;
  let innerParams = params;
  if (months) {
    inner = `${select('d')}, sum(d.entries) AS entries FROM (${months.from}) d ${groups}`;
    innerParams = months.params;
  } else if (days) {
    inner = `${select('d')}, sum(d.entries) AS entries
    FROM (SELECT ${days}, sum(t.duration) AS duration, count(*) AS entries
      FROM ${from} ${clause} GROUP BY ${days}) d ${groups}`;
  } else {
    inner = `${select('t')}, count(*) AS entries FROM ${from} ${join} ${clause} ${groups}`;
  }
  const kept = keys.flatMap(({ g, k }) => GROUPS[g].kept?.(k) ?? []);
  const rowsSql = `SELECT ${keys.map(({ g, k }) => GROUPS[g].shown(k)).join(', ')}, g.duration,
      g.entries
    FROM (${inner}) g ${kept.length > 0 ? `WHERE ${kept.join(' AND ')}` : ''}
    ORDER BY ${keys.map(({ g, k }) => GROUPS[g].order(k)).join(', ')}`;
  const totalSql = `SELECT coalesce(sum(t.duration), 0) AS duration, count(*) AS entries
    FROM ${from} ${clause}`;
  // What the grouping reads: per-month totals and the edges' entries, or entries (once
  // per activity when grouped by activity), counted no further than a last parameter.
  const readSql = months
    ? `SELECT count(*) FROM (SELECT 1 FROM (${months.from}) LIMIT ?)`
    : `SELECT count(*) FROM (SELECT 1 FROM ${from} ${join} ${clause} LIMIT ?)`;
  return { rowsSql, rowsParams: innerParams, totalSql, params, readSql, readParams: innerParams };
}

/** The per-month totals (sql/006) as the entries make them now. */
const FRESH_MONTH_TOTALS = `SELECT substr(date_worked, 1, 7) AS month, project_id, user_id,
    coalesce(sum(duration) FILTER (WHERE deleted_at IS NULL), 0) AS duration,
    count(*) FILTER (WHERE deleted_at IS NULL) AS entries,
    coalesce(sum(duration) FILTER (WHERE deleted_at IS NOT NULL), 0) AS deleted_duration,
    count(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted_entries
  FROM times GROUP BY 1, 2, 3`;
const KEPT_MONTH_TOTALS = `SELECT month, project_id, user_id, duration, entries, deleted_duration,
    deleted_entries
  FROM time_month_totals WHERE entries <> 0 OR deleted_entries <> 0 OR duration <> 0
    OR deleted_duration <> 0`;

/** (month, project id, user id) whose kept totals differ from their entries: `admin check`. */
export const WRONG_MONTH_TOTALS_SQL = `SELECT month, project_id, user_id
  FROM (${KEPT_MONTH_TOTALS} EXCEPT ${FRESH_MONTH_TOTALS})
  UNION SELECT month, project_id, user_id FROM (${FRESH_MONTH_TOTALS} EXCEPT ${KEPT_MONTH_TOTALS})
  ORDER BY 1, 2, 3`;

export type ReportStore = ReturnType<typeof createReportStore>;

/**
 * What a report made on the event loop may cost: at most this many rows read (entries, or
 * per-month totals) and at most HERE_MAX_GROUPS groups answered. In-process on the
 * 1,000,000-entry set a year of everyone by project and month (~7,300 totals read, 2,400
 * groups) takes ~10 ms (docs/benchmarks.md), one user's month ~0.1 ms, so a report within
 * both holds the event loop ~20 ms at most. Anything larger (three years of everyone by
 * day, user and activity: ~260,000 rows read, ~270,000 groups, ~2 s) is made on the report
 * worker (db/text-streams.ts) and streamed.
 */
export const HERE_MAX_READ = 10_000;
export const HERE_MAX_GROUPS = 5_000;

/** A report's statements: what its body is made from, and how to count what it reads. */
export interface ReportPlan {
  request: ReportRequest;
  readSql: string;
  readParams: unknown[];
  /** The most groups the report can have, given how many users, projects and activities there are. */
  groupsBound: (sizes: TableSizes) => number;
}

/** How many rows users, projects and activities have (deleted ones too). */
interface TableSizes {
  users: number;
  projects: number;
  activities: number;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
const monthNumber = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));

/**
 * The most groups a report can have: the product, over its groupings, of how many keys
 * each can take (days, weeks and months of the range; the users and projects filtered
 * on, else every one there is; every activity).
 */
function groupsBound(
  f: TimeListFilters & { start: string; end: string },
  groupBy: readonly Grouping[],
) {
  const days = dayNumber(f.end) - dayNumber(f.start) + 1;
  const keys: Record<Grouping, (sizes: TableSizes) => number> = {
    day: () => days,
    week: () => Math.floor(days / 7) + 2,
    month: () => monthNumber(f.end) - monthNumber(f.start) + 1,
    user: (sizes) => f.userIds.length || sizes.users,
    project: (sizes) => f.projectIds.length || sizes.projects,
    activity: (sizes) => sizes.activities,
    status: () => 4,
  };
  return (sizes: TableSizes) => groupBy.reduce((n, g) => n * keys[g](sizes), 1);
}

const TABLE_SIZES_SQL = `SELECT (SELECT count(*) FROM users) AS users,
  (SELECT count(*) FROM projects) AS projects, (SELECT count(*) FROM activities) AS activities`;

export function createReportStore(
  readers: ReaderPool,
  /** Large reports: made on the report worker (db/text-streams.ts); default: here. */
  streams?: TextStreams<ReportRequest>,
) {
  return {
    plan(
      filters: TimeListFilters & { start: string; end: string },
      groupBy: Grouping[],
      csv: boolean,
    ): ReportPlan {
      const q = reportQuery(filters, groupBy);
      return {
        request: {
          start: filters.start,
          end: filters.end,
          groupBy,
          csv,
          rowsSql: q.rowsSql,
          rowsParams: q.rowsParams,
          totalSql: groupBy.includes('activity') ? q.totalSql : undefined,
          totalParams: q.params,
        },
        readSql: q.readSql,
        readParams: q.readParams,
        groupsBound: groupsBound(filters, groupBy),
      };
    },
    /**
     * The whole body, made here in one snapshot, when the report is small: it reads at
     * most HERE_MAX_READ rows (counted first, in the same snapshot, by a statement that
     * stops there: ~1 ms at most) and has at most HERE_MAX_GROUPS groups (each group has
     * a row read; beyond that, bounded by what its groupings can take). Else undefined:
     * it is to be streamed.
     */
    readWhole(plan: ReportPlan): string | undefined {
      return inSnapshot(readers, (reader) => {
        const read = reader
          .sql(plan.readSql)
          .pluck()
          .get(...plan.readParams, HERE_MAX_READ + 1) as number;
        if (read > HERE_MAX_READ) return undefined;
        if (read > HERE_MAX_GROUPS) {
          const sizes = reader.sql(TABLE_SIZES_SQL).get() as TableSizes;
          if (plan.groupsBound(sizes) > HERE_MAX_GROUPS) return undefined;
        }
        return openReportText(reader.sql, plan.request).read(Number.POSITIVE_INFINITY).text;
      });
    },
    /** The body a piece at a time, made on the report worker (here when it cannot run). */
    stream(request: ReportRequest): TextStream {
      return streams ? streams.open(request) : textHere(readers, openReportText, request);
    },
  };
}
