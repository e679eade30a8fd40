// Handler of POST /v0/login.
import { requestBody } from '../http/auth';
import type { Handler } from '../http/context';
import { sendJson } from '../http/respond';
import type { LoginService } from './login';

export function loginRoutes(login: LoginService) {
  return {
    login: (async (ctx) => {
      sendJson(ctx.res, 200, await login.login(await requestBody(ctx)));
    }) satisfies Handler,
  };
}
