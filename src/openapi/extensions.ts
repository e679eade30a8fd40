// The paths of the extensions of SPEC §11: GET /v0/reports (and its CSV), /v0/timer, POST
// /v0/timer/stop and GET /v0/info (docs/api-reports.md, docs/api-timer.md); their objects'
// schemas are in src/shapes/ (report.ts, timer.ts, meta.ts). Every reply of
// test/api/reports/reports.test.ts, csv.test.ts, timer.test.ts and info.test.ts is checked
// against them.
import {
  bodyAuth,
  deleted,
  errors,
  listHeaders,
  ok,
  param,
  queryAuth,
  schema,
  withCsv,
  writeBody,
} from './responses';

const timerUser = param('timerUser');
const tokenId = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The token's id; one that is not a positive integer is 400 `Invalid identifier`",
  schema: { type: 'string' },
};
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
        'status',
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
      summary:
        'Stop the running timer: creates the time entry (or, with add_to_entry, adds to the one entry of its row and day); 409 Timer too short before one rounding step',
      security: bodyAuth,
      parameters: [timerUser],
      requestBody: writeBody('TimerStop', false),
      responses: {
        ...ok('The new time entry, or the entry added to (add_to_entry)', schema('Time')),
        ...errors(400, 401, 404, 409, 413, 500, 503),
      },
    },
  },
  // Personal API tokens (issue 33, docs/api-tokens.md). POST /v0/tokens takes no
  // Idempotency-Key: a stored answer would keep the secret (openapi/idempotency.ts).
  '/v0/tokens': {
    get: {
      tags: ['tokens'],
      summary: "The caller's personal API tokens (never their secrets), revoked ones left out",
      security: queryAuth,
      parameters: [param('tokenUser'), param('limit'), param('skip'), param('token')],
      responses: {
        ...ok(
          'The tokens, oldest first',
          { type: 'array', items: schema('PersonalToken') },
          listHeaders,
        ),
        ...errors(400, 401, 404, 500),
      },
    },
    post: {
      tags: ['tokens'],
      summary: 'Make a personal API token: its secret is in this answer only',
      security: bodyAuth,
      requestBody: writeBody('PersonalTokenCreate'),
      responses: {
        ...ok('The new token, with its secret', schema('NewPersonalToken')),
        ...errors(400, 401, 409, 413, 500, 503),
      },
    },
  },
  '/v0/tokens/{id}': {
    delete: {
      tags: ['tokens'],
      summary: 'Revoke a personal API token (its owner or a site admin)',
      security: queryAuth,
      parameters: [tokenId, param('token')],
      responses: { ...deleted, ...errors(400, 401, 404, 500, 503) },
    },
  },
  '/v0/imports': {
    post: {
      tags: ['imports'],
      summary: "Import another tracker's export (the file is the body, streamed)",
      description:
        'Admins import every row; site managers too; anyone else only their own rows (the others are skipped and counted). The token comes in the Authorization header. docs/import.md',
      security: [{ bearerAuth: [] }],
      parameters: [
        'importFormat',
        'dry_run',
        'create_users',
        'default_activity',
        'tags_as_activities',
        'timezone',
      ].map(param),
      requestBody: {
        required: true,
        description: 'The export as the tool wrote it: CSV (Kimai also XLSX)',
        content: {
          'text/csv': { schema: { type: 'string' } },
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
            schema: { type: 'string', format: 'binary' },
          },
        },
      },
      responses: {
        ...ok('The report', schema('ImportReport')),
        // 400: a bad query value, or a file that is not that tool's export (its columns named)
        ...errors(400, 401, 500, 503),
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
