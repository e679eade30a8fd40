// Handlers of POST /v0/login and POST /v0/logout.
import { requestBody } from '../http/auth';
import { readJsonBody } from '../http/body';
import type { Ctx, Handler } from '../http/context';
import { sendJson, sendNoContent } from '../http/respond';
import type { Actor } from '../policy';
import type { LoginService } from './login';
import { TaskDroppedError } from './password';
import type { Renewal } from './renew';
import type { Authenticate } from './session';

export function loginRoutes(login: LoginService) {
  return { login: ((ctx) => loginWith(login, ctx)) satisfies Handler };
}

/**
 * POST /v0/logout: the token it comes with (in any form) is refused from now on, in
 * every process on the file; the user's other tokens stay valid. The body may be empty
 * (a Bearer header alone), or hold the `auth` block; anything else in it is ignored.
 */
export function logoutRoute(authenticate: Authenticate, signOut: (actor: Actor) => void) {
  return (async (ctx) => {
    if (ctx.body === undefined) ctx.body = await readJsonBody(ctx.req, {});
    signOut(await authenticate(ctx));
    sendNoContent(ctx.res);
  }) satisfies Handler;
}

/** POST /v0/login/renew (auth/renew.ts): the token sent (in any form) for a fresh one. */
export function renewRoute(authenticate: Authenticate, renewal: Renewal) {
  return (async (ctx) => {
    if (ctx.body === undefined) ctx.body = await readJsonBody(ctx.req, {});
    sendJson(ctx.res, 200, renewal.renew(await authenticate(ctx)));
  }) satisfies Handler;
}

async function loginWith(login: LoginService, ctx: Ctx): Promise<void> {
  const body = await requestBody(ctx);
  // The password check waits its turn for a bcrypt worker; if the client goes away
  // before that, its check is dropped, never run.
  const gone = new AbortController();
  const abort = () => gone.abort();
  ctx.res.once('close', abort);
  if (ctx.req.socket.destroyed) abort();
  try {
    const client = { address: ctx.client, signal: gone.signal };
    sendJson(ctx.res, 200, await login.login(body, client));
  } catch (err) {
    if (!(err instanceof TaskDroppedError)) throw err;
    // Nobody to answer: 499 in the log, as for a client that left mid-body.
    ctx.res.statusCode = 499;
    ctx.res.destroy();
  } finally {
    ctx.res.off('close', abort);
  }
}
