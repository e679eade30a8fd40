// The endpoints of SPEC §11 built on other branches of issue 15: GET /v0/reports (and
// its CSV), /v0/timer, POST /v0/timer/stop and GET /v0/info, described ahead of them.
// TIGHTEN AFTER MERGE: written from issue 15's text before the reports, timer and info
// branches landed; fields whose details the issue leaves open are left permissive.
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
    week: { type: 'string', pattern: '^\\d{4}-W\\d{2}$' },
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
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: 'The project (a slug, or all its slugs)',
      },
      activities: { type: 'array', items: { type: 'string' } },
      notes: { type: ['string', 'null'] },
      issue_uri: { type: ['string', 'null'] },
      date_worked: { type: ['string', 'null'] },
      started_at: { type: 'string', description: 'When the timer was started' },
      elapsed: { type: 'number', minimum: 0, description: 'Seconds since started_at' },
    },
    required: ['project', 'activities', 'notes', 'issue_uri', 'date_worked', 'started_at'],
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
      auth_modules: { type: 'array', items: { type: 'string' } },
      api: { const: 'v0' },
    },
    required: ['name', 'version', 'instance_name', 'auth_modules', 'api'],
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
        ...errors(400, 401, 500),
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
      parameters: [timerUser],
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
