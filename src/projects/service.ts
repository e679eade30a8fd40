// Projects: listed for everyone, created by site managers and admins, updated (with their
// users map) and deleted also by their own managers; revisioned on update; soft deleted,
// which releases their slugs, unless a live time entry uses them (SPEC §3, §4.1, §5);
// restored by uuid with their old slugs or new ones (issue 17).
import { type Db, writeTransaction } from '../db/open';
import {
  invalidForeignKey,
  missingField,
  notFound,
  requestFailure,
  slugsAlreadyExist,
} from '../errors';
import type { Listing } from '../http/list';
import { booleanParam, bySlugParams, listParam, pagingParams } from '../http/query';
import { isUsername } from '../identifiers';
import { JsonText } from '../json-text';
import { type Actor, authorize } from '../policy';
import { parseObject } from '../validate';
import { type ProjectRow, slugsOf, toProjectHistory, toProjectJson } from './json';
import {
  createProjectSchema,
  type ProjectInput,
  restoreProjectSchema,
  type UsersInput,
  updateProjectSchema,
} from './schema';
import type { ProjectFields, ProjectStore, ProjectUserEntry } from './store';

/** The references of a project input resolved to ids; undefined = not sent. */
interface References {
  owner_id?: number | null;
  default_activity_id?: number | null;
  users?: ProjectUserEntry[];
}

export type ProjectService = ReturnType<typeof createProjectService>;

export interface ProjectServiceDeps {
  db: Db;
  projects: ProjectStore;
  /** Any user's id by username (deleted ones too: usernames are never reused). */
  userIdOf: (username: string) => number | undefined;
  /** A live activity's id by slug. */
  activityIdOf: (slug: string) => number | undefined;
  defaultLimit: number;
}

