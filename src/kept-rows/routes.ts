// Handlers of /v0/weeks/:username/:week/rows (issue 34).
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendJson } from '../http/respond';
import { usernameFromPath, weekFromPath } from '../identifiers';
import type { KeptRowService } from './service';

/** The path's user and week, each checked in that order (kind 5). */
const weekOf = (ctx: Ctx) =>
  [usernameFromPath(ctx.params.username), weekFromPath(ctx.params.week)] as const;

export function keptRowRoutes(rows: KeptRowService) {
  return {
    get: (ctx, actor) => sendJson(ctx.res, 200, rows.get(actor, ...weekOf(ctx))),
    put: async (ctx, actor) => {
      const [username, week] = weekOf(ctx);
      sendJson(ctx.res, 200, rows.put(actor, username, week, await requestObject(ctx)));
    },
  } satisfies Record<string, SignedInHandler>;
}
