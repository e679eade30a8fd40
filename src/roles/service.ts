// Organization roles: metadata about the organization, listed for everyone, written by
// site managers and admins, hard-deleted only when nobody holds them (SPEC §4.5).
import { type Db, writeTransaction } from '../db/open';
import { badObject, notFound, requestFailure, slugsAlreadyExist } from '../errors';
import type { Listing } from '../http/list';
import { pagingParams } from '../http/query';
import { type Actor, authorize } from '../policy';
import { parseObject } from '../validate';
import { type RoleRow, toRoleJson } from './json';
import { createRoleSchema, updateRoleSchema } from './schema';
import type { RoleStore } from './store';

export type RoleService = ReturnType<typeof createRoleService>;

export function createRoleService(deps: { db: Db; roles: RoleStore; defaultLimit: number }) {
  const { db, roles } = deps;
  const find = (slug: string): RoleRow => {
    const row = roles.findBySlug(slug);
    if (!row) throw notFound('org-role');
    return row;
  };
  /** Slug and name are each unique; `self` is the role being renamed. */
  const assertUnique = (slug: string, name: string, self?: number) => {
    const bySlug = roles.findBySlug(slug);
    if (bySlug && bySlug.id !== self) throw slugsAlreadyExist([slug]);
    const byName = roles.findByName(name);
    if (byName && byName.id !== self) throw badObject(`Org-role name ${name} already exists`);
  };

  return {
    list: (query: URLSearchParams): Listing => ({
      paging: pagingParams(query, deps.defaultLimit),
      open: roles.openList,
    }),

    get: (slug: string) => toRoleJson(find(slug)),

    create: (actor: Actor, input: unknown) =>
      writeTransaction(db, () => {
        const fields = parseObject(createRoleSchema, input, 'org-role');
        authorize(actor, { do: 'create org-role' });
        assertUnique(fields.slug, fields.name);
        roles.insert(fields.slug, fields.name);
        return toRoleJson(find(fields.slug));
      }),

    update: (actor: Actor, slug: string, input: unknown) =>
      writeTransaction(db, () => {
        const current = find(slug);
        const fields = parseObject(updateRoleSchema, input, 'org-role');
        authorize(actor, { do: 'update org-role', slug: current.slug });
        const next = { slug: fields.slug ?? current.slug, name: fields.name ?? current.name };
        assertUnique(next.slug, next.name, current.id);
        roles.update(current.id, next.slug, next.name);
        return toRoleJson(find(next.slug));
      }),

    remove: (actor: Actor, slug: string) =>
      writeTransaction(db, () => {
        const current = find(slug);
        authorize(actor, { do: 'delete org-role', slug: current.slug });
        if (roles.isHeld(current.id)) throw requestFailure('org-role');
        roles.remove(current.id);
      }),

    /** Role ids for slugs (duplicates collapse); undefined when any slug names no role. */
    idsOf(slugs: readonly string[]): number[] | undefined {
      const ids: number[] = [];
      for (const s of new Set(slugs)) {
        const row = roles.findBySlug(s);
        if (!row) return undefined;
        ids.push(row.id);
      }
      return ids;
    },

    /** Whether a role has this slug (the `role` filter of GET /users). */
    exists: (slug: string) => roles.findBySlug(slug) !== undefined,
  };
}
