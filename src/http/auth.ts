// The request's body and the token it presents (SPEC §2.1): POST (and PUT) bodies carry
// `auth: {type: "token"}`, GET and DELETE the `token` query parameter; any request may
// use `Authorization: Bearer` instead, and when two are present they must agree.
// Checking the token is the auth module's job (src/auth/session.ts).
import { authenticationFailure, invalidAuthenticationType, jsonType, wrongType } from '../errors';
import { readJsonBody } from './body';
import type { Ctx } from './context';

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

export const MALFORMED_HEADER = 'Malformed Authorization header';

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

/** The token the request presents, if any (kind 7 when two disagree). */
export async function presentedToken(ctx: Ctx): Promise<string | undefined> {
  const fromHeader = bearerToken(ctx);
  let fromRequest: string | undefined;
  if (ctx.req.method === 'POST' || ctx.req.method === 'PUT') {
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
