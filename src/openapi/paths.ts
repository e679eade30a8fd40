// The paths of GET /v0/openapi.json: every route of src/routes.ts with its parameters,
// request body and every status it answers (test/openapi.test.ts checks the route table
// against this list; the test helpers check every reply against it).
import { errorOfStatus } from './schemas';

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

// --- responses ------------------------------------------------------------------------

const JSON_TYPE = 'application/json';

/** The error answers, one per status, with the kinds that use it. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: object }> = {
  400: {
    name: 'BadRequest',
    description: 'Bad object (4), invalid identifier (5) or bad query value (11)',
  },
  401: {
    name: 'Unauthorized',
    description:
      'Invalid username (6), authentication failure (7) or authorization failure (9). ' +
      'A throttled or busy login also sends Retry-After (seconds).',
    headers: { 'Retry-After': { schema: { type: 'string' } } },
  },
  404: { name: 'NotFound', description: 'Object not found (1): `Nonexistent <object>`' },
  405: {
    name: 'MethodNotAllowed',
    description:
      'Request failure (10): the object cannot be deleted while it is used, or the path ' +
      'does not take this method',
    headers: { Allow: { required: true, schema: { type: 'string' } } },
  },
  409: {
    name: 'Conflict',
    description:
      'Invalid foreign key (3), slug(s) already exist (8), username already exists (12) ' +
      'or timer already running (13)',
  },
  413: { name: 'PayloadTooLarge', description: 'Bad object (4): the body is over 1 MiB' },
  500: { name: 'ServerError', description: 'Server error (2); the details are only logged' },
  503: {
    name: 'ServiceUnavailable',
    description: 'The server cannot take the request now (the database write lock is busy)',
    headers: { 'Retry-After': { required: true, schema: { type: 'string' } } },
  },
};

export const errorResponses = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([status, { name, description, headers }]) => [
    name,
    {
      description,
      ...(headers ? { headers } : {}),
      content: { [JSON_TYPE]: { schema: errorOfStatus(Number(status)) } },
    },
  ]),
);

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { $ref: `#/components/responses/${ERROR_RESPONSES[s]?.name}` },
    ]),
  );

const ok = (description: string, body: object, headers?: object) => ({
  '200': {
    description,
    ...(headers ? { headers } : {}),
    content: { [JSON_TYPE]: { schema: body } },
  },
});

const listHeaders = {
  'X-Total-Count': {
    required: true,
    description: 'Matches before paging',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  Link: {
    description: '`<…>; rel="next"` while a paged list has more',
    schema: { type: 'string' },
  },
};

const list = (name: string) =>
  ok(
    `The matching objects, in order of last change`,
    { type: 'array', items: schema(name) },
    listHeaders,
  );

const deleted = { '200': { description: 'Deleted: an empty body' } };

/** A list that may also be answered as CSV (`Accept: text/csv` or `format=csv`). */
const withCsv = (responses: { '200': { content: object } }) => ({
  '200': {
    ...responses['200'],
    content: {
      ...responses['200'].content,
      'text/csv': { schema: { type: 'string', description: 'RFC 4180, streamed' } },
    },
  },
});

// --- security and bodies ---------------------------------------------------------------

/** GET and DELETE: `?token=` or a Bearer header. */
const queryAuth = [{ queryToken: [] }, { bearerAuth: [] }];
/** POST: the body's `auth` block (see the request body), or a Bearer header. */
const bodyAuth = [{}, { bearerAuth: [] }];

const writeBody = (object: string, required = true) => ({
  required,
  content: {
    [JSON_TYPE]: {
      schema: {
        type: 'object',
        properties: {
          auth: {
            ...schema('TokenAuth'),
            description: 'The token (TimeSync); may be left out when a Bearer header is sent',
          },
          object: schema(object),
        },
        ...(required ? { required: ['object'] } : {}),
      },
    },
  },
});

// --- operations --------------------------------------------------------------------------

interface Resource {
  tag: string;
  /** The object's component schema. */
  name: string;
  /** The path parameter (a component parameter) of one object. */
  id: string;
  /** The list's query parameters beyond skip/limit/token. */
  filters: string[];
  /** The one object's query parameters beyond token. */
  oneParams: string[];
  /** Whether DELETE may be refused while the object is used (405). */
  deleteInUse: boolean;
}

