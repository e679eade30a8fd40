// Handlers of /v0/users and /v0/users/:username.
import { authenticate, requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/paged';
import { booleanParam, listParam } from '../http/query';
import { sendEmpty, sendJson } from '../http/respond';
import { isSlug, usernameFromPath } from '../identifiers';
import { toUserJson, type UserRow, userListQuery } from './store';

export const userHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    const includeDeleted = booleanParam(ctx.query, 'include_deleted');
    const roles = listParam(
      ctx.query,
      'role',
      (s) => isSlug(s) && ctx.app.roleStore.findBySlug(s) !== undefined,
    );
    await sendList<UserRow>(ctx, {
      ...userListQuery({ includeDeleted, roles }),
      toJson: toUserJson,
    });
  },

  async get(ctx: Ctx) {
    await authenticate(ctx);
    const username = usernameFromPath(ctx.params.username);
    sendJson(ctx.res, 200, ctx.app.users.get(username, booleanParam(ctx.query, 'include_deleted')));
  },

  async create(ctx: Ctx) {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.users.create(actor, await requestObject(ctx)));
  },

  async update(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const username = usernameFromPath(ctx.params.username);
    sendJson(ctx.res, 200, ctx.app.users.update(actor, username, await requestObject(ctx)));
  },

  async remove(ctx: Ctx) {
    const actor = await authenticate(ctx);
    ctx.app.users.remove(actor, usernameFromPath(ctx.params.username));
    sendEmpty(ctx.res);
  },
};