export function createProjectService(deps: ProjectServiceDeps) {
  const { db, projects, userIdOf, activityIdOf } = deps;
  const write = <T>(fn: () => T): T => writeTransaction(db, fn);
  const find = (slug: string, withParents = false): ProjectRow => {
    const row = projects.findBySlug(slug, withParents);
    if (!row) throw notFound('project');
    return row;
  };

  /** Existing users and live activities, or kind 3. */
  const resolve = (input: ProjectInput): References => {
    const refs: References = {};
    if (input.owner !== undefined) {
      refs.owner_id = input.owner === null ? null : userIdOf(input.owner);
      if (refs.owner_id === undefined) throw invalidForeignKey('project', 'owner');
    }
    if (input.default_activity !== undefined) {
      const slug = input.default_activity;
      refs.default_activity_id = slug === null ? null : activityIdOf(slug);
      if (refs.default_activity_id === undefined) {
        throw invalidForeignKey('project', 'default_activity');
      }
    }
    if (input.users !== undefined) refs.users = userEntries(input.users ?? {});
    return refs;
  };

  /** The users map as rows: missing flags are false, all-false entries are dropped. */
  const userEntries = (map: UsersInput): ProjectUserEntry[] => {
    const byId = new Map<number, ProjectUserEntry>();
    for (const [username, flags] of Object.entries(map)) {
      const userId = userIdOf(username);
      if (userId === undefined) throw invalidForeignKey('project', 'user');
      // The same user spelled in two cases: the flags add up.
      const seen = byId.get(userId);
      byId.set(userId, {
        userId,
        member: (flags.member ?? false) || (seen?.member ?? false),
        spectator: (flags.spectator ?? false) || (seen?.spectator ?? false),
        manager: (flags.manager ?? false) || (seen?.manager ?? false),
      });
    }
    return [...byId.values()].filter((e) => e.member || e.spectator || e.manager);
  };

  const assertSlugsFree = (slugs: readonly string[], self?: number) => {
    const taken = projects.takenSlugs(slugs, self);
    if (taken.length > 0) throw slugsAlreadyExist(taken);
  };

  return {
    list(query: URLSearchParams): Listing {
      const userIds = listParam(query, 'user', (s) => (isUsername(s) ? userIdOf(s) : undefined));
      const filters = {
        includeDeleted: booleanParam(query, 'include_deleted'),
        includeRevisions: booleanParam(query, 'include_revisions'),
        userIds,
      };
      return {
        paging: pagingParams(query, deps.defaultLimit),
        open: () => projects.openList(filters),
      };
    },

    get(slug: string, query: URLSearchParams) {
      if (bySlugParams(query).withParents) return toProjectJson(find(slug, true));
      const json = projects.findJsonBySlug(slug);
      if (json === undefined) throw notFound('project');
      return new JsonText(json);
    },

    /**
     * GET /v0/projects/:uuid/history (issue 29): every revision with who made it and
     * when. Anyone may read projects (SPEC §3); a deleted one only with include_deleted,
     * as in lists.
     */
    history(uuid: string, query: URLSearchParams) {
      const includeDeleted = booleanParam(query, 'include_deleted');
      const row = projects.findHistory(uuid);
      if (!row || (row.deleted_at !== null && !includeDeleted)) throw notFound('project');
      return toProjectHistory(row);
    },

    create: (actor: Actor, input: unknown) =>
      write(() => {
        const fields = parseObject(createProjectSchema, input, 'project');
        const refs = resolve(fields); // kind 3 before kind 9 (SPEC §3 order)
        authorize(actor, { do: 'create project' });
        const slugs = [...new Set(fields.slugs)];
        assertSlugsFree(slugs);
        const stored: ProjectFields = {
          name: fields.name,
          uri: fields.uri ?? null,
          owner_id: refs.owner_id ?? null,
          default_activity_id: refs.default_activity_id ?? null,
        };
        const id = projects.insert(stored, Date.now(), actor.id);
        projects.replaceSlugs(id, slugs);
        projects.replaceUsers(id, refs.users ?? []);
        return toProjectJson(find(slugs[0] as string));
      }),

    update: (actor: Actor, slug: string, input: unknown) =>
      write(() => {
        const current = find(slug);
        const fields = parseObject(updateProjectSchema, input, 'project');
        const refs = resolve(fields); // kind 3 before kind 9 (SPEC §3 order)
        const role = projects.roleOf(current.id, actor.id);
        authorize(actor, { do: 'update project', slug, role });
        const slugs = fields.slugs && [...new Set(fields.slugs)];
        if (slugs) assertSlugsFree(slugs, current.id);
        const next: ProjectFields = {
          name: fields.name ?? current.name,
          uri: fields.uri === undefined ? current.uri : fields.uri,
          owner_id: refs.owner_id === undefined ? current.owner_id : refs.owner_id,
          default_activity_id:
            refs.default_activity_id === undefined
              ? current.default_activity_id
              : refs.default_activity_id,
        };
        projects.revise(current.id, next, Date.now(), actor.id);
        if (slugs && JSON.stringify(slugs) !== JSON.stringify(slugsOf(current))) {
          projects.replaceSlugs(current.id, slugs);
        }
        if (refs.users) projects.replaceUsers(current.id, refs.users);
        return toProjectJson(find(slugs?.[0] ?? slug));
      }),

    /**
     * Makes a deleted project live again as a new revision, with the slugs sent or those
     * it had; its users map was kept. A live project is answered as it is (a retried
     * restore succeeds).
     */
    restore: (actor: Actor, uuid: string, input: unknown) =>
      write(() => {
        const current = projects.findByUuid(uuid);
        if (!current) throw notFound('project');
        const fields = parseObject(restoreProjectSchema, input, 'project');
        const role = projects.roleOf(current.id, actor.id);
        authorize(actor, { do: 'restore project', uuid, role });
        if (current.deleted_at === null) return toProjectJson(current);
        const kept = slugsOf(current);
        const slugs: string[] = fields.slugs ? [...new Set(fields.slugs)] : kept;
        // A project the old reference server deleted may have kept no slug.
        if (slugs.length === 0) throw missingField('project', 'slugs');
        assertSlugsFree(slugs, current.id);
        projects.restore(current.id, Date.now(), actor.id);
        projects.replaceSlugs(current.id, slugs); // live again
        return toProjectJson(find(slugs[0] as string));
      }),

    remove: (actor: Actor, slug: string) =>
      write(() => {
        const current = find(slug);
        const role = projects.roleOf(current.id, actor.id);
        authorize(actor, { do: 'delete project', slug, role });
        if (projects.isUsedByLiveTime(current.id)) throw requestFailure('project');
        projects.softDelete(current.id, Date.now());
      }),
  };
}
