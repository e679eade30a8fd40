// Time entries: created by project members for themselves (admins for anyone), updated
// by their owner and admins with every change kept as a revision, soft-deleted, and
// restored by updating them while their project is live (SPEC §3, §4.3, §5).
import { randomUUID } from 'node:crypto';
import { isCalendarDate } from '../dates';
import { type Db, writeTransaction } from '../db/open';
import {
  badQueryValue,
  invalidForeignKey,
  lockDateLocked,
  missingField,
  notFound,
  weekPartLocked,
} from '../errors';
import type { Listing } from '../http/list';
import { booleanParam, firstParam, listParam, pagingParams } from '../http/query';
import { isSlug, isUsername } from '../identifiers';
import { type Actor, authorize, NO_ROLE, type ProjectRole, permits, seesAllTimes } from '../policy';
import { parseObject } from '../validate';
import { type TimeJson, timeJsonText } from './json';
import { createTimeSchema, type UpdateTimeInput, updateTimeSchema } from './schema';
import {
  type StoredTime,
  TIME_ORDERS,
  type TimeListFilters,
  type TimeOrder,
  type TimeStatusFilter,
  type TimeStore,
  type ViewedTime,
} from './store';

export type TimeService = ReturnType<typeof createTimeService>;

const STATUS_FILTERS: readonly string[] = ['approved', 'submitted', 'open'];
const isStatusFilter = (s: string): s is TimeStatusFilter => STATUS_FILTERS.includes(s);

/** What the texts of a new time's errors call it: a time, or a timer being started. */
export type NewTimeObject = 'time' | 'timer';

/** The references of a new time, as POST /v0/times sends them. */
export interface NewTimeReferences {
  user: string;
  project: string;
  activities?: readonly string[];
}

export interface TimeServiceDeps {
  db: Db;
  times: TimeStore;
  /** The active, undeleted user of that name (a time's owner must be one). */
  findActiveUser: (username: string) => Actor | undefined;
  /** Any user's id by username. */
  userIdOf: (username: string) => number | undefined;
  /** A live activity's id by slug. */
  activityIdOf: (slug: string) => number | undefined;
  /** A user's entry in a project's users map. */
  roleOf: (projectId: number, userId: number) => ProjectRole;
  defaultLimit: number;
}

