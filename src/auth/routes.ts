// Handler of POST /v0/login.
import { requestBody } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendJson } from '../http/respond';

export async function loginHandler(ctx: Ctx): Promise<void> {
  sendJson(ctx.res, 200, await ctx.app.login.login(await requestBody(ctx)));
}
