// Shapes of time entries sent to POST /times and POST /times/:uuid (SPEC §4.3).
import * as v from 'valibot';
import { isTimeOfDay } from '../dates';
import { sameKeys } from '../shapes/kit';
import type { TimeCreate, TimeUpdate } from '../shapes/time';
import {
  calendarDate,
  isHttpUri,
  optionalText,
  optionalTyped,
  slug,
  slugArray,
  username,
} from '../validate';

export const MAX_DURATION = 2_147_483_647;

/** The most activities one time may name (docs/api-times.md). */
export const MAX_ACTIVITIES = 100;

// JSON.parse turns 1e999 into Infinity and keeps 1.5: neither is an integer.
const duration = () =>
  v.message(
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_DURATION)),
    `integer from 0 to ${MAX_DURATION}`,
  );

const common = {
  duration: duration(),
  user: username(),
  project: slug(),
  date_worked: calendarDate(),
  // An extension (issue 31): '' clears it like null, as web forms send empty fields.
  start_time: optionalTyped(isTimeOfDay, 'a time of day'),
  issue_uri: optionalTyped(
    (s) => isHttpUri(s, 2048),
    'http or https URI of at most 2048 characters',
  ),
  notes: optionalText(10_000),
};

export const createTimeSchema = v.strictObject({
  duration: common.duration,
  user: common.user,
  project: common.project,
  // Absent or [] on create: the project's default activity is used (checked by the service).
  activities: v.optional(
    v.message(
      slugArray(MAX_ACTIVITIES, `array of at most ${MAX_ACTIVITIES} activity slugs`),
      'array of activity slugs',
    ),
  ),
  date_worked: common.date_worked,
  start_time: common.start_time,
  issue_uri: common.issue_uri,
  notes: common.notes,
});

export const updateTimeSchema = v.strictObject({
  duration: v.optional(common.duration),
  user: v.optional(common.user),
  project: v.optional(common.project),
  // A time always has an activity: the list may be replaced but not emptied.
  activities: v.optional(
    v.message(
      v.pipe(
        slugArray(MAX_ACTIVITIES, `non-empty array of at most ${MAX_ACTIVITIES} activity slugs`),
        v.minLength(1),
      ),
      'non-empty array of activity slugs',
    ),
  ),
  date_worked: v.optional(common.date_worked),
  start_time: common.start_time,
  issue_uri: common.issue_uri,
  notes: common.notes,
});

export type CreateTimeInput = v.InferOutput<typeof createTimeSchema>;
export type UpdateTimeInput = v.InferOutput<typeof updateTimeSchema>;

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/time.ts).
sameKeys<v.InferInput<typeof createTimeSchema>, TimeCreate>(true);
sameKeys<v.InferInput<typeof updateTimeSchema>, TimeUpdate>(true);
