// Handlers of /v0/users/org-roles and /v0/users/org-roles/:slug.
import type { SignedInHandler } from '../auth/session';
import { writeHandlers } from '../http/handlers';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import type { Actor } from '../policy';
import type { RoleService } from './service';

export function roleRoutes(roles: RoleService) {
  return {
    list: (ctx, _actor) => sendList(ctx, roles.list(ctx.query)),
    get: (ctx, _actor) => sendJson(ctx.res, 200, roles.get(slugFromPath(ctx.params.slug))),
    ...writeHandlers<Actor>(roles, (params) => slugFromPath(params.slug)),
  } satisfies Record<string, SignedInHandler>;
}
