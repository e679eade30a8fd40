// The building blocks of the paths of GET /v0/openapi.json (paths.ts): the answers every
// operation shares (errors by status, lists, empty DELETE, CSV), the token schemes and
// the `{auth, object}` body of a write.
import { errorOfStatus } from './schemas';

export const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

// --- responses ------------------------------------------------------------------------

export const JSON_TYPE = 'application/json';

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
      'Invalid foreign key (3), slug(s) already exist (8), username already exists (12), ' +
      'timer already running (13), period locked (14), or an Idempotency-Key whose first request is still ' +
      'being answered (`Idempotency key in use`, with Retry-After)',
    headers: { 'Retry-After': { schema: { type: 'string' } } },
  },
  422: {
    name: 'UnprocessableContent',
    description:
      '`Idempotency key reused`: the Idempotency-Key was used within 24 h for a different request',
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

export const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { $ref: `#/components/responses/${ERROR_RESPONSES[s]?.name}` },
    ]),
  );

export const ok = (description: string, body: object, headers?: object) => ({
  '200': {
    description,
    ...(headers ? { headers } : {}),
    content: { [JSON_TYPE]: { schema: body } },
  },
});

export const listHeaders = {
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

export const list = (name: string) =>
  ok(
    `The matching objects, in order of last change`,
    { type: 'array', items: schema(name) },
    listHeaders,
  );

export const deleted = { '200': { description: 'Deleted: an empty body' } };

/** A list that may also be answered as CSV (`Accept: text/csv` or `format=csv`). */
export const withCsv = (responses: { '200': { content: object } }) => ({
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
export const queryAuth = [{ queryToken: [] }, { bearerAuth: [] }];
/** POST: the body's `auth` block (see the request body), or a Bearer header. */
export const bodyAuth = [{}, { bearerAuth: [] }];

export const writeBody = (object: string, required = true) => ({
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
