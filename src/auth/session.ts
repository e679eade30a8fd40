// Who is calling: the token a request presents (http/auth.ts) checked and mapped to an
// active user. The route table wraps every handler that needs a caller in `signedIn`, so
// a resource's handlers receive the actor and never see tokens.
import { authenticationFailure } from '../errors';
import { MALFORMED_HEADER, presentedToken } from '../http/auth';
import type { Ctx, Handler } from '../http/context';
import type { Actor } from '../policy';
import type { TokenService } from './token';

/** A handler of a route that requires a signed-in caller. */
export type SignedInHandler = (ctx: Ctx, actor: Actor) => Promise<void> | void;

export type FindActor = (username: string) => Actor | undefined;

/** The authenticated actor of a request, or kind 7. */
export function createAuthenticate(tokens: TokenService, findActor: FindActor) {
  return async (ctx: Ctx): Promise<Actor> => {
    const token = await presentedToken(ctx);
    if (!token) {
      // No token anywhere, only a header of another scheme (a proxy's Basic): kind 7
      // naming the header, as before.
      const other = Boolean(ctx.req.headers.authorization);
      throw authenticationFailure(other ? MALFORMED_HEADER : 'Missing credentials');
    }
    const actor = findActor(tokens.verify(token));
    if (!actor) throw authenticationFailure('Invalid token');
    ctx.caller = actor.username;
    return actor;
  };
}

export type Authenticate = ReturnType<typeof createAuthenticate>;

/** A route handler that first authenticates (a bad token is reported before anything else). */
export const signedIn =
  (authenticate: Authenticate) =>
  (handler: SignedInHandler): Handler =>
  async (ctx) =>
    handler(ctx, await authenticate(ctx));
