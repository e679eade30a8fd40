// Kimai: Times → Export → CSV or Excel. Date, From and To in the exporting user's locale
// and zone; Duration as hours:minutes, decimal hours or seconds; User as the name shown
// (username or alias) or, with the E-mail column, an address.
import { durationOf, type ImportFormat, orNull, person, type Start, startedRow } from './format';
import { parseClock, parseDate, parseDateTime } from './values';

/** From/To: a clock on the Date's day, or a whole date and time (XLSX cells). */
function at(dateCell: string, clockCell: string): Start | undefined {
  const whole = parseDateTime(clockCell);
  if (whole) return whole;
  const date = parseDate(dateCell);
  const clock = parseClock(clockCell);
  return date !== undefined && clock !== undefined ? { wall: { date, clock } } : undefined;
}

export const kimai: ImportFormat = {
  name: 'kimai',
  title: 'a Kimai timesheet export',
  required: ['Date', 'From', 'User', 'Project', ['Duration', 'To']],
  reads: [
    'Date',
    'From',
    'To',
    'Duration',
    'User',
    'E-mail',
    'Email',
    'Project',
    'Activity',
    'Description',
    'Tags',
  ],
  tags: 'Tags',
  row(cell) {
    const project = cell('Project').trim();
    if (project === '') return 'the entry has no project';
    const start = at(cell('Date'), cell('From'));
    if (!start) return `start ${cell('Date')} ${cell('From')} is not a date and time`;
    const end = at(cell('Date'), cell('To'));
    // Kimai keeps seconds: a bare whole number is seconds, not hours.
    const raw = cell('Duration').trim();
    const duration = /^\d+$/.test(raw) ? Number(raw) : durationOf(raw, start, end, false);
    if (duration === undefined) return `duration ${raw} is not a duration`;
    const who = person(cell('User'));
    const email = orNull(cell('E-mail') || cell('Email')) ?? who.email;
    return startedRow(cell, email, who.name, project, cell('Activity').trim(), start, duration);
  },
};
