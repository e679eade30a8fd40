// Handlers of /v0/projects and /v0/projects/:slug.
import { authenticate } from '../http/auth';
import type { Ctx } from '../http/context';
import { createHandler, getBySlugHandler, removeHandler, updateHandler } from '../http/handlers';
import { sendList } from '../http/paged';
import { booleanParam, listParam } from '../http/query';
import { isUsername, slugFromPath } from '../identifiers';
import { type ProjectRow, toProjectJson } from './json';
import { projectListQuery } from './store';

// The id of the resource a route names, checked (kind 5 when malformed).
const slugInPath = (ctx: Ctx) => slugFromPath(ctx.params.slug);

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

  get: getBySlugHandler((app) => app.projects, slugInPath),

  create: createHandler((app) => app.projects),
  update: updateHandler((app) => app.projects, slugInPath),
  remove: removeHandler((app) => app.projects, slugInPath),
};
