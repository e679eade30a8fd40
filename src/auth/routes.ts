// Handler of POST /v0/login.
import { requestBody } from '../http/auth';
import type { Ctx, Handler } from '../http/context';
import { sendJson } from '../http/respond';
import type { LoginService } from './login';
import { TaskDroppedError } from './password';

export function loginRoutes(login: LoginService) {
  return { login: ((ctx) => loginWith(login, ctx)) satisfies Handler };
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
