// Running timers (issue 15): one per user, in the database. Starting one checks what
// creating a time for oneself checks (the times service's checkNewTime); stopping one
// creates the time through the times service's create, in the same transaction, so the
// errors and the time made are exactly those of POST /v0/times. Admins may read, stop or
// discard another user's timer with ?user= (support); nobody else.
import { wallClock } from '../dates';
import { type Db, writeTransaction } from '../db/open';
import {
  badQueryValue,
  invalidForeignKey,
  notFound,
  timerAlreadyRunning,
  timerTooShort,
} from '../errors';
import { firstParam } from '../http/query';
import { isUsername } from '../identifiers';
import { type Actor, authorize } from '../policy';
import type { TimeService } from '../times/service';
import { parseObject, requestRecord } from '../validate';
import { elapsedSeconds, roundedDuration, toTimerJson } from './json';
import { startTimerSchema, stopTimerSchema } from './schema';
import type { TimerStore } from './store';

export type TimerService = ReturnType<typeof createTimerService>;

export interface TimerServiceDeps {
  db: Db;
  timers: TimerStore;
  times: TimeService;
  /** Any user's id by username (deleted ones too). */
  userIdOf: (username: string) => number | undefined;
  /** --timer-rounding: a stop's duration is the elapsed time rounded to a multiple of this. */
  roundingSeconds: number;
}

type TimerDeed = 'read timer' | 'stop timer' | 'discard timer';

export function createTimerService(deps: TimerServiceDeps) {
  const { db, timers, times } = deps;

  /**
   * Whose timer a request is about: the caller's, or the `?user=` named (kind 11 when
   * malformed or unknown, like the filters of GET /times), which only admins may name
   * unless it is the caller (kind 9). Checked before the timer is looked for, so nobody
   * else learns whether another user's timer runs.
   */
  const ownerOf = (actor: Actor, query: URLSearchParams, deed: TimerDeed) => {
    const username = firstParam(query, 'user', isUsername);
    if (username === undefined) return { id: actor.id, username: actor.username };
    const id = deps.userIdOf(username);
    if (id === undefined) throw badQueryValue('user', username);
    authorize(actor, { do: deed, username, ownerId: id });
    return { id, username };
  };

  const find = (ownerId: number) => {
    const timer = timers.find(ownerId);
    if (!timer) throw notFound('timer');
    return timer;
  };

  /**
   * add_to_entry (issue 34): when the owner has exactly one live entry of the timer's
   * project, activities (after the project's default) and day, the duration is added to
   * it by PUT /v0/times/:uuid's own code (one new revision; its permission and lock
   * checks); undefined otherwise, and a new entry is made as without add_to_entry. The
   * checks of a new time (membership again, live references) come first either way.
   */
  const addToRowEntry = (
    actor: Actor,
    owner: { id: number; username: string },
    row: { project: string; activities: string[]; date: string; duration: number },
  ) => {
    const checked = times.checkNewTime(
      actor,
      { user: owner.username, project: row.project, activities: row.activities },
      'time',
    );
    const found = timers.rowEntries(owner.id, row.date, checked.project.id, checked.activityIds);
    const [entry] = found;
    if (!entry || found.length !== 1) return undefined;
    return times.update(actor, entry.uuid, { duration: entry.duration + row.duration });
  };

  return {
    /** GET /v0/timer */
    get(actor: Actor, query: URLSearchParams) {
      return toTimerJson(find(ownerOf(actor, query, 'read timer').id), Date.now());
    },

    /** POST /v0/timer: the caller's own timer (a `user` query parameter is not read). */
    start(actor: Actor, input: unknown) {
      return writeTransaction(db, () => {
        const fields = parseObject(startTimerSchema, input, 'timer');
        const user = actor.username;
        const { project, activityIds } = times.checkNewTime(actor, { ...fields, user }, 'timer');
        if (timers.find(actor.id)) throw timerAlreadyRunning(actor.username);
        const startedAt = Date.now();
        const started = wallClock(startedAt, timers.zoneOf(actor.id));
        // Activity ids only when sent: without, the project's default applies at stop.
        const sent = fields.activities !== undefined && fields.activities.length > 0;
        timers.insert({
          user_id: actor.id,
          project_id: project.id,
          activity_ids: JSON.stringify(sent ? activityIds : []),
          notes: fields.notes ?? null,
          issue_uri: fields.issue_uri ?? null,
          date_worked: fields.date_worked ?? started.date,
          started_at: startedAt,
        });
        return toTimerJson(find(actor.id), startedAt);
      });
    },

    /**
     * POST /v0/timer/stop: the time entry the timer makes, created by POST /v0/times's
     * own code (so its permission is checked again now), or with add_to_entry the one
     * entry of its row and day grown by PUT's code, and the timer gone, in one
     * transaction; answers that entry. Without a duration sent, the elapsed time is
     * rounded to --timer-rounding, and under one step nothing is booked.
     */
    stop(actor: Actor, query: URLSearchParams, input: unknown) {
      // The object may be left out; when sent it must be an object (checked first, as
      // for every POST, before the timer is looked for).
      const object = input === undefined ? {} : requestRecord(input);
      return writeTransaction(db, () => {
        const owner = ownerOf(actor, query, 'stop timer');
        const timer = find(owner.id);
        const fields = parseObject(stopTimerSchema, object, 'time');
        // The timer keeps ids; the time is created from slugs. A deleted project or
        // activity has no live slug to send: the kind 3 POST /v0/times would answer.
        if (timer.project_live !== 1) throw invalidForeignKey('time', 'project');
        if (fields.activities === undefined && timer.activities_live !== 1) {
          throw invalidForeignKey('time', 'activity');
        }
        const stoppedAt = Date.now();
        let duration = fields.duration;
        if (duration === undefined) {
          const step = deps.roundingSeconds;
          duration = roundedDuration(timer.started_at, stoppedAt, step);
          // 0 is never booked from the clock: the timer keeps running (stop later, or discard).
          if (duration === 0) {
            throw timerTooShort(owner.username, elapsedSeconds(timer.started_at, stoppedAt), step);
          }
        }
        const project = (JSON.parse(timer.project) as string[])[0] as string;
        const activities: string[] = fields.activities ?? JSON.parse(timer.activities);
        const date = fields.date_worked ?? timer.date_worked;
        const notes = fields.notes === undefined ? timer.notes : fields.notes;
        const issueUri = fields.issue_uri === undefined ? timer.issue_uri : fields.issue_uri;
        const time =
          (fields.add_to_entry === true &&
            !notes &&
            !issueUri &&
            addToRowEntry(actor, owner, { project, activities, date, duration })) ||
          times.create(actor, {
            duration,
            user: owner.username,
            project,
            activities,
            date_worked: date,
            start_time:
              fields.start_time === undefined
                ? // When it started, on the owner's wall clock: their time zone, else the server's.
                  wallClock(timer.started_at, timers.zoneOf(owner.id)).time
                : fields.start_time,
            issue_uri: issueUri,
            notes,
          });
        timers.remove(owner.id);
        return time;
      });
    },

    /** DELETE /v0/timer: discards the timer, no time made. */
    discard(actor: Actor, query: URLSearchParams) {
      writeTransaction(db, () => {
        const owner = ownerOf(actor, query, 'discard timer');
        find(owner.id);
        timers.remove(owner.id);
      });
    },
  };
}
