// Who is calling: the token a request presents (http/auth.ts) checked and mapped to an
// active user. The route table wraps every handler that needs a caller in `signedIn`, so
// a resource's handlers receive the actor and never see tokens.
import { authenticationFailure } from '../errors';
import { MALFORMED_HEADER, presentedToken } from '../http/auth';
import type { CallerHandler, Ctx, Handler } from '../http/context';
import { type Actor, authorize } from '../policy';
import type { TokenHolder } from '../users/store';
import type { TokenService } from './token';

/** A handler of a route that requires a signed-in caller. */
export type SignedInHandler = CallerHandler<Actor>;

/** The active, undeleted user a token names, with what revokes their tokens. */
export type FindTokenHolder = (username: string) => TokenHolder | undefined;

/**
 * SPEC §11: a token issued at or before the holder's last password change, deactivation
 * or deletion (`tokensValidAfter`, ms) is revoked, except the one their own password
 * change was made with (`keptTokenIat`). A token of the change's very millisecond counts
 * as before it: the change commits only once that millisecond is over (users/store.ts),
 * so every token issued after it carries a later iat. A token signed out with (POST
 * /v0/logout) is revoked too, and only that one: the user's tokens of one millisecond
 * are one token.
 */
export const isRevoked = (holder: TokenHolder, issuedAt: number): boolean =>
  (holder.tokensValidAfter !== null &&
    issuedAt <= holder.tokensValidAfter &&
    issuedAt !== holder.keptTokenIat) ||
  (holder.signedOut.length > 0 && holder.signedOut.includes(issuedAt));

/**
 * Personal API tokens (issue 33, src/tokens/): which presented tokens are theirs (by
 * prefix, so a JWT never costs more than that test) and the actor one stands for.
 */
export interface PersonalTokens {
  accepts(token: string): boolean;
  authenticate(token: string): Actor;
}

/** Methods that change nothing: all a read-only personal token may use. */
const READS = new Set(['GET', 'HEAD']);

/**
 * The actor of a personal token; a read-only one is refused (kind 9) on anything but a
 * read, on every route alike, before the handler reads its path or body.
 */
function personalActor(ctx: Ctx, personal: PersonalTokens, token: string): Actor {
  const actor = personal.authenticate(token);
  ctx.caller = actor.username;
  if (!READS.has(ctx.req.method ?? '')) {
    authorize(actor, { do: 'write', method: ctx.req.method ?? '', path: ctx.url.pathname });
  }
  return actor;
}

/** The authenticated actor of a request, or kind 7. */
export function createAuthenticate(
  tokens: TokenService,
  findHolder: FindTokenHolder,
  personal?: PersonalTokens,
) {
  return async (ctx: Ctx): Promise<Actor> => {
    const token = await presentedToken(ctx);
    if (!token) {
      // No token anywhere, only a header of another scheme (a proxy's Basic): kind 7
      // naming the header, as before.
      const other = Boolean(ctx.req.headers.authorization);
      throw authenticationFailure(other ? MALFORMED_HEADER : 'Missing credentials');
    }
    if (personal?.accepts(token)) return personalActor(ctx, personal, token);
    const { username, issuedAt, expiresAt } = tokens.verify(token);
    const holder = findHolder(username);
    if (!holder) throw authenticationFailure('Invalid token');
    if (isRevoked(holder, issuedAt)) throw authenticationFailure('Token has been revoked');
    const { actor } = holder;
    ctx.caller = actor.username;
    // Written out rather than spread: copying by spread was the slow path of every
    // signed-in request.
    return {
      id: actor.id,
      username: actor.username,
      siteSpectator: actor.siteSpectator,
      siteManager: actor.siteManager,
      siteAdmin: actor.siteAdmin,
      tokenIssuedAt: issuedAt,
      tokenExpiresAt: expiresAt,
    };
  };
}

export type Authenticate = ReturnType<typeof createAuthenticate>;

/** A route handler that first authenticates (a bad token is reported before anything else). */
export const signedIn =
  (authenticate: Authenticate) =>
  (handler: SignedInHandler): Handler =>
  async (ctx) =>
    handler(ctx, await authenticate(ctx));
