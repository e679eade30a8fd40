// Handlers of /v0/users/org-roles and /v0/users/org-roles/:slug.
import { authenticate } from '../http/auth';
import type { Ctx } from '../http/context';
import { createHandler, removeHandler, updateHandler } from '../http/handlers';
import { sendList } from '../http/paged';
import { sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import { ROLE_LIST, type RoleRow, toRoleJson } from './store';

// The id of the resource a route names, checked (kind 5 when malformed).
const slugInPath = (ctx: Ctx) => slugFromPath(ctx.params.slug);

export const roleHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    await sendList<RoleRow>(ctx, { ...ROLE_LIST, params: [], toJson: toRoleJson });
  },

  async get(ctx: Ctx) {
    await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.roles.get(slugInPath(ctx)));
  },

  create: createHandler((app) => app.roles),
  update: updateHandler((app) => app.roles, slugInPath),
  remove: removeHandler((app) => app.roles, slugInPath),
};
