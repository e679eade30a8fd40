// Weekly submission and approval (issue 32, docs/approvals.md): a week part (one person's
// entries on one project in one ISO week) as the API shows it, a decision of its history,
// the lock date, and what the decisions and PUT /v0/lock accept.
import { CalendarDate, duration, Slug, Username } from './common';
import {
  array,
  component,
  type Infer,
  integer,
  nullable,
  object,
  oneOfValues,
  shown,
  string,
} from './kit';

export const WEEK_PART_STATUSES = ['open', 'submitted', 'approved', 'rejected'] as const;
export type WeekPartStatus = (typeof WEEK_PART_STATUSES)[number];

const moment = (description: string) =>
  nullable(string({ format: 'date-time' }), {
    description: `${description} (ISO 8601, UTC, milliseconds)`,
  });

export const IsoWeek = component(
  'IsoWeek',
  string({ pattern: '^\\d{4}-W\\d{2}$', description: 'An ISO 8601 week, YYYY-Www' }),
);

export const WeekPart = component(
  'WeekPart',
  shown({
    user: Username.ref,
    week: IsoWeek.ref,
    project: array(Slug.ref, {
      description: "All the project's slugs, as a time entry shows them",
    }),
    status: oneOfValues(WEEK_PART_STATUSES),
    duration: duration(),
    entries: integer({ minimum: 0, description: 'Live time entries in the part' }),
    submitted_at: moment('The last submission'),
    decided_by: nullable(string(), { description: 'Who made the last decision' }),
    decided_at: moment('The last approve, reject or reopen'),
    comment: nullable(string(), { description: "The last decision's comment" }),
  }),
);
export type WeekPart = Infer<typeof WeekPart>;

export const WeekPartDecision = component(
  'WeekPartDecision',
  shown({
    action: oneOfValues(['submit', 'approve', 'reject', 'reopen']),
    by: string({ description: 'The username of who did it' }),
    at: string({ format: 'date-time' }),
    comment: nullable(string()),
  }),
);
export type WeekPartDecision = Infer<typeof WeekPartDecision>;

export const Decision = component(
  'Decision',
  object({
    comment: string({ minLength: 1, maxLength: 2000, description: 'Required to reject' }),
  }),
);
export type Decision = Infer<typeof Decision>;

/** Submitting a week takes no fields: the object may be left out, or sent empty. */
export const WeekSubmit = component('WeekSubmit', object({}));
export type WeekSubmit = Infer<typeof WeekSubmit>;

export const Lock = component(
  'Lock',
  shown({
    before: nullable(CalendarDate.ref, {
      description: 'No entry dated before it may be written by anyone; null: no lock date',
    }),
  }),
);
export type Lock = Infer<typeof Lock>;

export const LockUpdate = component(
  'LockUpdate',
  object({ before: nullable(CalendarDate.ref) }, ['before']),
);
export type LockUpdate = Infer<typeof LockUpdate>;
