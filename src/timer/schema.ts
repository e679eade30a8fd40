// Shapes of the objects POST /v0/timer (start) and POST /v0/timer/stop accept: the
// fields of a time entry (SPEC §4.3), each with the very schema POST /v0/times uses.
import * as v from 'valibot';
import { sameKeys } from '../shapes/kit';
import type { TimerStart, TimerStop } from '../shapes/timer';
import { createTimeSchema } from '../times/schema';
import { optionalBoolean } from '../validate';

const time = createTimeSchema.entries;

export const startTimerSchema = v.strictObject({
  project: time.project,
  // Absent or []: the project's default activity, resolved when the timer stops.
  activities: time.activities,
  notes: time.notes,
  issue_uri: time.issue_uri,
  // Absent: today in the user's time zone, else the server's.
  date_worked: v.optional(time.date_worked),
});

/** Every field overrides what the timer holds; duration defaults to the seconds elapsed. */
export const stopTimerSchema = v.strictObject({
  duration: v.optional(time.duration),
  notes: time.notes,
  issue_uri: time.issue_uri,
  activities: time.activities,
  date_worked: v.optional(time.date_worked),
  // Absent: when the timer started, in the user's time zone, else the server's.
  start_time: time.start_time,
  // true: add to the one entry of the timer's row and day when there is exactly one and
  // the time has no notes or issue URI of its own (issue 34); else a new entry, as always.
  add_to_entry: optionalBoolean(),
});

export type StartTimerInput = v.InferOutput<typeof startTimerSchema>;
export type StopTimerInput = v.InferOutput<typeof stopTimerSchema>;

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/timer.ts).
sameKeys<v.InferInput<typeof startTimerSchema>, TimerStart>(true);
sameKeys<v.InferInput<typeof stopTimerSchema>, TimerStop>(true);
