// Handlers of /v0/tokens and /v0/tokens/:id (issue 33).
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import { sendList } from '../http/list';
import { sendEmpty, sendJson } from '../http/respond';
import type { PersonalTokenService } from './service';

export function tokenRoutes(tokens: PersonalTokenService) {
  return {
    list: (ctx, actor) => sendList(ctx, tokens.list(actor, ctx.query)),
    create: async (ctx, actor) =>
      sendJson(ctx.res, 200, tokens.create(actor, await requestObject(ctx))),
    revoke: (ctx, actor) => {
      tokens.revoke(actor, ctx.params.id);
      sendEmpty(ctx.res);
    },
  } satisfies Record<string, SignedInHandler>;
}
