// The query parameters of GET /times (SPEC §6) → list filters. Every malformed or
// nonexistent value is Bad Query Value; unknown parameters are ignored.

import type { App } from '../app';
import { isCalendarDate } from '../dates';
import { badQueryValue } from '../errors';
import { booleanParam, firstParam } from '../http/query';
import { isSlug, isUsername } from '../identifiers';
import { type Actor, seesAllTimes } from '../policy';
import type { TimeListFilters } from './store';

/** Every value of a repeatable parameter resolved to an id, or kind 11 for the first bad one. */
function idsParam(
  query: URLSearchParams,
  key: string,
  resolve: (value: string) => number | undefined,
): number[] {
  return query.getAll(key).map((value) => {
    const id = resolve(value);
    if (id === undefined) throw badQueryValue(key, value);
    return id;
  });
}

export function timeListFilters(
  actor: Actor,
  query: URLSearchParams,
  app: Pick<App, 'userStore' | 'timeStore' | 'activityStore'>,
): TimeListFilters {
  const includeDeleted = booleanParam(query, 'include_deleted');
  const includeRevisions = booleanParam(query, 'include_revisions');
  const userIds = idsParam(query, 'user', (s) =>
    isUsername(s) ? app.userStore.idOf(s) : undefined,
  );
  const projectIds = idsParam(query, 'project', (s) =>
    isSlug(s) ? app.timeStore.findLiveProject(s)?.id : undefined,
  );
  const activityIds = idsParam(query, 'activity', (s) =>
    isSlug(s) ? app.activityStore.idOf(s) : undefined,
  );
  const start = firstParam(query, 'start', isCalendarDate);
  const end = firstParam(query, 'end', isCalendarDate);
  if (start !== undefined && end !== undefined && start > end) throw badQueryValue('end', end);
  return {
    viewer: { id: actor.id, seesAll: seesAllTimes(actor) },
    userIds,
    projectIds,
    activityIds,
    start,
    end,
    includeDeleted,
    includeRevisions,
  };
}
