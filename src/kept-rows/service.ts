// Kept timesheet rows (issue 34, docs/api-kept-rows.md): the rows a person added to a
// week of the web app's timesheet and has not filled yet, so that they stay across
// reloads and devices. GET answers them; PUT replaces the week's list. A row with an
// entry that week is neither shown nor stored: once filled, it is a row of its entries.
// Each person keeps their own; admins anyone's.
import { weekDates } from '../dates';
import { type Db, writeTransaction } from '../db/open';
import { invalidForeignKey, notFound } from '../errors';
import { type Actor, authorize } from '../policy';
import type { KeptRows } from '../shapes/kept-rows';
import { activityIdsText } from '../times/store';
import { parseObject } from '../validate';
import { keptRowsSchema } from './schema';
import type { KeptRowIds, KeptRowStore } from './store';

export type KeptRowService = ReturnType<typeof createKeptRowService>;

/** The object name of Bad Object and Invalid Foreign Key texts. */
const OBJECT = 'timesheet';

export function createKeptRowService(deps: {
  db: Db;
  rows: KeptRowStore;
  /** Any user's id by username. */
  userIdOf: (username: string) => number | undefined;
  /** A live project's id by any of its slugs. */
  projectIdOf: (slug: string) => number | undefined;
  /** A live activity's id by slug. */
  activityIdOf: (slug: string) => number | undefined;
}) {
  const { db, rows } = deps;

  const userNamed = (username: string) => {
    const id = deps.userIdOf(username);
    if (id === undefined) throw notFound('user');
    return id;
  };

  const shown = (userId: number, week: string): KeptRows => {
    const { first, last } = weekDates(week);
    return {
      rows: rows.list(userId, week, first, last).map((r) => ({
        project: JSON.parse(r.project) as string[],
        activities: JSON.parse(r.activities) as string[],
      })),
    };
  };

  return {
    /** GET /v0/weeks/:username/:week/rows */
    get(actor: Actor, username: string, week: string): KeptRows {
      const ownerId = userNamed(username);
      authorize(actor, { do: 'read kept rows', username, week, ownerId });
      return shown(ownerId, week);
    },

    /**
     * PUT /v0/weeks/:username/:week/rows: the list sent replaces the week's, duplicates
     * and rows that have an entry left out. Checks in SPEC §3's order: the user (1), the
     * body (4), its projects and activities (3), then the permission (9).
     */
    put(actor: Actor, username: string, week: string, input: unknown): KeptRows {
      return writeTransaction(db, () => {
        const ownerId = userNamed(username);
        const sent = parseObject(keptRowsSchema, input, OBJECT).rows;
        const resolved = sent.map((row): KeptRowIds => {
          const projectId = deps.projectIdOf(row.project);
          if (projectId === undefined) throw invalidForeignKey(OBJECT, 'project');
          const ids = row.activities.map((slug) => {
            const id = deps.activityIdOf(slug);
            if (id === undefined) throw invalidForeignKey(OBJECT, 'activity');
            return id;
          });
          const activityIds = activityIdsText([...new Set(ids)]);
          return { projectId, activityIds };
        });
        authorize(actor, { do: 'keep rows', username, week, ownerId });
        const { first, last } = weekDates(week);
        const seen = new Set<string>();
        const kept = resolved.filter((row) => {
          const key = `${row.projectId} ${row.activityIds}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        rows.replace(ownerId, week, first, last, kept);
        return shown(ownerId, week);
      });
    },
  };
}
