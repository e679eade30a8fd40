// Clockify: Reports → Detailed → Export → Save as CSV. Dates in the workspace's format
// (MM/DD/YYYY by default), times on its 12- or 24-hour clock, in the exporting user's zone;
// the duration twice, as a clock (`Duration (h)`) and as decimal hours.
import { durationOf, type ImportFormat, startOf, taskRow } from './format';

export const clockify: ImportFormat = {
  name: 'clockify',
  title: 'a Clockify detailed report',
  required: [
    ['Email', 'User'],
    'Project',
    'Start Date',
    'Start Time',
    ['Duration (h)', 'Duration (decimal)', 'End Time'],
  ],
  reads: [
    'Project',
    'Description',
    'Task',
    'User',
    'Email',
    'Tags',
    'Start Date',
    'Start Time',
    'End Date',
    'End Time',
    'Duration (h)',
    'Duration (decimal)',
  ],
  tags: 'Tags',
  row(cell) {
    const project = cell('Project').trim();
    if (project === '') return 'the entry has no project';
    const start = startOf(cell('Start Date'), cell('Start Time'));
    if (!start) return `start ${cell('Start Date')} ${cell('Start Time')} is not a date and time`;
    const endDate = cell('End Date');
    const end = startOf(endDate || cell('Start Date'), cell('End Time'));
    const duration = durationOf(
      cell('Duration (h)') || cell('Duration (decimal)'),
      start,
      end,
      endDate !== '',
    );
    if (duration === undefined) return `duration ${cell('Duration (h)')} is not a duration`;
    return taskRow(cell, project, start, duration);
  },
};
