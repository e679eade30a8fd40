// What every importer's format module declares (the columns it needs and reads, how one
// record becomes a row), the normalized row they all produce, and the pieces they share:
// a start and a duration from whichever of start, end and duration a tracker writes.
import { hash } from 'node:crypto';
import { IMPORT_FORMATS } from '../shapes/import';
import {
  parseClock,
  parseDate,
  parseDateTime,
  parseDuration,
  type WallTime,
  wallSeconds,
} from './values';

/** The tools, as FORMAT names them (the OpenAPI document lists them from the shape). */
export const FORMAT_NAMES = IMPORT_FORMATS;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** When the entry started: as the file wrote it, or an instant to show in a time zone. */
export type Start = { wall: WallTime } | { at: number };

/** One entry of the file, in our terms: what the engine matches and writes. */
export interface ImportRow {
  /** The file's line where its record starts. */
  line: number;
  /** 22 characters identifying the entry: the same in any later export that has it. */
  key: string;
  /** The person: an email address and/or a name (a username or a display name). */
  email: string | null;
  name: string | null;
  project: string;
  /** Task or activity names (none: the project's default activity). */
  activities: string[];
  tags: string[];
  notes: string | null;
  /** With a time of day; null when the file has only a date (`date`). */
  start: Start | null;
  date: string | null;
  /** seconds */
  duration: number;
  issue_uri: string | null;
}

/** A record that cannot be an entry, with why. */
export interface RowProblem {
  line: number;
  problem: string;
}

/** A record's value by column name (case-insensitive; '' for a column the file lacks). */
export type Cells = (column: string) => string;

export type RowFields = Omit<ImportRow, 'line' | 'key'>;

export interface ImportFormat {
  name: FormatName;
  /** What the file is, for messages: `a Toggl Track detailed report`. */
  title: string;
  /** Columns the file must have; an array is alternatives, one of which must be there. */
  required: (string | string[])[];
  /** Every column the format reads; the file's others are reported as dropped. */
  reads: string[];
  /** The column of tags: read only with --tags-as-activities, else dropped. */
  tags?: string;
  /** A record as a row, or the text of its problem. */
  row(cell: Cells): RowFields | string;
}

/** Tags as trackers join them: `a, b`. */
export const splitTags = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

/** Empty text is null; other text as it is, without surrounding whitespace. */
export const orNull = (text: string): string | null => {
  const t = text.trim();
  return t === '' ? null : t;
};

/** A person's cell: an address when it has an `@`, else a name. */
export const person = (text: string): { email: string | null; name: string | null } => {
  const t = text.trim();
  if (t === '') return { email: null, name: null };
  return t.includes('@') ? { email: t, name: null } : { email: null, name: t };
};

/**
 * The row of an entry that starts at a date and time (every format but Harvest's): the
 * person, the project, one activity or none, the tags and notes from the Tags and
 * Description columns, and its start and duration as the format read them.
 */
export const startedRow = (
  cell: Cells,
  email: string | null,
  name: string | null,
  project: string,
  activity: string,
  start: Start,
  duration: number,
): RowFields => ({
  // One literal, no spread: spreading the person's fields in gave every row's object a
  // hidden class of its own (55,000 alive in a heap snapshot mid-import) and made the dry
  // run twice as slow.
  email,
  name,
  project,
  activities: activity === '' ? [] : [activity],
  tags: splitTags(cell('Tags')),
  notes: orNull(cell('Description')),
  start,
  date: null,
  duration,
  issue_uri: null,
});

/**
 * The row of a tracker whose export names one person by User and Email, a project (read
 * and checked by the format), a Task (its activity, if any), Tags and a Description, with
 * a start and a duration read from the format's own columns (Toggl Track, Clockify).
 */
export const taskRow = (cell: Cells, project: string, start: Start, duration: number): RowFields =>
  startedRow(
    cell,
    orNull(cell('Email')),
    orNull(cell('User')),
    project,
    cell('Task').trim(),
    start,
    duration,
  );

/** A date and a clock from two cells, or from one cell that has both. */
export function startOf(dateCell: string, clockCell: string | undefined): Start | undefined {
  if (clockCell === undefined) return parseDateTime(dateCell);
  const date = parseDate(dateCell);
  if (date === undefined) return undefined;
  // A clock alone (the usual cell) is read as it is; one with an offset as an instant.
  const clock = parseClock(clockCell);
  if (clock !== undefined) return { wall: { date, clock } };
  const dt = parseDateTime(`${date} ${clockCell.trim()}`);
  return dt ?? undefined;
}

/**
 * The duration of an entry: the Duration text when it reads as one, else end − start. An
 * end before its start on a clock alone (no end date) is the next day's: the entry ran
 * across midnight.
 */
export function durationOf(
  text: string,
  start: Start | undefined,
  end: Start | undefined,
  endHasDate: boolean,
): number | undefined {
  const d = parseDuration(text);
  if (d !== undefined) return d;
  if (!start || !end) return undefined;
  let seconds: number;
  if ('at' in start && 'at' in end) seconds = (end.at - start.at) / 1000;
  else if ('wall' in start && 'wall' in end)
    seconds = wallSeconds(end.wall) - wallSeconds(start.wall);
  else return undefined;
  if (seconds < 0 && !endHasDate) seconds += 86_400;
  return seconds >= 0 ? Math.round(seconds) : undefined;
}

/** A clock cell read alone (kimai's From/To with the Date column). */
export const clockOf = (text: string) => parseClock(text);

/** The key of a row: a digest of what identifies the entry, whatever the file's layout. */
export function rowKey(format: FormatName, f: RowFields): string {
  const start =
    f.start === null
      ? `d${f.date}`
      : 'at' in f.start
        ? `a${f.start.at}`
        : `w${f.start.wall.date}T${f.start.wall.clock}`;
  const text = [
    format,
    (f.email ?? '').toLowerCase(),
    f.name ?? '',
    f.project,
    f.activities.join('\u001e'),
    f.tags.join('\u001e'),
    f.notes ?? '',
    start,
    f.duration,
    f.issue_uri ?? '',
  ].join('\u001f');
  // 132 bits of SHA-256 as base64: no two rows of any number of files collide.
  return hash('sha256', text, 'base64').slice(0, 22);
}
