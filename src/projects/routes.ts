// Handlers of /v0/projects and /v0/projects/:slug.
import type { SignedInHandler } from '../auth/session';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { ProjectService } from './service';

export function projectRoutes(projects: ProjectService) {
  return {
    list: (ctx, _actor) => sendList(ctx, projects.list(ctx.query)),
    get: (ctx, _actor) =>
      sendJson(ctx.res, 200, projects.get(slugFromPath(ctx.params.slug), ctx.query)),
    ...writeHandlers<Actor>(projects, (params) => slugFromPath(params.slug)),
  } satisfies Record<string, SignedInHandler>;
}
