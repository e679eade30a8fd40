// Handlers of /v0/projects and /v0/projects/:slug.
import { authenticate, requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/paged';
import { booleanParam, listParam } from '../http/query';
import { sendEmpty, sendJson } from '../http/respond';
import { isUsername, slugFromPath } from '../identifiers';
import { type ProjectRow, toProjectJson } from './json';
import { projectListQuery } from './store';

export const projectHandlers = {
  async list(ctx: Ctx) {
    await authenticate(ctx);
    const { userStore } = ctx.app;
    const usernames = listParam(
      ctx.query,
      'user',
      (s) => isUsername(s) && userStore.idOf(s) !== undefined,
    );
    const filters = {
      includeDeleted: booleanParam(ctx.query, 'include_deleted'),
      includeRevisions: booleanParam(ctx.query, 'include_revisions'),
      userIds: usernames.map((name) => userStore.idOf(name) as number),
    };
    await sendList<ProjectRow>(ctx, { ...projectListQuery(filters), toJson: toProjectJson });
  },

  async get(ctx: Ctx) {
    await authenticate(ctx);
    const slug = slugFromPath(ctx.params.slug);
    // A deleted project released its slugs: include_deleted cannot reach it by slug.
    booleanParam(ctx.query, 'include_deleted');
    const withParents = booleanParam(ctx.query, 'include_revisions');
    sendJson(ctx.res, 200, ctx.app.projects.get(slug, withParents));
  },

  async create(ctx: Ctx) {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, ctx.app.projects.create(actor, await requestObject(ctx)));
  },

  async update(ctx: Ctx) {
    const actor = await authenticate(ctx);
    const slug = slugFromPath(ctx.params.slug);
    sendJson(ctx.res, 200, ctx.app.projects.update(actor, slug, await requestObject(ctx)));
  },

  async remove(ctx: Ctx) {
    const actor = await authenticate(ctx);
    ctx.app.projects.remove(actor, slugFromPath(ctx.params.slug));
    sendEmpty(ctx.res);
  },
};
