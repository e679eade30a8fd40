// Authenticates a request (SPEC §2.1): POST bodies carry `auth: {type: "token"}`, GET
// and DELETE the `token` query parameter; any request may use `Authorization: Bearer`
// instead, and when two are present they must agree.
import { invalidAuthenticationType } from '../auth/login';
import { authenticationFailure, wrongType } from '../errors';
import type { Actor } from '../policy';
import { readJsonBody } from './body';
import type { Ctx } from './context';
import { jsonType } from './validate';

/** The POST body, parsed once. */
export async function requestBody(ctx: Ctx): Promise<Record<string, unknown>> {
  if (ctx.body === undefined) ctx.body = await readJsonBody(ctx.req);
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw wrongType('request', 'body', 'object', jsonType(body));
  }
  return body as Record<string, unknown>;
}

/** The `object` member of a POST body (undefined when absent; parseObject reports it). */
export async function requestObject(ctx: Ctx): Promise<unknown> {
  return (await requestBody(ctx)).object;
}

const MALFORMED_HEADER = 'Malformed Authorization header';

/**
 * The token of an `Authorization: Bearer` header. Other schemes (a reverse proxy's own
 * `Basic` or `Digest`) are not ours and are ignored; a malformed Bearer header is kind 7.
 */
function bearerToken(ctx: Ctx): string | undefined {
  const header = ctx.req.headers.authorization;
  if (!header || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw authenticationFailure(MALFORMED_HEADER);
  return match[1];
}

async function presentedToken(ctx: Ctx): Promise<string | undefined> {
  const fromHeader = bearerToken(ctx);
  let fromRequest: string | undefined;
  if (ctx.req.method === 'POST') {
    const auth = (await requestBody(ctx)).auth;
    if (auth !== undefined && auth !== null) {
      if (typeof auth !== 'object' || Array.isArray(auth))
        throw authenticationFailure('Invalid auth block');
      const { type, token } = auth as Record<string, unknown>;
      if (type !== 'token') throw invalidAuthenticationType(type);
      if (typeof token !== 'string') throw authenticationFailure('Missing credentials');
      fromRequest = token;
    }
  } else {
    // Clients put the token raw into the query string; a `+` arrives as a space.
    fromRequest = ctx.query.get('token')?.replace(/ /g, '+');
  }
  if (fromHeader && fromRequest && fromHeader !== fromRequest) {
    throw authenticationFailure('The bearer token and the request token differ');
  }
  return fromHeader ?? fromRequest;
}

/** The authenticated actor, or kind 7. */
export async function authenticate(ctx: Ctx): Promise<Actor> {
  const token = await presentedToken(ctx);
  if (!token) {
    // No token anywhere, only a header of another scheme: kind 7 naming the header,
    // as before (a Basic header alone was always refused with this text).
    const other = Boolean(ctx.req.headers.authorization);
    throw authenticationFailure(other ? MALFORMED_HEADER : 'Missing credentials');
  }
  const username = ctx.app.tokens.verify(token);
  const actor = ctx.app.users.findActor(username);
  if (!actor) throw authenticationFailure('Invalid token');
  ctx.actor = actor;
  return actor;
}
