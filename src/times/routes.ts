// Handlers of /v0/times and /v0/times/:uuid.
import { authenticate } from '../http/auth';
import type { Ctx } from '../http/context';
import { createHandler, removeHandler, updateHandler } from '../http/handlers';
import { sendList } from '../http/paged';
import { booleanParam } from '../http/query';
import { sendJson } from '../http/respond';
import { uuidFromPath } from '../identifiers';
import { timeListFilters } from './filters';
import { type TimeRow, timeJsonText, timeListQuery } from './store';

// The id of the resource a route names, checked (kind 5 when malformed).
const uuidInPath = (ctx: Ctx) => uuidFromPath(ctx.params.uuid);

export const timeHandlers = {
  async list(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const filters = timeListFilters(actor, ctx.query, ctx.app);
    await sendList<TimeRow>(ctx, { ...timeListQuery(filters), toJson: timeJsonText });
  },

  async get(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const uuid = uuidInPath(ctx);
    const options = {
      includeDeleted: booleanParam(ctx.query, 'include_deleted'),
      includeRevisions: booleanParam(ctx.query, 'include_revisions'),
    };
    sendJson(ctx.res, 200, ctx.app.times.get(actor, uuid, options));
  },

  create: createHandler((app) => app.times),
  update: updateHandler((app) => app.times, uuidInPath),
  remove: removeHandler((app) => app.times, uuidInPath),
};
