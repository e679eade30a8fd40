// A time entry (SPEC §4.3): as the API shows it, and as POST accepts it.
import {
  CalendarDate,
  change,
  duration,
  httpUri,
  parents,
  revisioned,
  Slug,
  timeOfDay,
  Username,
} from './common';
import {
  anyOf,
  array,
  component,
  constant,
  type Infer,
  nul,
  nullable,
  object,
  shown,
  string,
} from './kit';

/** The fields a time entry shows, in each revision. */
const fields = {
  duration: duration(),
  user: Username.ref,
  project: array(Slug.ref, { description: "All the project's slugs (one slug when sent)" }),
  activities: array(Slug.ref),
  date_worked: CalendarDate.ref,
  start_time: nullable(timeOfDay(), {
    description: 'Extension: when the work started on date_worked (HH:MM:SS, wall clock), or null',
  }),
  issue_uri: nullable(string()),
  notes: nullable(string()),
};

export const TimeRevision = component('TimeRevision', shown({ ...revisioned, ...fields }));
export type TimeRevision = Infer<typeof TimeRevision>;

/** `parents` only with include_revisions: each exactly as it was served (SPEC §5). */
export const Time = component(
  'Time',
  shown({ ...revisioned, ...fields, parents: parents(TimeRevision.ref) }, ['parents']),
);
export type Time = Infer<typeof Time>;

/** One revision of GET /v0/times/{uuid}/history (issue 29): as served, who and when. */
export const TimeHistoryRevision = component(
  'TimeHistoryRevision',
  shown({ ...revisioned, ...fields, ...change }),
);
export type TimeHistoryRevision = Infer<typeof TimeHistoryRevision>;

const input = {
  duration: duration(),
  user: Username.ref,
  project: Slug.ref,
  activities: array(Slug.ref),
  date_worked: CalendarDate.ref,
  start_time: anyOf([timeOfDay(), constant(''), nul()], {
    description: "Extension: HH:MM:SS when the work started on date_worked; '' means null",
  }),
  issue_uri: anyOf([httpUri(), constant(''), nul()], { description: "'' means null" }),
  notes: nullable(string(), { maxLength: 10_000 }),
};

export const TimeCreate = component(
  'TimeCreate',
  object(input, ['duration', 'user', 'project', 'date_worked']),
);
export type TimeCreate = Infer<typeof TimeCreate>;

export const TimeUpdate = component(
  'TimeUpdate',
  object({ ...input, activities: array(Slug.ref, { minItems: 1 }) }),
);
export type TimeUpdate = Infer<typeof TimeUpdate>;
