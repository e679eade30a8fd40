// Activities: listed for everyone, written by site managers and admins, revisioned on
// update, soft deleted (which releases the slug) unless a live time entry uses them
// (SPEC §3, §4.2, §5). Every path but restore finds a live activity by its slug; restore
// (issue 17) finds a deleted one by uuid, since deleting released its slug, and gives it
// its old slug back or a new one — an activity the old reference server deleted has no
// slug (json.ts NO_SLUG), so restoring it needs one.
import { type Db, writeTransaction } from '../db/open';
import { missingField, notFound, requestFailure, slugsAlreadyExist } from '../errors';
import type { Listing } from '../http/list';
import { booleanParam, bySlugParams, pagingParams } from '../http/query';
import { type Actor, authorize } from '../policy';
import { parseObject } from '../validate';
import { type LiveActivityRow, toActivityHistory, toActivityJson } from './json';
import { createActivitySchema, restoreActivitySchema, updateActivitySchema } from './schema';
import type { ActivityStore } from './store';

export type ActivityService = ReturnType<typeof createActivityService>;

export function createActivityService(deps: {
  db: Db;
  activities: ActivityStore;
  defaultLimit: number;
}) {
  const { db, activities } = deps;
  const write = <T>(fn: () => T): T => writeTransaction(db, fn);
  const find = (slug: string, withParents = false): LiveActivityRow => {
    const row = activities.findBySlug(slug, withParents);
    if (!row) throw notFound('activity');
    return row;
  };
  const assertSlugFree = (slug: string, self?: number) => {
    const holder = activities.idOf(slug);
    if (holder !== undefined && holder !== self) throw slugsAlreadyExist([slug]);
  };

  return {
    list(query: URLSearchParams): Listing {
      const filters = {
        includeDeleted: booleanParam(query, 'include_deleted'),
        includeRevisions: booleanParam(query, 'include_revisions'),
      };
      return {
        paging: pagingParams(query, deps.defaultLimit),
        open: () => activities.openList(filters),
      };
    },

    get: (slug: string, query: URLSearchParams) =>
      toActivityJson(find(slug, bySlugParams(query).withParents)),

    /**
     * GET /v0/activities/:uuid/history (issue 29): every revision with who made it and
     * when. Anyone may read activities (SPEC §3); a deleted one only with include_deleted,
     * as in lists.
     */
    history(uuid: string, query: URLSearchParams) {
      const includeDeleted = booleanParam(query, 'include_deleted');
      const row = activities.findHistory(uuid);
      if (!row || (row.deleted_at !== null && !includeDeleted)) throw notFound('activity');
      return toActivityHistory(row);
    },

    /** The id of the live activity with that slug, if any. */
    idOf: (slug: string) => activities.idOf(slug),

    create: (actor: Actor, input: unknown) =>
      write(() => {
        const fields = parseObject(createActivitySchema, input, 'activity');
        authorize(actor, { do: 'create activity' });
        assertSlugFree(fields.slug);
        activities.insert(fields.name, fields.slug, Date.now(), actor.id);
        return toActivityJson(find(fields.slug));
      }),

    update: (actor: Actor, slug: string, input: unknown) =>
      write(() => {
        const current = find(slug);
        const fields = parseObject(updateActivitySchema, input, 'activity');
        authorize(actor, { do: 'update activity', slug: current.slug });
        const nextSlug = fields.slug ?? current.slug;
        assertSlugFree(nextSlug, current.id);
        activities.revise(current.id, fields.name ?? current.name, nextSlug, Date.now(), actor.id);
        return toActivityJson(find(nextSlug));
      }),

    /**
     * Makes a deleted activity live again as a new revision, with the slug sent or the
     * one it had. A live activity is answered as it is (a retried restore succeeds).
     */
    restore: (actor: Actor, uuid: string, input: unknown) =>
      write(() => {
        const current = activities.findByUuid(uuid);
        if (!current) throw notFound('activity');
        const fields = parseObject(restoreActivitySchema, input, 'activity');
        authorize(actor, { do: 'restore activity', uuid });
        if (current.deleted_at === null) return toActivityJson(current);
        const slug = fields.slug ?? current.slug;
        if (slug === null) throw missingField('activity', 'slug');
        assertSlugFree(slug);
        activities.restore(current.id, slug, Date.now(), actor.id);
        return toActivityJson(find(slug));
      }),

    remove: (actor: Actor, slug: string) =>
      write(() => {
        const current = find(slug);
        authorize(actor, { do: 'delete activity', slug: current.slug });
        if (activities.isUsedByLiveTime(current.id)) throw requestFailure('activity');
        activities.softDelete(current.id, Date.now());
      }),
  };
}
