// Handlers of /v0/times and /v0/times/:uuid.
import { authenticate, requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/paged';
import { booleanParam } from '../http/query';
import { sendEmpty, sendJson } from '../http/respond';
import { uuidFromPath } from '../identifiers';
import { timeListFilters } from './filters';
import { type TimeRow, timeListQuery, toTimeJson } from './store';

export const timeHandlers = {
  async list(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const filters = timeListFilters(actor, ctx.query, ctx.app);
    await sendList<TimeRow>(ctx, { ...timeListQuery(filters), toJson: toTimeJson });
  },

  async get(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const uuid = uuidFromPath(ctx.params.uuid);
    const options = {
      includeDeleted: booleanParam(ctx.query, 'include_deleted'),
      includeRevisions: booleanParam(ctx.query, 'include_revisions'),
    };
    sendJson(ctx.res, 200, ctx.app.times.get(actor, uuid, options));
  },

  async create(ctx: Ctx) {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.times.create(actor, await requestObject(ctx)));
  },

  async update(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const uuid = uuidFromPath(ctx.params.uuid);
    sendJson(ctx.res, 200, ctx.app.times.update(actor, uuid, await requestObject(ctx)));
  },

  async remove(ctx: Ctx) {
    const actor = await authenticate(ctx);
    ctx.app.times.remove(actor, uuidFromPath(ctx.params.uuid));
    sendEmpty(ctx.res);
  },
};
