// Weekly submission and approval (issue 32, docs/approvals.md). A week part is one
// person's entries on one project in one ISO week; a person (or an admin) submits their
// week, the project's managers, site managers and admins approve, reject (with a comment)
// or reopen each part, never their own. While a part is submitted or approved its
// entries are locked (times/service.ts checkUnlocked, error kind 14), as is every entry
// dated before the lock date an admin sets here. Who may see a part is who may see its
// entries (SPEC §3).
import { isoWeekOf, weekDates } from '../dates';
import { type Db, writeTransaction } from '../db/open';
import { badObject, missingField, notFound } from '../errors';
import type { Listing, ListRows } from '../http/list';
import { firstParam, pagingParams } from '../http/query';
import { type Actor, authorize, NO_ROLE, type ProjectRole, permits } from '../policy';
import { WEEK_PART_STATUSES, type WeekPartStatus } from '../shapes/approval';
import type { TimeListFilters } from '../times/store';
import { parseObject } from '../validate';
import { toDecisionJson, toWeekPartJson } from './json';
import { decisionSchema, lockSchema, rejectionSchema, submitSchema } from './schema';
import type { ApprovalStore, WeekPartRow } from './store';

export type ApprovalService = ReturnType<typeof createApprovalService>;

export interface ApprovalServiceDeps {
  db: Db;
  approvals: ApprovalStore;
  /** The filters and visibility of GET /v0/times (the times service's). */
  timeFilters: (actor: Actor, query: URLSearchParams) => TimeListFilters;
  /** Any user's id by username. */
  userIdOf: (username: string) => number | undefined;
  /** A live project's id by any of its slugs. */
  projectIdOf: (slug: string) => number | undefined;
  /** A user's entry in a project's users map. */
  roleOf: (projectId: number, userId: number) => ProjectRole;
  defaultLimit: number;
}

export type DecisionAction = 'approve' | 'reject' | 'reopen';

/** What each decision needs the part to be, and makes it. */
const TRANSITIONS: Record<DecisionAction, { from: WeekPartStatus; to: WeekPartStatus }> = {
  approve: { from: 'submitted', to: 'approved' },
  reject: { from: 'submitted', to: 'rejected' },
  reopen: { from: 'approved', to: 'open' },
};

const isStatus = (s: string): s is WeekPartStatus =>
  (WEEK_PART_STATUSES as readonly string[]).includes(s);

/** A list already read, as http/list.ts pages it. */
function rowsOf(texts: string[]): ListRows {
  const end = (limit: number, skip: number) => (limit < 0 ? undefined : skip + limit);
  return {
    read: (limit, skip) => texts.slice(skip, end(limit, skip)),
    iterate: (limit, skip) => texts.slice(skip, end(limit, skip)),
    count: () => texts.length,
    close: () => {},
  };
}

