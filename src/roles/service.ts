// Organization roles: metadata about the organization, written by site managers and
// admins, hard-deleted only when nobody holds them (SPEC §4.5).
import * as v from 'valibot';
import { type Db, writeTransaction } from '../db/open';
import {
  authorizationFailure,
  badObject,
  notFound,
  requestFailure,
  slugsAlreadyExist,
} from '../errors';
import { parseObject, requiredText, slug } from '../http/validate';
import { type Actor, canWriteOrgRoles } from '../policy';
import { type RoleRow, type RoleStore, toRoleJson } from './store';

const createSchema = v.strictObject({ name: requiredText(255), slug: slug() });
const updateSchema = v.strictObject({
  name: v.optional(requiredText(255)),
  slug: v.optional(slug()),
});

export type RoleService = ReturnType<typeof createRoleService>;

export function createRoleService(db: Db, roles: RoleStore) {
  const find = (slug: string): RoleRow => {
    const row = roles.findBySlug(slug);
    if (!row) throw notFound('org-role');
    return row;
  };
  const assertCanWrite = (actor: Actor, action: string) => {
    if (!canWriteOrgRoles(actor)) throw authorizationFailure(actor.username, action);
  };
  /** Slug and name are each unique; `self` is the role being renamed. */
  const assertUnique = (slug: string, name: string, self?: number) => {
    const bySlug = roles.findBySlug(slug);
    if (bySlug && bySlug.id !== self) throw slugsAlreadyExist([slug]);
    const byName = roles.findByName(name);
    if (byName && byName.id !== self) throw badObject(`Org-role name ${name} already exists`);
  };

  return {
    get: (slug: string) => toRoleJson(find(slug)),

    create(actor: Actor, input: unknown) {
      const fields = parseObject(createSchema, input, 'org-role');
      assertCanWrite(actor, 'create org-roles');
      return writeTransaction(db, () => {
        assertUnique(fields.slug, fields.name);
        roles.insert(fields.slug, fields.name);
        return toRoleJson(find(fields.slug));
      });
    },

    update(actor: Actor, slug: string, input: unknown) {
      const current = find(slug);
      const fields = parseObject(updateSchema, input, 'org-role');
      assertCanWrite(actor, `update org-role ${current.slug}`);
      return writeTransaction(db, () => {
        // Re-read under the write lock so a concurrent rename of the other field stays.
        const latest = find(slug);
        const next = { slug: fields.slug ?? latest.slug, name: fields.name ?? latest.name };
        assertUnique(next.slug, next.name, latest.id);
        roles.update(latest.id, next.slug, next.name);
        return toRoleJson(find(next.slug));
      });
    },

    remove(actor: Actor, slug: string) {
      const current = find(slug);
      assertCanWrite(actor, `delete org-role ${current.slug}`);
      writeTransaction(db, () => {
        if (roles.isHeld(current.id)) throw requestFailure('org-role');
        roles.remove(current.id);
      });
    },

    /** Role ids for slugs; undefined when any slug names no role. */
    idsOf(slugs: readonly string[]): number[] | undefined {
      const ids: number[] = [];
      for (const s of slugs) {
        const row = roles.findBySlug(s);
        if (!row) return undefined;
        ids.push(row.id);
      }
      return ids;
    },
  };
}
