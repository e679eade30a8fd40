// Handlers of /v0/timer and /v0/timer/stop.
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import { sendEmpty, sendJson } from '../http/respond';
import type { TimerService } from './service';

export function timerRoutes(timer: TimerService) {
  return {
    get: (ctx, actor) => sendJson(ctx.res, 200, timer.get(actor, ctx.query)),
    start: async (ctx, actor) =>
      sendJson(ctx.res, 200, timer.start(actor, await requestObject(ctx))),
    stop: async (ctx, actor) =>
      sendJson(ctx.res, 200, timer.stop(actor, ctx.query, await requestObject(ctx))),
    discard: (ctx, actor) => {
      timer.discard(actor, ctx.query);
      sendEmpty(ctx.res);
    },
  } satisfies Record<string, SignedInHandler>;
}
