// A running timer (SPEC §11, docs/api-timer.md): as the API shows it, and what starting
// and stopping it accept. `project` and `activities` are shown as on a time entry.
import { CalendarDate, duration, Slug, timeOfDay } from './common';
import {
  anyOf,
  array,
  boolean,
  component,
  constant,
  type Infer,
  integer,
  nul,
  nullable,
  object,
  shown,
  string,
} from './kit';

export const Timer = component(
  'Timer',
  shown({
    project: array(Slug.ref, {
      description: "All the project's slugs, as a time entry shows them",
    }),
    activities: array(Slug.ref, {
      description: "[] until stop when the project's default activity is to be used",
    }),
    notes: nullable(string()),
    issue_uri: nullable(string()),
    date_worked: CalendarDate.ref,
    started_at: string({
      format: 'date-time',
      description: 'When the timer was started (ISO 8601, UTC, milliseconds)',
    }),
    elapsed: integer({ minimum: 0, description: 'Whole seconds since started_at' }),
  }),
);
export type Timer = Infer<typeof Timer>;

export const TimerStart = component(
  'TimerStart',
  object(
    {
      project: Slug.ref,
      activities: array(Slug.ref),
      notes: nullable(string()),
      issue_uri: nullable(string()),
      date_worked: CalendarDate.ref,
    },
    ['project'],
  ),
);
export type TimerStart = Infer<typeof TimerStart>;

export const TimerStop = component(
  'TimerStop',
  object({
    duration: duration(),
    notes: nullable(string()),
    issue_uri: nullable(string()),
    activities: array(Slug.ref),
    date_worked: CalendarDate.ref,
    start_time: anyOf([timeOfDay(), constant(''), nul()], {
      description:
        "Default: when the timer started, in the user's time zone, else the server's; '' means null",
    }),
    add_to_entry: boolean({
      description:
        'Default false. true: when the time has no notes and no issue_uri and the user has exactly one live entry of the same project, activities and date_worked, its duration is added to that entry (one new revision, the answer) instead of a new entry being made (issue 34; docs/api-timer.md)',
    }),
  }),
);
export type TimerStop = Infer<typeof TimerStop>;
