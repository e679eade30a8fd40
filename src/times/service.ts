// Time entries: created by project members for themselves (admins for anyone), updated
// by their owner and admins with every change kept as a revision, soft-deleted, and
// restored by updating them while their project is live (SPEC §3, §4.3, §5).
import { randomUUID } from 'node:crypto';
import type { ActivityStore } from '../activities/store';
import { type Db, writeTransaction } from '../db/open';
import { authorizationFailure, invalidForeignKey, missingField, notFound } from '../errors';
import { parseObject } from '../http/validate';
import {
  type Actor,
  canCreateTime,
  canDeleteTime,
  canUpdateTime,
  canViewTime,
  mayOwnTimeIn,
} from '../policy';
import type { ProjectStore } from '../projects/store';
import type { UserStore } from '../users/store';
import { createTimeSchema, type UpdateTimeInput, updateTimeSchema } from './schema';
import { type StoredTime, type TimeStore, timeJsonText } from './store';

export interface TimeReadOptions {
  includeDeleted: boolean;
  includeRevisions: boolean;
}

export type TimeService = ReturnType<typeof createTimeService>;

export interface TimeServiceDeps {
  db: Db;
  times: TimeStore;
  projects: ProjectStore;
  activities: ActivityStore;
  users: UserStore;
}

export function createTimeService({ db, times, projects, activities, users }: TimeServiceDeps) {
  /** The time as the API shows it, read back inside the write that made it. */
  const show = (uuid: string, actor: Actor) => {
    const row = times.findByUuid(uuid, actor.id);
    if (!row) throw notFound('time');
    return timeJsonText(row);
  };

  /** The user a time is for: active and not deleted (Invalid Foreign Key otherwise). */
  const ownerNamed = (username: string) => {
    const user = users.findActor(username);
    if (!user) throw invalidForeignKey('time', 'user');
    return user;
  };

  const liveProject = (slug: string) => {
    const project = times.findLiveProject(slug);
    if (!project) throw invalidForeignKey('time', 'project');
    return project;
  };

  /** Ids of the live activities named; duplicates collapse. */
  const activityIds = (slugs: readonly string[]) =>
    [...new Set(slugs)].map((slug) => {
      const id = activities.idOf(slug);
      if (id === undefined) throw invalidForeignKey('time', 'activity');
      return id;
    });

  /**
   * The user, project and activities a time will have after an update (kind 3 for any
   * that does not exist). A deleted time being restored must end up with a live project
   * and live activities: the ones it kept, or new ones sent.
   */
  const references = (current: StoredTime, fields: UpdateTimeInput) => {
    const restoring = current.deleted_at !== null;
    const owner = fields.user === undefined ? undefined : ownerNamed(fields.user);
    let projectId = current.project_id;
    if (fields.project !== undefined) projectId = liveProject(fields.project).id;
    else if (restoring && !times.isProjectLive(projectId)) {
      throw invalidForeignKey('time', 'project');
    }
    const ids = fields.activities === undefined ? undefined : activityIds(fields.activities);
    if (!ids && restoring && !times.areActivitiesLive(JSON.parse(current.activity_ids))) {
      throw invalidForeignKey('time', 'activity');
    }
    return { owner, ownerId: owner?.id ?? current.user_id, projectId, ids };
  };

  return {
    get(actor: Actor, uuid: string, options: TimeReadOptions) {
      const row = times.findByUuid(uuid, actor.id, options.includeRevisions);
      if (!row || (row.deleted_at !== null && !options.includeDeleted)) throw notFound('time');
      const role = {
        member: row.viewer_member === 1,
        spectator: row.viewer_spectator === 1,
        manager: row.viewer_manager === 1,
      };
      if (!canViewTime(actor, { ownerId: row.user_id, role })) {
        throw authorizationFailure(actor.username, `view time ${row.uuid}`);
      }
      return timeJsonText(row);
    },

    create(actor: Actor, input: unknown) {
      const fields = parseObject(createTimeSchema, input, 'time');
      return writeTransaction(db, () => {
        const owner = ownerNamed(fields.user);
        const project = liveProject(fields.project);
        let ids: number[];
        if (fields.activities && fields.activities.length > 0) ids = activityIds(fields.activities);
        else if (project.default_activity_id !== null) ids = [project.default_activity_id];
        else throw missingField('time', 'activities');
        const role = projects.roleOf(project.id, owner.id);
        if (!canCreateTime(actor, owner.id, role)) {
          const where = mayOwnTimeIn(role) ? '' : ` in project ${fields.project}`;
          throw authorizationFailure(
            actor.username,
            `create time entries for ${owner.username}${where}`,
          );
        }
        const uuid = randomUUID();
        times.insert(
          {
            uuid,
            duration: fields.duration,
            user_id: owner.id,
            project_id: project.id,
            date_worked: fields.date_worked,
            issue_uri: fields.issue_uri ?? null,
            notes: fields.notes ?? null,
            created_at: Date.now(),
            changed_by: actor.id,
          },
          ids,
        );
        return show(uuid, actor);
      });
    },

    /** Updates a time, live or deleted: updating a deleted time restores it. */
    update(actor: Actor, uuid: string, input: unknown) {
      return writeTransaction(db, () => {
        const current = times.findByUuid(uuid, actor.id);
        if (!current) throw notFound('time');
        const fields = parseObject(updateTimeSchema, input, 'time');
        const { owner, ownerId, projectId, ids } = references(current, fields);
        const changesUser = ownerId !== current.user_id;
        if (!canUpdateTime(actor, current.user_id, changesUser)) {
          throw authorizationFailure(actor.username, `update time ${current.uuid}`);
        }
        if (
          (changesUser || projectId !== current.project_id) &&
          !mayOwnTimeIn(projects.roleOf(projectId, ownerId))
        ) {
          // The names as the time shows them now (its JSON), only for this message.
          const shown = JSON.parse(current.json) as { user: string; project: string[] };
          const who = owner?.username ?? shown.user;
          const slug = fields.project ?? shown.project[0];
          throw authorizationFailure(
            actor.username,
            `move time ${current.uuid} to ${who} in project ${slug}`,
          );
        }
        times.update(
          {
            id: current.id,
            duration: fields.duration ?? current.duration,
            user_id: ownerId,
            project_id: projectId,
            date_worked: fields.date_worked ?? current.date_worked,
            issue_uri: fields.issue_uri === undefined ? current.issue_uri : fields.issue_uri,
            notes: fields.notes === undefined ? current.notes : fields.notes,
            updated_at: Date.now(),
            changed_by: actor.id,
          },
          ids,
        );
        return show(current.uuid, actor);
      });
    },

    remove(actor: Actor, uuid: string) {
      writeTransaction(db, () => {
        const current = times.findByUuid(uuid, actor.id);
        if (!current || current.deleted_at !== null) throw notFound('time');
        if (!canDeleteTime(actor, current.user_id)) {
          throw authorizationFailure(actor.username, `delete time ${current.uuid}`);
        }
        times.softDelete(current.id, Date.now());
      });
    },
  };
}
