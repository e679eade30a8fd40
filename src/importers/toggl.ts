// Toggl Track: Reports → Detailed → Export → CSV. Start and end are the wall clock of the
// exporting user's profile zone, in that profile's date and time formats (12- or 24-hour).
import { durationOf, type ImportFormat, startOf, taskRow } from './format';
import { parseDuration } from './values';

export const toggl: ImportFormat = {
  name: 'toggl',
  title: 'a Toggl Track detailed report',
  required: [['Email', 'User'], 'Project', 'Start date', 'Start time', ['Duration', 'End time']],
  reads: [
    'User',
    'Email',
    'Project',
    'Task',
    'Description',
    'Start date',
    'Start time',
    'End date',
    'End time',
    'Duration',
    'Tags',
  ],
  tags: 'Tags',
  row(cell) {
    const project = cell('Project').trim();
    if (project === '') return 'the entry has no project';
    const start = startOf(cell('Start date'), cell('Start time'));
    if (!start) return `start ${cell('Start date')} ${cell('Start time')} is not a date and time`;
    // The end is read only when the Duration cell is not a duration.
    const endDate = cell('End date');
    const duration =
      parseDuration(cell('Duration')) ??
      durationOf(
        '',
        start,
        startOf(endDate || cell('Start date'), cell('End time')),
        endDate !== '',
      );
    if (duration === undefined) return `duration ${cell('Duration')} is not a duration`;
    return taskRow(cell, project, start, duration);
  },
};
