// Handlers of /v0/activities and /v0/activities/:slug.
import type { SignedInHandler } from '../auth/session';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { ActivityService } from './service';

export function activityRoutes(activities: ActivityService) {
  return {
    list: (ctx, _actor) => sendList(ctx, activities.list(ctx.query)),
    get: (ctx, _actor) =>
      sendJson(ctx.res, 200, activities.get(slugFromPath(ctx.params.slug), ctx.query)),
    ...writeHandlers<Actor>(activities, (params) => slugFromPath(params.slug)),
  } satisfies Record<string, SignedInHandler>;
}
