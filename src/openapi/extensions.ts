// The paths of the extensions of SPEC §11: GET /v0/reports (and its CSV), /v0/timer, POST
// /v0/timer/stop and GET /v0/info (docs/api-reports.md, docs/api-timer.md); their objects'
// schemas are in src/shapes/ (report.ts, timer.ts, meta.ts). Every reply of
// test/api/reports/reports.test.ts, csv.test.ts, timer.test.ts and info.test.ts is checked
// against them.
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
        'notes_contains',
        'include_deleted',
        'group_by',
        'format',
        'token',
      ].map(param),
      responses: {
        ...withCsv(ok('The report', schema('Report'))),
        // 503: a large report, streamed, found every stream slot busy (--max-streamed-lists).
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
