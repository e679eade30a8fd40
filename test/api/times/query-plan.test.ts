// The common time queries are index lookups (issue 5): EXPLAIN QUERY PLAN on the exact
// SQL the store builds, on a fresh database and on one with data and statistics.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { migrate } from '../../../src/db/migrate';
import { type Db, openDatabase } from '../../../src/db/open';
import { reportQuery } from '../../../src/reports/store';
import {
  LOCK_STATE_SQL,
  TIME_BY_UUID_SQL,
  TIME_VIEW_SQL,
  type TimeListFilters,
  timeListQuery,
} from '../../../src/times/store';
import { tempDir } from '../../helpers/server';

const ADMIN_VIEW = { id: 1, seesAll: true };
const PLAIN_VIEW = { id: 3, seesAll: false };
const NO_FILTERS: TimeListFilters = {
  viewer: ADMIN_VIEW,
  userIds: [],
  projectIds: [],
  activityIds: [],
  includeDeleted: false,
  includeRevisions: false,
};
const MONTH = { start: '2024-01-01', end: '2024-01-31' };

/** Rows of numbers 1..n, for filling tables in SQL. */
const series = (n: number) =>
  `(WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${n}) SELECT n FROM g)`;

function freshDb(): Db {
  const db = openDatabase(join(tempDir(), 'plan.db'));
  migrate(db);
  return db;
}

/** 50 users, 200 projects, 30 activities, 20,000 times over three years, then ANALYZE. */
function filledDb(): Db {
  const db = freshDb();
  db.exec(`INSERT INTO users (username, created_at) SELECT 'u' || n, 0 FROM ${series(50)};
    INSERT INTO projects (uuid, revision, name, created_at)
      SELECT 'p' || n, 1, 'p', 0 FROM ${series(200)};
    INSERT INTO project_users SELECT n, 3, 0, 1, 0 FROM ${series(20)};
    INSERT INTO activities (uuid, revision, name, slug, created_at)
      SELECT 'a' || n, 1, 'a', 'a' || n, 0 FROM ${series(30)};
    INSERT INTO times (uuid, revision, duration, user_id, project_id, date_worked, created_at)
      SELECT lower(hex(randomblob(16))), 1, 60, 1 + n % 50, 1 + n % 200,
        date('2022-01-01', '+' || (n % 1095) || ' days'), n FROM ${series(20_000)};
    INSERT INTO time_activities SELECT id, 1 + id % 30 FROM times;
    ANALYZE;`);
  return db;
}

function plan(db: Db, sql: string, params: readonly unknown[]): string {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail).join('\n');
}

/** The plans of a list's count, its page query and its whole body (a short list's). */
function listPlans(db: Db, filters: TimeListFilters) {
  const q = timeListQuery(filters);
  const countParams = q.countParams ?? q.params;
  return {
    count: plan(db, q.countSql, countParams),
    page: plan(db, q.pageSql, [...q.params, -1, 0]),
    body: plan(db, q.whole.bodySql, [1000, ...q.params]),
  };
}

