// Kept timesheet rows (issue 34): the rows a person added to a week of the timesheet and
// has not filled yet, kept on the server so that they stay across reloads and devices.
import { Slug } from './common';
import { array, component, type Infer, object, shown } from './kit';

/** The most rows a week keeps, and activities a row names. */
export const MAX_KEPT_ROWS = 100;
export const MAX_ROW_ACTIVITIES = 20;

export const KeptRow = component(
  'KeptRow',
  shown({
    project: array(Slug.ref, {
      description: "All the project's slugs, as a time entry shows them",
    }),
    activities: array(Slug.ref, { description: 'The activities of the row; [] for none' }),
  }),
);
export type KeptRow = Infer<typeof KeptRow>;

export const KeptRows = component(
  'KeptRows',
  shown({
    rows: array(KeptRow.ref, {
      description: 'In the order they were added; a row with an entry that week is left out',
    }),
  }),
);
export type KeptRows = Infer<typeof KeptRows>;

/** PUT: the whole list, replacing what was kept for the week. */
export const KeptRowsUpdate = component(
  'KeptRowsUpdate',
  object(
    {
      rows: array(
        object(
          {
            project: Slug.ref,
            activities: array(Slug.ref, { maxItems: MAX_ROW_ACTIVITIES }),
          },
          ['project', 'activities'],
        ),
        { maxItems: MAX_KEPT_ROWS },
      ),
    },
    ['rows'],
  ),
);
export type KeptRowsUpdate = Infer<typeof KeptRowsUpdate>;
