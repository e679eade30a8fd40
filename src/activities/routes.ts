// Handlers of /v0/activities and /v0/activities/:slug.
import { authenticate, requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/paged';
import { booleanParam } from '../http/query';
import { sendEmpty, sendJson } from '../http/respond';
import { slugFromPath } from '../identifiers';
import { type ActivityRow, activityListQuery, toActivityJson } from './store';

export const activityHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    const filters = {
      includeDeleted: booleanParam(ctx.query, 'include_deleted'),
      includeRevisions: booleanParam(ctx.query, 'include_revisions'),
    };
    await sendList<ActivityRow>(ctx, { ...activityListQuery(filters), toJson: toActivityJson });
  },

  async get(ctx: Ctx) {
    await authenticate(ctx);
    const slug = slugFromPath(ctx.params.slug);
    // A deleted activity released its slug: include_deleted cannot reach it by slug.
    booleanParam(ctx.query, 'include_deleted');
    const withParents = booleanParam(ctx.query, 'include_revisions');
    sendJson(ctx.res, 200, ctx.app.activities.get(slug, withParents));
  },

  async create(ctx: Ctx) {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.activities.create(actor, await requestObject(ctx)));
  },

  async update(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const slug = slugFromPath(ctx.params.slug);
    sendJson(ctx.res, 200, ctx.app.activities.update(actor, slug, await requestObject(ctx)));
  },

  async remove(ctx: Ctx) {
    const actor = await authenticate(ctx);
    ctx.app.activities.remove(actor, slugFromPath(ctx.params.slug));
    sendEmpty(ctx.res);
  },
};
