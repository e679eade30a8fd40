// Projects: created by site managers and admins, updated (with their users map) and
// deleted also by their own managers; revisioned on update; soft deleted, which releases
// their slugs, unless a live time entry uses them (SPEC §3, §4.1, §5).
import type { ActivityStore } from '../activities/store';
import { type Db, writeTransaction } from '../db/open';
import { isUniqueViolation } from '../db/unique';
import {
  authorizationFailure,
  invalidForeignKey,
  notFound,
  requestFailure,
  slugsAlreadyExist,
} from '../errors';
import { parseObject } from '../http/validate';
import { type Actor, canCreateProject, canManageProject } from '../policy';
import type { UserStore } from '../users/store';
import { type ProjectRow, toProjectJson } from './json';
import {
  createProjectSchema,
  type ProjectInput,
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

export function createProjectService(
  db: Db,
  projects: ProjectStore,
  users: UserStore,
  activities: ActivityStore,
) {
  const find = (slug: string, withParents = false): ProjectRow => {
    const row = projects.findBySlug(slug, withParents);
    if (!row) throw notFound('project');
    return row;
  };

  /** Existing users (deleted ones too: usernames are never reused) and live activities. */
  const resolve = (input: ProjectInput): References => {
    const refs: References = {};
    if (input.owner !== undefined) {
      refs.owner_id = input.owner === null ? null : users.idOf(input.owner);
      if (refs.owner_id === undefined) throw invalidForeignKey('project', 'owner');
    }
    if (input.default_activity !== undefined) {
      const slug = input.default_activity;
      refs.default_activity_id = slug === null ? null : activities.idOf(slug);
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
      const userId = users.idOf(username);
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

  /** Checked inside the write transaction; the unique index catches other processes. */
  const assertSlugsFree = (slugs: readonly string[], self?: number) => {
    const taken = projects.takenSlugs(slugs, self);
    if (taken.length > 0) throw slugsAlreadyExist(taken);
  };
  const write = <T>(slugs: readonly string[], self: number | undefined, fn: () => T): T => {
    try {
      return writeTransaction(db, fn);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const taken = projects.takenSlugs(slugs, self);
      throw slugsAlreadyExist(taken.length > 0 ? taken : slugs);
    }
  };
  const assertCanManage = (actor: Actor, project: ProjectRow, action: string) => {
    if (!canManageProject(actor, projects.roleOf(project.id, actor.id))) {
      throw authorizationFailure(actor.username, action);
    }
  };

  return {
    get: (slug: string, withParents: boolean) => toProjectJson(find(slug, withParents)),

    create(actor: Actor, input: unknown) {
      const fields = parseObject(createProjectSchema, input, 'project');
      resolve(fields); // kind 3 before kind 9 (SPEC §3 order)
      if (!canCreateProject(actor)) throw authorizationFailure(actor.username, 'create projects');
      const slugs = [...new Set(fields.slugs)];
      return write(slugs, undefined, () => {
        assertSlugsFree(slugs);
        // Again under the lock: another process may have deleted the default activity.
        const refs = resolve(fields);
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
      });
    },

    update(actor: Actor, slug: string, input: unknown) {
      const current = find(slug);
      const fields = parseObject(updateProjectSchema, input, 'project');
      resolve(fields); // kind 3 before kind 9 (SPEC §3 order)
      assertCanManage(actor, current, `update project ${slug}`);
      const slugs = fields.slugs && [...new Set(fields.slugs)];
      return write(slugs ?? [], current.id, () => {
        // Re-read under the write lock: a concurrent update or delete may have won.
        const latest = find(slug);
        const refs = resolve(fields);
        if (slugs) assertSlugsFree(slugs, latest.id);
        const next: ProjectFields = {
          name: fields.name ?? latest.name,
          uri: fields.uri === undefined ? latest.uri : fields.uri,
          owner_id: refs.owner_id === undefined ? latest.owner_id : refs.owner_id,
          default_activity_id:
            refs.default_activity_id === undefined
              ? latest.default_activity_id
              : refs.default_activity_id,
        };
        projects.revise(latest.id, next, Date.now(), actor.id);
        if (slugs) projects.replaceSlugs(latest.id, slugs);
        if (refs.users) projects.replaceUsers(latest.id, refs.users);
        return toProjectJson(find(slugs?.[0] ?? slug));
      });
    },

    remove(actor: Actor, slug: string) {
      const current = find(slug);
      assertCanManage(actor, current, `delete project ${slug}`);
      writeTransaction(db, () => {
        if (projects.isUsedByLiveTime(current.id)) throw requestFailure('project');
        if (!projects.softDelete(current.id, Date.now())) throw notFound('project');
      });
    },
  };
}
