// The Idempotency-Key header (issue 29, item 7) in GET /v0/openapi.json: every POST but
// /login, /login/renew and /logout takes it (src/routes.ts wraps them alike), so it is added to them
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

const NOT_KEYED = ['/v0/login', '/v0/login/renew', '/v0/logout'];

type PathItem = Record<string, unknown> & { post?: Record<string, unknown> };

/** `paths` with the header and its answers on every POST that creates or changes. */
export function withIdempotencyKeys(paths: Record<string, PathItem>): Record<string, PathItem> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const { post } = item;
      if (!post || NOT_KEYED.includes(path)) return [path, item];
      const parameters = [...((post.parameters as unknown[]) ?? []), param('idempotencyKey')];
      const responses = { ...(post.responses as object), ...errors(409, 422) };
      return [path, { ...item, post: { ...post, parameters, responses } }];
    }),
  );
}
