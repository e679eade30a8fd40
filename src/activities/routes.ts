// Handlers of /v0/activities, /v0/activities/:slug and /v0/activities/:uuid/{restore,history}.
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath, uuidFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { ActivityService } from './service';

export function activityRoutes(activities: ActivityService) {
  return {
    list: (ctx, _actor) => sendList(ctx, activities.list(ctx.query)),
    get: (ctx, _actor) =>
      sendJson(ctx.res, 200, activities.get(slugFromPath(ctx.params.slug), ctx.query)),
    history: (ctx, _actor) =>
      sendJson(ctx.res, 200, activities.history(uuidFromPath(ctx.params.uuid), ctx.query)),
    /** POST …/:uuid/restore: the object may be left out (then the old slugs are taken). */
    restore: async (ctx, actor) => {
      const uuid = uuidFromPath(ctx.params.uuid);
      const object = await requestObject(ctx);
      sendJson(ctx.res, 200, activities.restore(actor, uuid, object === undefined ? {} : object));
    },
    ...writeHandlers<Actor>(activities, (params) => slugFromPath(params.slug)),
  } satisfies Record<string, SignedInHandler>;
}
