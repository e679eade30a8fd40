// The pieces the API's objects share: identifiers, dates, and what every revisioned
// object shows of its history (SPEC §4, §5).
import { array, component, integer, type Keywords, nullable, type Schema, string } from './kit';

export const Slug = component(
  'Slug',
  string({
    pattern: '^(?=[a-z0-9-]*[a-z])[a-z0-9]+(-[a-z0-9]+)*$',
    maxLength: 64,
    description: 'Lower-case letters and digits in groups joined by single hyphens, with a letter',
  }),
);
export const Username = component(
  'Username',
  string({
    pattern: '^[A-Za-z0-9._~-]{1,64}$',
    description: 'Matched in any letter case; shown as created',
  }),
);
export const Uuid = component('Uuid', string({ format: 'uuid' }));
export const CalendarDate = component(
  'Date',
  string({ format: 'date', description: 'YYYY-MM-DD (UTC)' }),
);
export const NullableDate = component('NullableDate', nullable(string({ format: 'date' })));

/** A name: 1 to 255 characters. */
export const name = () => string({ minLength: 1, maxLength: 255 });
/** An http(s) URI as a write accepts it. */
export const httpUri = () => string({ pattern: '^[hH][tT][tT][pP][sS]?:', maxLength: 2048 });
/**
 * A wall-clock time of day, `HH:MM:SS` (00:00:00 to 23:59:59): when the work of a time
 * entry started on its date_worked (issue 31, an extension).
 */
export const TIME_OF_DAY_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';
export const timeOfDay = (keywords: Keywords = {}) =>
  string({ pattern: TIME_OF_DAY_PATTERN, ...keywords });
/** Seconds, as a time entry keeps them (a signed 32-bit integer). */
export const duration = () => integer({ minimum: 0, maximum: 2_147_483_647 });

/** The fields every revisioned object shows (SPEC §4, §5). */
export const revisioned = {
  uuid: Uuid.ref,
  revision: integer({ minimum: 1 }),
  created_at: CalendarDate.ref,
  updated_at: NullableDate.ref,
  deleted_at: NullableDate.ref,
};

/**
 * What GET …/{uuid}/history adds to each revision (issue 29); include_revisions answers
 * TimeSync's shape alone, so a parent is exactly what the revision's GET answered.
 */
export const change = {
  changed_by: nullable(string(), {
    description: 'The username of whoever made this revision (null: not recorded)',
  }),
  changed_at: string({
    format: 'date-time',
    description: 'When this revision was made: ISO 8601 in UTC with milliseconds',
  }),
};

/** With include_revisions: the object's earlier revisions. */
export const parents = <T>(revision: Schema<T>) =>
  array(revision, { description: 'With include_revisions: every earlier revision, newest first' });
