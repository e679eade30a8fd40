// The Idempotency-Key header (issue 29, item 7) in GET /v0/openapi.json: every POST but
// /login, /login/renew, /logout and /tokens takes it (src/routes.ts wraps them alike), so it is added to them
// here, in one place, with the two answers a misused key gets.
import { errors, param } from './responses';

export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1-255 visible ASCII characters but `,`, new for each action and the same on every ' +
    'retry of it (e.g. a random UUID). The same key from the same user within 24 h is ' +
    'answered with the first answer again (status and body, with `Idempotent-Replayed: true`) ' +
    'and changes nothing; with another method, path, query or body it is 422; while its ' +
    'first request is still being answered, 409 with Retry-After. The `auth` block and the ' +
    '`token` parameter are not part of the comparison, nor the order of keys in the body.',
  schema: { type: 'string', pattern: '^[\\x21-\\x2b\\x2d-\\x7e]{1,255}$' },
};

// POST /v0/tokens neither: its answer, which a key would store for 24 h, holds a secret.
// An import's body is a file, not an object to fingerprint; its rows' source keys make a
// second POST of the same file create nothing.
const NOT_KEYED = ['/v0/login', '/v0/login/renew', '/v0/logout', '/v0/tokens', '/v0/imports'];

type Operation = Record<string, unknown>;
type PathItem = Record<string, unknown> & { post?: Operation; put?: Operation };

const keyed = (op: Operation) => ({
  ...op,
  parameters: [...((op.parameters as unknown[]) ?? []), param('idempotencyKey')],
  responses: { ...(op.responses as object), ...errors(409, 422) },
});

/** `paths` with the header and its answers on every POST (and PUT) that creates or changes. */
export function withIdempotencyKeys(paths: Record<string, PathItem>): Record<string, PathItem> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const { post, put } = item;
      if ((!post && !put) || NOT_KEYED.includes(path)) return [path, item];
      return [
        path,
        { ...item, ...(post ? { post: keyed(post) } : {}), ...(put ? { put: keyed(put) } : {}) },
      ];
    }),
  );
}
