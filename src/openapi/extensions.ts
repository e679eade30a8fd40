// The extensions of SPEC §11: GET /v0/reports (and its CSV), /v0/timer, POST
// /v0/timer/stop and GET /v0/info (docs/api-reports.md, docs/api-timer.md). Every reply
// of test/api/reports/reports.test.ts, csv.test.ts, timer.test.ts and info.test.ts is checked against
// these schemas; a report row's keys depend on its grouping, so they are all optional.
import {
  bodyAuth,
  deleted,
  errors,
  ok,
  param,
  queryAuth,
  schema,
  withCsv,
  writeBody,
} from './responses';
import { accepted, duration, nullable, ref } from './schemas';

const reportRow = {
  type: 'object',
  properties: {
    project: { type: 'array', items: { type: 'string' }, description: "The project's slugs" },
    project_name: { type: 'string' },
    activity: { type: 'string' },
    user: { type: 'string' },
    day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    week: {
      type: 'string',
      pattern: '^-?\\d{4}-W\\d{2}$',
      description: 'ISO 8601 week; 0000-01-01 and 02 are in -0001-W52',
    },
    month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
    duration: { type: 'integer', minimum: 0 },
    entries: { type: 'integer', minimum: 0 },
  },
  required: ['duration', 'entries'],
  description: 'One key per grouping, then the totals of the entries in that group',
};

export const extensionSchemas = {
  GroupBy: { enum: ['project', 'activity', 'user', 'day', 'week', 'month'] },
  Report: {
    type: 'object',
    properties: {
      start: { type: ['string', 'null'] },
      end: { type: ['string', 'null'] },
      group_by: { type: 'array', items: ref('GroupBy'), minItems: 1, maxItems: 3 },
      rows: { type: 'array', items: ref('ReportRow') },
      total: {
        type: 'object',
        properties: {
          duration: { type: 'integer', minimum: 0 },
          entries: { type: 'integer', minimum: 0 },
        },
        required: ['duration', 'entries'],
      },
    },
    required: ['start', 'end', 'group_by', 'rows', 'total'],
  },
  ReportRow: reportRow,
  Timer: {
    type: 'object',
    properties: {
      project: {
        type: 'array',
        items: ref('Slug'),
        description: "All the project's slugs, as a time entry shows them",
      },
      activities: {
        type: 'array',
        items: ref('Slug'),
        description: "[] until stop when the project's default activity is to be used",
      },
      notes: { type: ['string', 'null'] },
      issue_uri: { type: ['string', 'null'] },
      date_worked: ref('Date'),
      started_at: {
        type: 'string',
        format: 'date-time',
        description: 'When the timer was started (ISO 8601, UTC, milliseconds)',
      },
      elapsed: { type: 'integer', minimum: 0, description: 'Whole seconds since started_at' },
    },
    required: [
      'project',
      'activities',
      'notes',
      'issue_uri',
      'date_worked',
      'started_at',
      'elapsed',
    ],
    additionalProperties: false,
  },
  TimerStart: accepted(
    {
      project: ref('Slug'),
      activities: { type: 'array', items: ref('Slug') },
      notes: nullable('string'),
      issue_uri: nullable('string'),
      date_worked: ref('Date'),
    },
    ['project'],
  ),
  TimerStop: accepted({
    duration,
    notes: nullable('string'),
    issue_uri: nullable('string'),
    activities: { type: 'array', items: ref('Slug') },
    date_worked: ref('Date'),
  }),
  Info: {
    type: 'object',
    properties: {
      name: { const: 'timetrack' },
      version: { type: 'string' },
      instance_name: { type: 'string' },
      auth_modules: { type: 'array', items: { enum: ['password', 'ldap'] }, minItems: 1 },
      api: { const: 'v0' },
    },
    required: ['name', 'version', 'instance_name', 'auth_modules', 'api'],
    additionalProperties: false,
  },
};

const timerUser = param('timerUser');
export const extensionPaths = {
  '/v0/reports': {
    get: {
      tags: ['reports'],
      summary: 'Totals of the visible time entries, grouped',
      security: queryAuth,
      parameters: [
        'start',
        'end',
        'user',
        'project',
        'activity',
        'include_deleted',
        'group_by',
        'format',
        'token',
      ].map(param),
      responses: {
        ...withCsv(ok('The report', schema('Report'))),
        ...errors(400, 401, 500, 503),
      },
    },
  },
  '/v0/timer': {
    get: {
      tags: ['timer'],
      summary: "The caller's running timer",
      security: queryAuth,
      parameters: [timerUser, param('token')],
      responses: {
        ...ok('The running timer', schema('Timer')),
        ...errors(400, 401, 404, 500),
      },
    },
    post: {
      tags: ['timer'],
      summary: 'Start a timer',
      security: bodyAuth,
      requestBody: writeBody('TimerStart'),
      responses: {
        ...ok('The started timer', schema('Timer')),
        ...errors(400, 401, 404, 409, 413, 500, 503),
      },
    },
    delete: {
      tags: ['timer'],
      summary: 'Discard the running timer',
      security: queryAuth,
      parameters: [timerUser, param('token')],
      responses: { ...deleted, ...errors(400, 401, 404, 500, 503) },
    },
  },
  '/v0/timer/stop': {
    post: {
      tags: ['timer'],
      summary: 'Stop the running timer: creates the time entry',
      security: bodyAuth,
      parameters: [timerUser],
      requestBody: writeBody('TimerStop', false),
      responses: {
        ...ok('The new time entry', schema('Time')),
        ...errors(400, 401, 404, 409, 413, 500, 503),
      },
    },
  },
  '/v0/info': {
    get: {
      tags: ['meta'],
      summary: 'What this server is (no token)',
      responses: { ...ok('The server', schema('Info')) },
    },
  },
};
