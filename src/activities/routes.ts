// Handlers of /v0/activities and /v0/activities/:slug.
import { authenticate } from '../http/auth';
import type { Ctx } from '../http/context';
import { createHandler, getBySlugHandler, removeHandler, updateHandler } from '../http/handlers';
import { sendList } from '../http/paged';
import { booleanParam } from '../http/query';
import { slugFromPath } from '../identifiers';
import { type ActivityRow, activityListQuery, toActivityJson } from './store';

// The id of the resource a route names, checked (kind 5 when malformed).
const slugInPath = (ctx: Ctx) => slugFromPath(ctx.params.slug);

export const activityHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    const filters = {
      includeDeleted: booleanParam(ctx.query, 'include_deleted'),
      includeRevisions: booleanParam(ctx.query, 'include_revisions'),
    };
    await sendList<ActivityRow>(ctx, { ...activityListQuery(filters), toJson: toActivityJson });
  },

  get: getBySlugHandler((app) => app.activities, slugInPath),

  create: createHandler((app) => app.activities),
  update: updateHandler((app) => app.activities, slugInPath),
  remove: removeHandler((app) => app.activities, slugInPath),
};