/** GET/POST on the collection, GET/POST/DELETE on one object. */
function resource(r: Resource, plural: string) {
  const listResponses = list(r.name);
  return {
    collection: {
      get: {
        tags: [r.tag],
        summary: `List ${plural}`,
        security: queryAuth,
        parameters: [...r.filters, 'skip', 'limit', 'token'].map(param),
        responses: {
          ...(r.name === 'Time' ? withCsv(listResponses) : listResponses),
          ...errors(400, 401, 500),
        },
      },
      post: {
        tags: [r.tag],
        summary: `Create ${r.name === 'OrgRole' ? 'an org role' : `a ${r.tag.slice(0, -1)}`}`,
        security: bodyAuth,
        requestBody: writeBody(`${r.name}Create`),
        responses: {
          ...ok('The new object, as GET shows it', schema(r.name)),
          ...errors(400, 401, 409, 413, 500, 503),
        },
      },
    },
    one: {
      parameters: [param(r.id)],
      get: {
        tags: [r.tag],
        summary: 'Get one',
        security: queryAuth,
        parameters: [...r.oneParams, 'token'].map(param),
        responses: { ...ok('The object', schema(r.name)), ...errors(400, 401, 404, 500) },
      },
      post: {
        tags: [r.tag],
        summary: 'Update the fields sent',
        security: bodyAuth,
        requestBody: writeBody(`${r.name}Update`),
        responses: {
          ...ok('The updated object, as GET shows it', schema(r.name)),
          ...errors(400, 401, 404, 409, 413, 500, 503),
        },
      },
      delete: {
        tags: [r.tag],
        summary: 'Delete',
        security: queryAuth,
        parameters: [param('token')],
        responses: {
          ...deleted,
          ...errors(400, 401, 404, ...(r.deleteInUse ? [405] : []), 500, 503),
        },
      },
    },
  };
}

const roles = resource(
  {
    tag: 'org-roles',
    name: 'OrgRole',
    id: 'slug',
    filters: [],
    oneParams: [],
    deleteInUse: true,
  },
  'org roles, by slug',
);
const users = resource(
  {
    tag: 'users',
    name: 'User',
    id: 'username',
    filters: ['role', 'include_deleted'],
    oneParams: ['include_deleted'],
    deleteInUse: false,
  },
  'users',
);
const projects = resource(
  {
    tag: 'projects',
    name: 'Project',
    id: 'slug',
    filters: ['projectUser', 'include_deleted', 'include_revisions'],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: true,
  },
  'projects',
);
const activities = resource(
  {
    tag: 'activities',
    name: 'Activity',
    id: 'slug',
    filters: ['include_deleted', 'include_revisions'],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: true,
  },
  'activities',
);
const times = resource(
  {
    tag: 'times',
    name: 'Time',
    id: 'uuid',
    filters: [
      'user',
      'project',
      'activity',
      'start',
      'end',
      'include_deleted',
      'include_revisions',
      'format',
    ],
    oneParams: ['include_deleted', 'include_revisions'],
    deleteInUse: false,
  },
  'time entries visible to the caller',
);

// TIGHTEN AFTER MERGE: /v0/reports, /v0/timer, /v0/timer/stop and /v0/info were written
// from issue 15's text while their branches were being built.
const timerUser = param('timerUser');
const extensionPaths = {
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

export const paths = {
  '/health': {
    get: {
      tags: ['meta'],
      summary: 'Liveness (outside /v0, no token)',
      responses: { ...ok('Serving', schema('Health')) },
    },
  },
  '/v0/openapi.json': {
    get: {
      tags: ['meta'],
      summary: 'This document (no token)',
      responses: {
        ...ok('OpenAPI 3.1', {
          type: 'object',
          properties: { openapi: { const: '3.1.0' }, paths: { type: 'object' } },
          required: ['openapi', 'paths'],
        }),
      },
    },
  },
  '/v0/login': {
    post: {
      tags: ['auth'],
      summary: 'Exchange credentials for a token',
      requestBody: {
        required: true,
        content: { [JSON_TYPE]: { schema: schema('LoginRequest') } },
      },
      responses: {
        ...ok('A token', schema('Token')),
        ...errors(400, 401, 413, 500, 503),
      },
    },
  },
  '/v0/users/org-roles': roles.collection,
  '/v0/users/org-roles/{slug}': roles.one,
  '/v0/users': users.collection,
  '/v0/users/{username}': users.one,
  '/v0/projects': projects.collection,
  '/v0/projects/{slug}': projects.one,
  '/v0/activities': activities.collection,
  '/v0/activities/{slug}': activities.one,
  '/v0/times': times.collection,
  '/v0/times/{uuid}': times.one,
  ...extensionPaths,
};