export function createTimeService(deps: TimeServiceDeps) {
  const { db, times, roleOf } = deps;

  /**
   * The query parameters of GET /times (SPEC §6) → list filters and the caller's
   * visibility (SPEC §3). Every malformed or nonexistent value is kind 11; unknown
   * parameters are ignored.
   */
  const listFilters = (actor: Actor, query: URLSearchParams): TimeListFilters => {
    const includeDeleted = booleanParam(query, 'include_deleted');
    const includeRevisions = booleanParam(query, 'include_revisions');
    const userIds = listParam(query, 'user', (s) => (isUsername(s) ? deps.userIdOf(s) : undefined));
    const projectIds = listParam(query, 'project', (s) =>
      isSlug(s) ? times.findLiveProject(s)?.id : undefined,
    );
    const activityIds = listParam(query, 'activity', (s) =>
      isSlug(s) ? deps.activityIdOf(s) : undefined,
    );
    const start = firstParam(query, 'start', isCalendarDate);
    const end = firstParam(query, 'end', isCalendarDate);
    if (start !== undefined && end !== undefined && start > end) throw badQueryValue('end', end);
    const status = firstParam(query, 'status', isStatusFilter) as TimeStatusFilter | undefined;
    const notesContains = firstParam(
      query,
      'notes_contains',
      (s) => s.length > 0 && s.length <= 500,
    );
    const order = firstParam(query, 'order', (s) =>
      (TIME_ORDERS as readonly string[]).includes(s),
    ) as TimeOrder | undefined;
    return {
      viewer: { id: actor.id, seesAll: seesAllTimes(actor) },
      userIds,
      projectIds,
      activityIds,
      start,
      end,
      includeDeleted,
      includeRevisions,
      status,
      ...(notesContains !== undefined ? { notesContains } : {}),
      ...(order !== undefined ? { order } : {}),
    };
  };

  /** The user a time is for: active and not deleted (Invalid Foreign Key otherwise). */
  const ownerNamed = (username: string, object: NewTimeObject = 'time') => {
    const user = deps.findActiveUser(username);
    if (!user) throw invalidForeignKey(object, 'user');
    return user;
  };

  const liveProject = (slug: string, object: NewTimeObject = 'time') => {
    const project = times.findLiveProject(slug);
    if (!project) throw invalidForeignKey(object, 'project');
    return project;
  };

  /** Ids of the live activities named; duplicates collapse. */
  const activityIds = (slugs: readonly string[], object: NewTimeObject = 'time') =>
    [...new Set(slugs)].map((slug) => {
      const id = deps.activityIdOf(slug);
      if (id === undefined) throw invalidForeignKey(object, 'activity');
      return id;
    });

  /**
   * The rules of a new time after parsing, in SPEC §3 order: its user, project and
   * activities exist (kind 3); absent or [] activities take the project's default
   * activity (kind 4 when it has none); the actor may create it (kind 9). Also what
   * starting a timer checks (`object` 'timer' in the texts), so both cannot differ.
   */
  const checkNewTime = (actor: Actor, fields: NewTimeReferences, object: NewTimeObject) => {
    const owner = ownerNamed(fields.user, object);
    const project = liveProject(fields.project, object);
    let ids: number[];
    if (fields.activities && fields.activities.length > 0) {
      ids = activityIds(fields.activities, object);
    } else if (project.default_activity_id !== null) ids = [project.default_activity_id];
    else throw missingField(object, 'activities');
    const ownerRole = roleOf(project.id, owner.id);
    authorize(actor, { do: 'create time', owner, project: fields.project, ownerRole });
    return { owner, project, activityIds: ids };
  };

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

  /**
   * Kind 14 (issue 32) unless an entry of this user and project dated `date` may be
   * written: not before the lock date (admins included), not in a submitted or approved
   * week part. Checked after kinds 1, 4, 3 and 9, inside the write's transaction, so a
   * submission or an approval committed before it is seen and none can come between.
   */
  const checkUnlocked = (userId: number, projectId: number, date: string) => {
    const { before, week, status } = times.lockState(date, userId, projectId);
    if (before !== null && date < before) throw lockDateLocked(before);
    if (status === 'submitted' || status === 'approved') {
      const names = times.namesOf(userId, projectId);
      throw weekPartLocked(names.user, names.project, week, status);
    }
  };

  /**
   * A time read for GET (its JSON or its history), if this caller may see it: kind 1 when
   * there is none (or it is deleted and include_deleted is not set), else kind 9.
   */
  const shown = (actor: Actor, row: ViewedTime | undefined, includeDeleted: boolean) => {
    if (!row || (row.deleted_at !== null && !includeDeleted)) throw notFound('time');
    // A role in the project only ever adds permission, so it is read only for a viewer
    // the entry is not shown to without one (not its owner, not a site-wide viewer).
    const viewing = (role: ProjectRole) =>
      ({ do: 'view time', uuid: row.uuid, ownerId: row.user_id, role }) as const;
    if (!permits(actor, viewing(NO_ROLE))) {
      authorize(actor, viewing(roleOf(row.project_id, actor.id)));
    }
    return row;
  };

  return {
    /**
     * The filters and visibility of GET /times for this caller and query (kind 11 for
     * the first bad value): what reports count is exactly what the list would show.
     */
    filters: listFilters,

    /** GET /times; `withStatus`: each entry's JSON carries its week part's status (CSV). */
    list(actor: Actor, query: URLSearchParams, withStatus = false): Listing {
      const filters = { ...listFilters(actor, query), withStatus };
      return { paging: pagingParams(query, deps.defaultLimit), ...times.listing(filters) };
    },

    /** The names the CSV of the list shows beside usernames and slugs. */
    csvNames: () => times.csvNames(),

    get(actor: Actor, uuid: string, query: URLSearchParams) {
      const includeDeleted = booleanParam(query, 'include_deleted');
      const includeRevisions = booleanParam(query, 'include_revisions');
      return timeJsonText(shown(actor, times.findToView(uuid, includeRevisions), includeDeleted));
    },

    /**
     * GET /v0/times/:uuid/history (issue 29): every revision with who made it and when,
     * to exactly those who may GET the entry (include_deleted as there).
     */
    history(actor: Actor, uuid: string, query: URLSearchParams) {
      const includeDeleted = booleanParam(query, 'include_deleted');
      return timeJsonText(shown(actor, times.findHistory(uuid), includeDeleted));
    },

    checkNewTime,

    /** POST /v0/times; also POST /v0/timer/stop, inside its own transaction (a savepoint). */
    create(actor: Actor, input: unknown) {
      const fields = parseObject(createTimeSchema, input, 'time');
      return writeTransaction(db, () => {
        const { owner, project, activityIds: ids } = checkNewTime(actor, fields, 'time');
        checkUnlocked(owner.id, project.id, fields.date_worked);
        const json = times.insert(
          {
            uuid: randomUUID(),
            duration: fields.duration,
            user_id: owner.id,
            project_id: project.id,
            date_worked: fields.date_worked,
            start_time: fields.start_time ?? null,
            issue_uri: fields.issue_uri ?? null,
            notes: fields.notes ?? null,
            created_at: Date.now(),
            changed_by: actor.id,
          },
          ids,
        );
        // The entry's JSON, read in the write's transaction from the rows it wrote.
        return timeJsonText({ json });
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
        const time = current.uuid;
        authorize(actor, { do: 'update time', uuid: time, ownerId: current.user_id, changesUser });
        if (changesUser || projectId !== current.project_id) {
          // The names as the time shows them now (its JSON), for the refusal's text.
          const shown = JSON.parse(current.json) as Pick<TimeJson, 'user' | 'project'>;
          const to = owner?.username ?? shown.user;
          const project = fields.project ?? (shown.project[0] as string);
          const ownerRole = roleOf(projectId, ownerId);
          authorize(actor, { do: 'move time', uuid: time, to, project, ownerRole });
        }
        // Moving an entry counts for the part it leaves and the part it joins.
        const date = fields.date_worked ?? current.date_worked;
        checkUnlocked(current.user_id, current.project_id, current.date_worked);
        if (
          ownerId !== current.user_id ||
          projectId !== current.project_id ||
          date !== current.date_worked
        ) {
          checkUnlocked(ownerId, projectId, date);
        }
        const json = times.update(
          {
            id: current.id,
            duration: fields.duration ?? current.duration,
            user_id: ownerId,
            project_id: projectId,
            date_worked: date,
            start_time: fields.start_time === undefined ? current.start_time : fields.start_time,
            issue_uri: fields.issue_uri === undefined ? current.issue_uri : fields.issue_uri,
            notes: fields.notes === undefined ? current.notes : fields.notes,
            updated_at: Date.now(),
            changed_by: actor.id,
          },
          ids,
        );
        return timeJsonText({ json });
      });
    },

    remove(actor: Actor, uuid: string) {
      writeTransaction(db, () => {
        const current = times.findByUuid(uuid, actor.id);
        if (!current || current.deleted_at !== null) throw notFound('time');
        authorize(actor, { do: 'delete time', uuid: current.uuid, ownerId: current.user_id });
        checkUnlocked(current.user_id, current.project_id, current.date_worked);
        times.softDelete(current.id, Date.now());
      });
    },
  };
}
