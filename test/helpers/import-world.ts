// The instance the importer tests import into, and what each fixture of
// test/fixtures/import/ should give there. Every fixture is an export of the same small
// team as its tool writes it: Alice and Bob known here (Alice by display name "Alice
// Smith", username alice, alice@example.com; Bob by bob@example.com), one stranger, a
// duplicated row, one row without a task in a project without a default activity.
import { join } from 'node:path';
import { createActivity, createProject, createUser } from './factories';
import type { TestServer } from './server';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'import');

export const fixture = (format: string, ext = 'csv') => join(FIXTURES, `${format}.${ext}`);

/** Alice, Bob, the activity Development (dev) and Website Redesign (website, default dev). */
export async function importWorld(server: TestServer) {
  const alice = await createUser(server, {
    username: 'alice',
    display_name: 'Alice Smith',
    email: 'alice@example.com',
  });
  const bob = await createUser(server, {
    username: 'bob',
    display_name: 'Bob Jones',
    email: 'bob@example.com',
  });
  await createActivity(server, { name: 'Development', slug: 'dev' });
  await createProject(server, {
    name: 'Website Redesign',
    slugs: ['website'],
    default_activity: 'dev',
  });
  return { alice, bob };
}

export interface ExpectedEntry {
  user: string;
  project: string;
  date_worked: string;
  /** null: the tool records no time of day (Harvest) */
  start_time: string | null;
  duration: number;
  activities: string[];
  notes: string;
  issue_uri?: string;
}

export interface Expected {
  entries: ExpectedEntry[];
  /** The person no user matches, as the file names them. */
  stranger: string;
  /** The task-less row's line (its project has no default activity). */
  taskless: { line: number; project: string };
  duplicateLine: number;
  created: { projects: string[]; activities: string[] };
  /** Dropped columns that had values. */
  dropped: string[];
}

export const EXPECTED: Record<string, Expected> = {
  toggl: {
    entries: [
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '09:00:00',
        duration: 5400,
        activities: ['dev'],
        notes: 'Header, footer and "hero" fixes',
      },
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '23:30:00',
        duration: 4500,
        activities: ['dev'],
        notes: 'Release night:\ndeploy and smoke test',
      },
      {
        user: 'bob',
        project: 'mobile-app',
        date_worked: '2024-03-05',
        start_time: '13:00:00',
        duration: 7200,
        activities: ['design'],
        notes: 'Mockups',
      },
    ],
    stranger: 'carol@example.com',
    taskless: { line: 8, project: 'Mobile App' },
    duplicateLine: 6,
    created: { projects: ['mobile-app'], activities: ['design'] },
    dropped: ['Client', 'Billable', 'Tags', 'Amount (USD)'],
  },
  clockify: {
    entries: [
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '09:15:00',
        duration: 5400,
        activities: ['dev'],
        notes: 'Review; then merge',
      },
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '23:00:00',
        duration: 5400,
        activities: ['meetings'],
        notes: 'Evening call\nwith the client',
      },
      {
        user: 'bob',
        project: 'mobile-app',
        date_worked: '2024-03-05',
        start_time: '13:00:00',
        duration: 8100,
        activities: ['design'],
        notes: 'Icons',
      },
    ],
    stranger: 'dan@example.com',
    taskless: { line: 8, project: 'Mobile App' },
    duplicateLine: 6,
    created: { projects: ['mobile-app'], activities: ['meetings', 'design'] },
    dropped: ['Client', 'Group', 'Billable', 'Billable Rate (USD)', 'Billable Amount (USD)'],
  },
  harvest: {
    entries: [
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: null,
        duration: 9000,
        activities: ['dev'],
        notes: 'Login form, validation',
        issue_uri: 'https://github.com/acme/site/issues/12',
      },
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: null,
        duration: 4500,
        activities: ['dev'],
        notes: 'Pairing with Bob:\n- review\n- tests',
      },
      {
        user: 'bob',
        project: 'mobile-app',
        date_worked: '2024-03-05',
        start_time: null,
        duration: 10800,
        activities: ['design'],
        notes: 'Wireframes',
      },
    ],
    stranger: 'Erin Stone',
    taskless: { line: 9, project: 'Internal' },
    duplicateLine: 7,
    created: { projects: ['mobile-app', 'internal'], activities: ['design'] },
    dropped: ['Client', 'Project Code', 'Billable Rate', 'Cost Amount', 'Currency'],
  },
  kimai: {
    entries: [
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '09:00:00',
        duration: 5400,
        activities: ['dev'],
        notes: 'Header; footer and hero',
      },
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '22:30:00',
        duration: 9000,
        activities: ['support'],
        notes: 'Night shift\non call',
      },
      {
        user: 'bob',
        project: 'mobile-app',
        date_worked: '2024-03-05',
        start_time: '13:00:00',
        duration: 7200,
        activities: ['design'],
        notes: 'Mockups',
      },
    ],
    stranger: 'frank',
    taskless: { line: 8, project: 'Mobile App' },
    duplicateLine: 6,
    created: { projects: ['mobile-app'], activities: ['support', 'design'] },
    dropped: ['Rate', 'Customer', 'Exported', 'Tags', 'Hourly rate', 'Billable'],
  },
  solidtime: {
    entries: [
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '09:00:00',
        duration: 7200,
        activities: ['dev'],
        notes: 'Landing page, first draft',
      },
      {
        user: 'alice',
        project: 'website',
        date_worked: '2024-03-04',
        start_time: '23:15:00',
        duration: 5400,
        activities: ['dev'],
        notes: 'Hotfix "500" on checkout\n(rolled back at 1am)',
      },
      {
        user: 'bob',
        project: 'mobile-app',
        date_worked: '2024-03-05',
        start_time: '13:00:00',
        duration: 5400,
        activities: ['design'],
        notes: 'Moodboard',
      },
    ],
    stranger: 'Grace Hopper',
    taskless: { line: 8, project: 'Mobile App' },
    duplicateLine: 6,
    created: { projects: ['mobile-app'], activities: ['design'] },
    dropped: ['Client', 'Billable', 'Tags'],
  },
};

/** Sum of durations per "user project". */
export function sums(entries: readonly Record<string, any>[]) {
  const out: Record<string, number> = {};
  for (const e of entries) {
    const project = Array.isArray(e.project) ? e.project[0] : e.project;
    const k = `${e.user} ${project}`;
    out[k] = (out[k] ?? 0) + e.duration;
  }
  return out;
}

/** An entry as the API shows it, reduced to what the fixtures say. */
export function shown(t: Record<string, any>): ExpectedEntry {
  const e: ExpectedEntry = {
    user: t.user,
    project: t.project[0],
    date_worked: t.date_worked,
    start_time: t.start_time,
    duration: t.duration,
    activities: t.activities,
    notes: t.notes,
  };
  if (t.issue_uri) e.issue_uri = t.issue_uri;
  return e;
}

export const byStart = (a: ExpectedEntry, b: ExpectedEntry) =>
  `${a.user} ${a.date_worked} ${a.notes}`.localeCompare(`${b.user} ${b.date_worked} ${b.notes}`);
