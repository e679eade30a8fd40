// A time entry (SPEC §4.3): as the API shows it, and as POST accepts it.
import {
  CalendarDate,
  changedBy,
  duration,
  httpUri,
  parents,
  revisioned,
  Slug,
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
  issue_uri: nullable(string()),
  notes: nullable(string()),
};

export const TimeRevision = component(
  'TimeRevision',
  shown({ ...revisioned, ...fields, changed_by: changedBy() }),
);
export type TimeRevision = Infer<typeof TimeRevision>;

/** `changed_by` and `parents` only with include_revisions (issue 16). */
export const Time = component(
  'Time',
  shown({ ...revisioned, ...fields, changed_by: changedBy(), parents: parents(TimeRevision.ref) }, [
    'changed_by',
    'parents',
  ]),
);
export type Time = Infer<typeof Time>;

const input = {
  duration: duration(),
  user: Username.ref,
  project: Slug.ref,
  activities: array(Slug.ref),
  date_worked: CalendarDate.ref,
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
