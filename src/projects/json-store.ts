// A project's stored API JSON (sql/008, project_json), so that GET /projects/:slug sends
// it as it is; store.ts reads it, and computes it (COMPUTED_PROJECT_JSON). The stored
// text is never stale: the triggers of sql/008 make it NULL in the transaction of every
// change that alters it, whoever writes. A NULL is computed by the reader until it is
// filled again: before the COMMIT of each of the server's own writes (fillAll, a
// beforeCommit step of db/open.ts), or by the background filler (db/json-filler.ts)
// after other processes'.
import type { Db } from '../db/open';
import { COMPUTED_PROJECT_JSON } from './store';

/** Stored JSON that differs from a fresh computation: `admin check` lists these uuids. */
export const STALE_PROJECT_JSON_SQL = `SELECT p.uuid FROM project_json j
  JOIN projects p ON p.id = j.project_id
  WHERE j.json IS NOT NULL AND j.json IS NOT ${COMPUTED_PROJECT_JSON} ORDER BY p.id`;

export type ProjectJsonStore = ReturnType<typeof createProjectJsonStore>;

export function createProjectJsonStore(db: Db) {
  const computed = `(SELECT ${COMPUTED_PROJECT_JSON} FROM projects p WHERE p.id = j.project_id)`;
  const staleIds = db
    .prepare('SELECT project_id FROM project_json WHERE json IS NULL LIMIT ?')
    .pluck();
  const fillSome = db.prepare(`UPDATE project_json AS j SET json = ${computed}
    WHERE j.project_id IN (SELECT value FROM json_each(?))`);
  const fillEvery = db.prepare(`UPDATE project_json AS j SET json = ${computed}
    WHERE j.json IS NULL`);
  const anyStale = db
    .prepare('SELECT EXISTS (SELECT 1 FROM project_json WHERE json IS NULL)')
    .pluck();
  return {
    /** What the background filler calls this JSON in its log line, and what it counts. */
    name: 'project',
    counted: 'projects',

    /** Whether any project's JSON is to be computed (one probe of a partial index). */
    hasStale: () => anyStale.get() === 1,

    /** Computes up to `limit` stale projects' JSON; answers how many it wrote. */
    fill: (limit: number): number => fillSome.run(JSON.stringify(staleIds.all(limit))).changes,

    /**
     * Computes every stale project's JSON: the last step of each of the server's write
     * transactions (a probe of a partial index when none is, as nearly always).
     */
    fillAll(): void {
      if (anyStale.get() === 1) fillEvery.run();
    },
  };
}
