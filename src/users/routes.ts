// Handlers of /v0/users and /v0/users/:username.
import { authenticate } from '../http/auth';
import type { Ctx } from '../http/context';
import { createHandler, removeHandler, updateHandler } from '../http/handlers';
import { sendList } from '../http/paged';
import { booleanParam, listParam } from '../http/query';
import { sendJson } from '../http/respond';
import { isSlug, usernameFromPath } from '../identifiers';
import { toUserJson, type UserRow, userListQuery } from './store';

// The id of the resource a route names, checked (kind 5 when malformed).
const usernameInPath = (ctx: Ctx) => usernameFromPath(ctx.params.username);

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
    const username = usernameInPath(ctx);
    sendJson(ctx.res, 200, ctx.app.users.get(username, booleanParam(ctx.query, 'include_deleted')));
  },

  create: createHandler((app) => app.users),
  update: updateHandler((app) => app.users, usernameInPath),
  remove: removeHandler((app) => app.users, usernameInPath),
};
