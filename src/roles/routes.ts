// Handlers of /v0/users/org-roles and /v0/users/org-roles/:slug.
import { authenticate, requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/paged';
import { sendEmpty, sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import { ROLE_LIST, type RoleRow, toRoleJson } from './store';

export const roleHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    await sendList<RoleRow>(ctx, { ...ROLE_LIST, params: [], toJson: toRoleJson });
  },

  async get(ctx: Ctx) {
    await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.roles.get(slugFromPath(ctx.params.slug)));
  },

  async create(ctx: Ctx) {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.roles.create(actor, await requestObject(ctx)));
  },

  async update(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const slug = slugFromPath(ctx.params.slug);
    sendJson(ctx.res, 200, ctx.app.roles.update(actor, slug, await requestObject(ctx)));
  },

  async remove(ctx: Ctx) {
    const actor = await authenticate(ctx);
    ctx.app.roles.remove(actor, slugFromPath(ctx.params.slug));
    sendEmpty(ctx.res);
  },
};
