// Handlers of /v0/times and /v0/times/:uuid.
import type { SignedInHandler } from '../auth/session';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { uuidFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { TimeService } from './service';

export function timeRoutes(times: TimeService) {
  return {
    list: (ctx, actor) => sendList(ctx, times.list(actor, ctx.query)),
    get: (ctx, actor) =>
      sendJson(ctx.res, 200, times.get(actor, uuidFromPath(ctx.params.uuid), ctx.query)),
    ...writeHandlers<Actor>(times, (params) => uuidFromPath(params.uuid)),
  } satisfies Record<string, SignedInHandler>;
}
