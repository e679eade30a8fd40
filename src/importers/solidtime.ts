// solidtime: Time → Export → CSV (detailed time entries). Start and End as
// `YYYY-MM-DD HH:MM:SS` in the exporting user's zone; the person by name only.
import { durationOf, type ImportFormat, person, startedRow } from './format';
import { parseDateTime } from './values';

export const solidtime: ImportFormat = {
  name: 'solidtime',
  title: 'a solidtime time entries export',
  required: ['User', 'Project', 'Start', ['Duration', 'Duration (decimal)', 'End']],
  reads: [
    'Description',
    'Task',
    'Project',
    'User',
    'Start',
    'End',
    'Duration',
    'Duration (decimal)',
    'Tags',
  ],
  tags: 'Tags',
  row(cell) {
    const project = cell('Project').trim();
    if (project === '') return 'the entry has no project';
    const start = parseDateTime(cell('Start'));
    if (!start) return `start ${cell('Start')} is not a date and time`;
    const end = parseDateTime(cell('End'));
    const duration = durationOf(cell('Duration') || cell('Duration (decimal)'), start, end, true);
    if (duration === undefined) return `duration ${cell('Duration')} is not a duration`;
    const who = person(cell('User'));
    return startedRow(cell, who.email, who.name, project, cell('Task').trim(), start, duration);
  },
};