for (const [name, open] of [
  ['a fresh database', freshDb],
  ['a database with data and statistics', filledDb],
] as const) {
  describe(`time query plans on ${name}`, () => {
    const db = open();

    it("reads one user's month as a range of time_user_rows, for any viewer", () => {
      for (const viewer of [ADMIN_VIEW, PLAIN_VIEW]) {
        const plans = listPlans(db, { ...NO_FILTERS, viewer, userIds: [3], ...MONTH });
        for (const p of [plans.page, plans.body]) {
          // A calendar month is one range of the key, already in list order: no sort.
          assert.match(p, /SEARCH t USING PRIMARY KEY \(user_id=\? AND month=\?\)/);
          assert.doesNotMatch(p, /SCAN t\b|TEMP B-TREE FOR ORDER BY/);
          // Not the index of times and a table row per listed entry.
          assert.doesNotMatch(p, /times_user_date|SCAN (lu|lp|ls)\b/);
        }
        // A page joins the names it borrows, one lookup by primary key each in small
        // tables; the whole body has json_rows look them up once per list.
        assert.match(plans.page, /SEARCH lp USING INTEGER PRIMARY KEY/);
        assert.match(plans.page, /SEARCH ls USING INTEGER PRIMARY KEY/);
        // …and reads the rows straight from the table, in key order: nothing between the
        // range and the aggregate that could reorder them (a subquery, a join, a sort).
        assert.match(plans.body, /^SEARCH t USING PRIMARY KEY \(user_id=\? AND month=\?\)$/m);
        assert.doesNotMatch(plans.body, /CO-ROUTINE|MATERIALIZE|TEMP B-TREE|SEARCH (lu|lp|ls)\b/);
        // A long list's count (the whole body counts itself as it reads) is taken in the
        // narrow index that covers what it tests, not the wide rows.
        assert.match(
          plans.count,
          /SEARCH t USING COVERING INDEX times_user_date \(user_id=\? AND date_worked>\? AND date_worked<\?\)/,
        );
        assert.doesNotMatch(plans.count, /SCAN t\b|time_user_rows/);
      }
    });

    it("reads one user's several months as the range of those months", () => {
      const plans = listPlans(db, {
        ...NO_FILTERS,
        viewer: ADMIN_VIEW,
        userIds: [3],
        start: '2024-01-15',
        end: '2024-03-10',
      });
      for (const p of [plans.page, plans.body]) {
        assert.match(p, /SEARCH t USING PRIMARY KEY \(user_id=\? AND month>\? AND month<\?\)/);
      }
    });

    it("reads one project's month through times_project_date, for any viewer", () => {
      for (const viewer of [ADMIN_VIEW, PLAIN_VIEW]) {
        const plans = listPlans(db, { ...NO_FILTERS, viewer, projectIds: [5], ...MONTH });
        for (const p of Object.values(plans)) {
          assert.match(
            p,
            /SEARCH t USING (COVERING )?INDEX times_project_date \(project_id=\? AND date_worked>\? AND date_worked<\?\)/,
          );
          assert.doesNotMatch(p, /SCAN t\b/);
        }
      }
    });

    it("checks a time write's lock (issue 32) with primary-key lookups alone", () => {
      const p = plan(db, LOCK_STATE_SQL, ['2024-01-03', 3, 5]);
      assert.match(p, /SEARCH lock_date USING INTEGER PRIMARY KEY/);
      assert.match(p, /SEARCH wp USING PRIMARY KEY \(user_id=\? AND project_id=\? AND week=\?\)/);
      assert.doesNotMatch(p, /SCAN (lock_date|wp)\b/);
    });

    it('filters by week part status with a primary-key lookup per entry (issue 32)', () => {
      const plans = listPlans(db, { ...NO_FILTERS, userIds: [3], ...MONTH, status: 'approved' });
      for (const p of [plans.page, plans.body]) {
        assert.match(p, /SEARCH t USING PRIMARY KEY \(user_id=\? AND month=\?\)/);
        // An equality on every column of a key: the part's primary key or week_parts_status.
        assert.match(
          p,
          /SEARCH wp (EXISTS )?USING (PRIMARY KEY \(user_id=\? AND project_id=\? AND week=\?\)|COVERING INDEX week_parts_status \(status=\? AND week=\? AND user_id=\? AND project_id=\?\))/,
        );
        assert.doesNotMatch(p, /SCAN wp\b/);
      }
    });

    it('streams the whole list in times_order without sorting', () => {
      const { page } = listPlans(db, NO_FILTERS);
      assert.match(page, /SCAN t USING (COVERING )?INDEX times_order/);
      assert.doesNotMatch(page, /TEMP B-TREE FOR ORDER BY/);
    });

    it("sums one user's month from times_user_date alone, for any viewer", () => {
      for (const viewer of [ADMIN_VIEW, PLAIN_VIEW]) {
        const q = reportQuery({ ...NO_FILTERS, viewer, userIds: [3], ...MONTH }, ['day']);
        for (const [sql, params] of [
          [q.rowsSql, q.rowsParams],
          [q.totalSql, q.params],
        ] as const) {
          assert.match(
            plan(db, sql, params),
            /SEARCH t USING COVERING INDEX times_user_date \(user_id=\? AND date_worked>\? AND date_worked<\?\)/,
          );
        }
      }
    });

    it("sums a year of everyone's whole months from their totals, not from the entries", () => {
      const year = { start: '2024-01-01', end: '2024-12-31' };
      const q = reportQuery({ ...NO_FILTERS, ...year }, ['project', 'month']);
      const p = plan(db, q.rowsSql, q.rowsParams);
      assert.match(p, /SEARCH m USING PRIMARY KEY \(month>\? AND month<\?\)/);
      assert.doesNotMatch(p, /\b(SCAN|SEARCH) t\b/);
      assert.match(
        plan(db, q.totalSql, q.params),
        /SEARCH t USING COVERING INDEX times_date \(date_worked>\? AND date_worked<\?\)/,
      );
    });

    it('sums the partial months at the edges of a range from times_date alone', () => {
      const range = { start: '2024-01-15', end: '2024-12-20' };
      const q = reportQuery({ ...NO_FILTERS, ...range }, ['project', 'month']);
      const p = plan(db, q.rowsSql, q.rowsParams);
      assert.match(p, /SEARCH m USING PRIMARY KEY \(month>\? AND month<\?\)/);
      const edges = p.match(
        /SEARCH t USING COVERING INDEX times_date \(date_worked>\? AND date_worked<\?\)/g,
      );
      assert.equal(edges?.length, 2, p);
      assert.doesNotMatch(p, /SCAN t\b/);
    });

    it('sums a year of everyone by day from times_date in index order', () => {
      const year = { start: '2024-01-01', end: '2024-12-31' };
      const q = reportQuery({ ...NO_FILTERS, ...year }, ['project', 'day']);
      const p = plan(db, q.rowsSql, q.rowsParams);
      assert.match(
        p,
        /SEARCH t USING COVERING INDEX times_date \(date_worked>\? AND date_worked<\?\)/,
      );
      assert.doesNotMatch(p, /SCAN t\b/);
    });

    it('finds one time by its uuid through the unique index', () => {
      const statements: [string, unknown[]][] = [
        [TIME_BY_UUID_SQL, [1, 'x']],
        [TIME_VIEW_SQL, ['x']],
      ];
      for (const [sql, params] of statements) {
        const p = plan(db, sql, params);
        assert.match(p, /SEARCH t USING INDEX sqlite_autoindex_times_1 \(uuid=\?\)/);
        // Its row of time_user_rows by that row's whole key.
        assert.match(
          p,
          /SEARCH l USING PRIMARY KEY \(user_id=\? AND month=\? AND changed_at=\? AND uuid=\?\)/,
        );
        assert.doesNotMatch(p, /SCAN (t|l)\b/);
      }
    });
  });
}
