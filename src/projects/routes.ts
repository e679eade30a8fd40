// Handlers of /v0/projects, /v0/projects/:slug and /v0/projects/:uuid/{restore,history}.
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath, uuidFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { ProjectService } from './service';

export function projectRoutes(projects: ProjectService) {
  return {
    list: (ctx, _actor) => sendList(ctx, projects.list(ctx.query)),
    get: (ctx, _actor) =>
      sendJson(ctx.res, 200, projects.get(slugFromPath(ctx.params.slug), ctx.query)),
    history: (ctx, _actor) =>
      sendJson(ctx.res, 200, projects.history(uuidFromPath(ctx.params.uuid), ctx.query)),
    /** POST …/:uuid/restore: the object may be left out (then the old slugs are taken). */
    restore: async (ctx, actor) => {
      const uuid = uuidFromPath(ctx.params.uuid);
      const object = await requestObject(ctx);
      sendJson(ctx.res, 200, projects.restore(actor, uuid, object === undefined ? {} : object));
    },
    ...writeHandlers<Actor>(projects, (params) => slugFromPath(params.slug)),
  } satisfies Record<string, SignedInHandler>;
}
