// Harvest: Reports → Detailed time → Export → CSV. A day and decimal hours, no clock
// times; the person as First Name and Last Name; an External Reference URL (the issue a
// timer was started from in Jira, GitHub, …) becomes the entry's issue_uri.
import { type ImportFormat, orNull } from './format';
import { isHttpUrl, parseDate, parseDuration } from './values';

export const harvest: ImportFormat = {
  name: 'harvest',
  title: 'a Harvest detailed time report',
  required: ['Date', 'Project', 'Hours', 'First Name', 'Last Name'],
  reads: [
    'Date',
    'Project',
    'Task',
    'Notes',
    'Hours',
    'First Name',
    'Last Name',
    'External Reference URL',
  ],
  row(cell) {
    const project = cell('Project').trim();
    if (project === '') return 'the entry has no project';
    const date = parseDate(cell('Date'));
    if (date === undefined) return `date ${cell('Date')} is not a date`;
    const duration = parseDuration(cell('Hours'));
    if (duration === undefined) return `hours ${cell('Hours')} is not a number of hours`;
    const name = `${cell('First Name').trim()} ${cell('Last Name').trim()}`.trim();
    const task = cell('Task').trim();
    const url = cell('External Reference URL').trim();
    return {
      email: null,
      name: name === '' ? null : name,
      project,
      activities: task === '' ? [] : [task],
      tags: [],
      notes: orNull(cell('Notes')),
      start: null,
      date,
      duration,
      issue_uri: isHttpUrl(url) ? url : null,
    };
  },
};
