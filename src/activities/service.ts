// Activities: written by site managers and admins, revisioned on update, soft deleted
// (which releases the slug) unless a live time entry uses them (SPEC §3, §4.2, §5).
import { type Db, writeTransaction } from '../db/open';
import { isUniqueViolation } from '../db/unique';
import { authorizationFailure, notFound, requestFailure, slugsAlreadyExist } from '../errors';
import { parseObject } from '../http/validate';
import { type Actor, canWriteActivities } from '../policy';
import { createActivitySchema, updateActivitySchema } from './schema';
import { type ActivityRow, type ActivityStore, toActivityJson } from './store';

export type ActivityService = ReturnType<typeof createActivityService>;

export function createActivityService(db: Db, activities: ActivityStore) {
  const find = (slug: string, withParents = false): ActivityRow => {
    const row = activities.findBySlug(slug, withParents);
    if (!row) throw notFound('activity');
    return row;
  };
  const assertCanWrite = (actor: Actor, action: string) => {
    if (!canWriteActivities(actor)) throw authorizationFailure(actor.username, action);
  };
  /** Checked inside the write transaction; the unique index catches other processes. */
  const assertSlugFree = (slug: string, self?: number) => {
    const holder = activities.idOf(slug);
    if (holder !== undefined && holder !== self) throw slugsAlreadyExist([slug]);
  };
  const write = <T>(slug: string, fn: () => T): T => {
    try {
      return writeTransaction(db, fn);
    } catch (err) {
      if (isUniqueViolation(err)) throw slugsAlreadyExist([slug]);
      throw err;
    }
  };

  return {
    get: (slug: string, withParents: boolean) => toActivityJson(find(slug, withParents)),

    create(actor: Actor, input: unknown) {
      const fields = parseObject(createActivitySchema, input, 'activity');
      assertCanWrite(actor, 'create activities');
      return write(fields.slug, () => {
        assertSlugFree(fields.slug);
        activities.insert(fields.name, fields.slug, Date.now(), actor.id);
        return toActivityJson(find(fields.slug));
      });
    },

    update(actor: Actor, slug: string, input: unknown) {
      const current = find(slug);
      const fields = parseObject(updateActivitySchema, input, 'activity');
      assertCanWrite(actor, `update activity ${current.slug}`);
      const nextSlug = fields.slug ?? current.slug;
      return write(nextSlug, () => {
        // Re-read under the write lock: a concurrent update or delete may have won.
        const latest = find(current.slug);
        assertSlugFree(nextSlug, latest.id);
        const name = fields.name ?? latest.name;
        activities.revise(latest.id, name, nextSlug, Date.now(), actor.id);
        return toActivityJson(find(nextSlug));
      });
    },

    remove(actor: Actor, slug: string) {
      const current = find(slug);
      assertCanWrite(actor, `delete activity ${current.slug}`);
      writeTransaction(db, () => {
        if (activities.isUsedByLiveTime(current.id)) throw requestFailure('activity');
        if (!activities.softDelete(current.id, Date.now())) throw notFound('activity');
      });
    },
  };
}