export function createApprovalService(deps: ApprovalServiceDeps) {
  const { db, approvals } = deps;

  /** The user named in a path (kind 1 when there is none). */
  const userNamed = (username: string) => {
    const id = deps.userIdOf(username);
    if (id === undefined) throw notFound('user');
    return id;
  };

  /** A week part named by a path: its user, project and week (kind 1 for each missing). */
  const partNamed = (username: string, week: string, slug: string) => {
    const userId = userNamed(username);
    const projectId = deps.projectIdOf(slug);
    if (projectId === undefined) throw notFound('project');
    const { first, last } = weekDates(week);
    const read = () => approvals.part(userId, projectId, week, first, last);
    const row = read();
    // A part is there when it has entries, or a row of its own (its history).
    if (row.entries === 0 && approvals.statusOf(userId, projectId, week) === undefined) {
      throw notFound('week');
    }
    return { userId, projectId, week, row, read };
  };

  const weekDeed = (
    actor: Actor,
    action: DecisionAction | 'view',
    username: string,
    week: string,
    slug: string,
    part: { userId: number; projectId: number },
  ) => {
    const deed = (role: ProjectRole) =>
      ({
        do: `${action} week`,
        username,
        week,
        project: slug,
        ownerId: part.userId,
        role,
      }) as const;
    // A role in the project only ever adds permission: read only when it matters.
    if (!permits(actor, deed(NO_ROLE)))
      authorize(actor, deed(deps.roleOf(part.projectId, actor.id)));
  };

  return {
    /**
     * POST /v0/weeks/:username/:week/submit: every part of the week that has entries and
     * is open or rejected becomes submitted; answers all the week's parts.
     */
    submit(actor: Actor, username: string, week: string, input: unknown) {
      return writeTransaction(db, () => {
        const userId = userNamed(username);
        if (input !== undefined) parseObject(submitSchema, input, 'week');
        authorize(actor, { do: 'submit week', username, week, ownerId: userId });
        const { first, last } = weekDates(week);
        const projects = approvals.projectsWithEntries(userId, first, last);
        if (projects.length === 0) throw missingField('week', 'time entry');
        const now = Date.now();
        const parts = projects.map((projectId) => {
          const status = approvals.statusOf(userId, projectId, week);
          if (status !== 'submitted' && status !== 'approved') {
            approvals.submit(userId, projectId, week, actor.id, now);
          }
          return toWeekPartJson(approvals.part(userId, projectId, week, first, last));
        });
        return parts.sort((a, b) => (a.project[0] ?? '').localeCompare(b.project[0] ?? ''));
      });
    },

    /**
     * POST /v0/approvals/:username/:week/:slug/(approve|reject|reopen), in SPEC §3's
     * order: the part exists (1), the body (4), permission (9), then the part's status
     * (kind 4: approve and reject take a submitted part, reopen an approved one).
     */
    decide(
      actor: Actor,
      action: DecisionAction,
      names: { username: string; week: string; slug: string },
      input: unknown,
    ) {
      return writeTransaction(db, () => {
        const part = partNamed(names.username, names.week, names.slug);
        const object = input === undefined ? {} : input;
        const comment =
          action === 'reject'
            ? parseObject(rejectionSchema, object, 'week').comment
            : parseObject(decisionSchema, object, 'week').comment;
        weekDeed(actor, action, names.username, names.week, names.slug, part);
        const { from, to } = TRANSITIONS[action];
        if (part.row.status !== from) {
          const article = from === 'approved' ? 'an' : 'a';
          const done = { approve: 'approved', reject: 'rejected', reopen: 'reopened' }[action];
          throw badObject(`Only ${article} ${from} week can be ${done}`);
        }
        approvals.decide(part, action, to, actor.id, Date.now(), comment ?? null);
        return toWeekPartJson(part.read());
      });
    },

    /** GET /v0/approvals/:username/:week/:slug/history: newest first. */
    history(actor: Actor, names: { username: string; week: string; slug: string }) {
      const part = partNamed(names.username, names.week, names.slug);
      weekDeed(actor, 'view', names.username, names.week, names.slug, part);
      return approvals.history(part.userId, part.projectId, part.week).map(toDecisionJson);
    },

    /**
     * GET /v0/approvals: the parts of the entries GET /v0/times would list for the same
     * user, project, start and end (whole weeks: start from its Monday, end to its
     * Sunday), with `status` one of the four.
     */
    list(actor: Actor, query: URLSearchParams): Listing {
      const status = firstParam(query, 'status', isStatus) as WeekPartStatus | undefined;
      const timeQuery = new URLSearchParams(query);
      timeQuery.delete('status');
      const filters = deps.timeFilters(actor, timeQuery);
      const start = filters.start === undefined ? undefined : weekStart(filters.start);
      const end = filters.end === undefined ? undefined : weekEnd(filters.end);
      const rows =
        status === undefined || status === 'open'
          ? approvals.parts({ ...filters, start, end }, status)
          : partsWithStatus(approvals, filters, status, start, end);
      const texts = rows.map((row) => JSON.stringify(toWeekPartJson(row)));
      return { paging: pagingParams(query, deps.defaultLimit), open: () => rowsOf(texts) };
    },

    /** GET /v0/lock */
    lock: () => ({ before: approvals.lockDate() }),

    /** PUT /v0/lock: admins only; the body first (kind 4), then the permission (9). */
    setLock(actor: Actor, input: unknown) {
      return writeTransaction(db, () => {
        const { before } = parseObject(lockSchema, input, 'lock');
        authorize(actor, { do: 'set lock date' });
        approvals.setLockDate(before);
        return { before: approvals.lockDate() };
      });
    },
  };
}

/**
 * The parts of a status that only a part with a row has (submitted, approved, rejected),
 * read from their rows (week_parts_status) and summed one by one from their entries: the
 * same parts the grouping of the visible entries finds, without reading every entry.
 * Parts with no live entry left are not listed, as there.
 */
function partsWithStatus(
  store: ApprovalStore,
  filters: TimeListFilters,
  status: WeekPartStatus,
  start: string | undefined,
  end: string | undefined,
): WeekPartRow[] {
  const weeks = {
    first: start === undefined ? '' : isoWeekOf(start),
    last: end === undefined ? '~' : isoWeekOf(end),
  };
  const rows: WeekPartRow[] = [];
  for (const key of store.keysWithStatus(filters, status, weeks)) {
    const { first, last } = weekDates(key.week);
    const row = store.part(key.user_id, key.project_id, key.week, first, last);
    if (row.entries > 0) rows.push(row);
  }
  const order = (r: WeekPartRow) => [r.week, r.user.toLowerCase(), r.project] as const;
  return rows.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0].localeCompare(y[0]) || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]);
  });
}

/** The Monday of a date's ISO week. */
function weekStart(date: string): string {
  return weekDates(isoWeekOf(date)).first;
}

/** The Sunday of a date's ISO week. */
function weekEnd(date: string): string {
  return weekDates(isoWeekOf(date)).last;
}
