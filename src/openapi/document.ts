// GET /v0/openapi.json: the OpenAPI 3.1 description of every endpoint: the operations
// written here (paths.ts, responses.ts; extensions.ts for the endpoints of SPEC §11), the
// objects' schemas declared once in src/shapes/ and listed by schemas.ts.
// test/api/openapi/openapi.test.ts validates it and compares it with the route table;
// test/helpers/openapi-check.ts holds every reply of the HTTP suite to it.
import { JsonText } from '../json-text';
import { IMPORT_FORMATS } from '../shapes/import';
import { approvalPaths } from './approvals';
import { extensionPaths } from './extensions';
import { idempotencyKeyParameter, withIdempotencyKeys } from './idempotency';
import { keptRowPaths } from './kept-rows';
import { paths } from './paths';
import { errorResponses } from './responses';
import { schemas } from './schemas';

const description = `A self-hosted time-tracking server speaking the TimeSync API.

**Tokens.** Log in with \`POST /v0/login\` for a token. GET and DELETE carry it as the query
parameter \`token\`; every other POST carries it in its body's \`auth\` block
(\`{"auth": {"type": "token", "token": "…"}, "object": {…}}\`); any request may send
\`Authorization: Bearer <token>\` instead (when two are sent they must agree). A personal
API token (\`tt_…\`, made with \`POST /v0/tokens\`) is accepted in all three places.

**Conventions.** \`HEAD\` is answered wherever \`GET\` is (same status and headers, no body).
Any other method on a path listed here answers 405 (\`Method not allowed\`, with \`Allow\`);
a path not listed here answers 404 (\`Nonexistent endpoint\`); both carry the Error body.
\`OPTIONS\` is a CORS preflight (204) on any path. A trailing slash is ignored. Every error
is an Error object whose \`status\` is the HTTP status.

**Retries.** Every POST that creates or changes something (but \`POST /v0/tokens\`) takes
an \`Idempotency-Key\` header: a retry with the same key gets the first answer again
instead of doing the write twice (see the parameter).`;

const queryParam = (name: string, description: string, schema: object, repeat = false) => ({
  name,
  in: 'query',
  description,
  schema: repeat ? { type: 'array', items: schema } : schema,
  ...(repeat ? { style: 'form', explode: true } : {}),
});
const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description: `${description}; a malformed one is 400 \`Invalid identifier\``,
  schema: { type: 'string' },
});
const text = { type: 'string' };
const bool = {
  type: 'string',
  description: 'Absent, `false` or `0`: false; empty, `true` or `1` (any case): true',
};
const count = { type: 'string', pattern: '^\\d{1,15}$' };

const parameters = {
  token: queryParam('token', 'The token (GET, DELETE); or send a Bearer header', text),
  skip: queryParam('skip', 'Objects to skip', count),
  limit: queryParam('limit', 'Page size; 0 or absent: the whole list', count),
  include_deleted: queryParam('include_deleted', 'Also soft-deleted objects', bool),
  include_revisions: queryParam('include_revisions', 'Add `parents`, newest first', bool),
  role: queryParam('role', 'Holders of one of these org roles', text, true),
  projectUser: queryParam('user', 'Projects where one of these users has a role', text, true),
  user: queryParam('user', "Entries of these users (by owner's username)", text, true),
  project: queryParam('project', 'Entries of these projects (any slug)', text, true),
  activity: queryParam('activity', 'Entries having one of these activities', text, true),
  start: queryParam('start', 'First date_worked (YYYY-MM-DD, inclusive)', text),
  end: queryParam('end', 'Last date_worked (YYYY-MM-DD, inclusive)', text),
  notes_contains: queryParam(
    'notes_contains',
    'Extension: entries whose notes contain this text (1-500 characters; ASCII letters in any case)',
    text,
  ),
  order: queryParam(
    'order',
    'Extension: list order; absent: last change first to last (SPEC §6); `-` is descending, ties by last change',
    { enum: ['date_worked', '-date_worked', 'duration', '-duration'] },
  ),
  format: queryParam('format', '`csv` answers text/csv (as does `Accept: text/csv`)', {
    enum: ['csv'],
  }),
  group_by: queryParam(
    'group_by',
    'Groupings in order, 1 to 3',
    { $ref: '#/components/schemas/GroupBy' },
    true,
  ),
  timerUser: queryParam('user', "Admins: another user's timer", text),
  tokenUser: queryParam('user', "Site admins: another user's tokens", text),
  status: queryParam(
    'status',
    'Only entries whose week part is `approved`, `submitted` or `open` (open or rejected: not locked)',
    { enum: ['approved', 'submitted', 'open'] },
  ),
  partStatus: queryParam('status', 'Only week parts of this status', {
    enum: ['open', 'submitted', 'approved', 'rejected'],
  }),
  partUser: pathParam('username', "The person's username, in any letter case"),
  week: pathParam('week', 'An ISO 8601 week, YYYY-Www'),
  importFormat: {
    ...queryParam('format', 'The tool the file was exported from', { enum: [...IMPORT_FORMATS] }),
    required: true,
  },
  dry_run: queryParam('dry_run', 'Report what would be imported; write nothing', bool),
  create_users: queryParam(
    'create_users',
    'Create the people no user matches (inactive, no password; site managers and admins)',
    bool,
  ),
  default_activity: queryParam(
    'default_activity',
    'Activity slug for rows without a task whose project has no default activity',
    text,
  ),
  tags_as_activities: queryParam('tags_as_activities', 'Tags become activities too', bool),
  timezone: queryParam(
    'timezone',
    "IANA zone for files with UTC or offset times (default: each person's, else the server's)",
    text,
  ),
  slug: pathParam('slug', 'Any slug of the object'),
  username: pathParam('username', 'A username, in any letter case'),
  uuid: pathParam('uuid', 'A uuid, in any letter case'),
  idempotencyKey: idempotencyKeyParameter,
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'timetrack', version: 'v0', description, license: { name: 'MIT' } },
  servers: [{ url: '/' }],
  tags: ['meta', 'auth', 'users', 'org-roles', 'projects', 'activities', 'times']
    .concat(['reports', 'timer', 'tokens', 'approvals', 'imports', 'timesheet'])
    .map((name) => ({ name })),
  paths: withIdempotencyKeys({
    ...paths,
    ...extensionPaths,
    ...approvalPaths,
    ...keptRowPaths,
  }),
  components: {
    schemas,
    responses: errorResponses,
    parameters,
    securitySchemes: {
      queryToken: {
        type: 'apiKey',
        in: 'query',
        name: 'token',
        description: 'GET and DELETE (TimeSync)',
      },
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Any request: a login token (a JWT) or a personal API token (`tt_…`)',
      },
    },
  },
};

/** The document as sent: serialised once. */
export const openApiText = new JsonText(JSON.stringify(openApiDocument));
