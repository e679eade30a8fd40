// Every route of the API, on one screen.
import { activityHandlers as activities } from '../activities/routes';
import { loginHandler } from '../auth/routes';
import { projectHandlers as projects } from '../projects/routes';
import { roleHandlers as roles } from '../roles/routes';
import { timeHandlers as times } from '../times/routes';
import { userHandlers as users } from '../users/routes';
import type { Handler } from './context';
import { sendJson } from './respond';
import { Router } from './router';

export function createRouter(): Router<Handler> {
  return new Router<Handler>()
    .get('/health', (ctx) => sendJson(ctx.res, 200, { status: 'ok' }))
    .post('/v0/login', loginHandler)

    .get('/v0/users/org-roles', roles.list)
    .post('/v0/users/org-roles', roles.create)
    .get('/v0/users/org-roles/:slug', roles.get)
    .post('/v0/users/org-roles/:slug', roles.update)
    .delete('/v0/users/org-roles/:slug', roles.remove)

    .get('/v0/users', users.list)
    .post('/v0/users', users.create)
    .get('/v0/users/:username', users.get)
    .post('/v0/users/:username', users.update)
    .delete('/v0/users/:username', users.remove)

    .get('/v0/projects', projects.list)
    .post('/v0/projects', projects.create)
    .get('/v0/projects/:slug', projects.get)
    .post('/v0/projects/:slug', projects.update)
    .delete('/v0/projects/:slug', projects.remove)

    .get('/v0/activities', activities.list)
    .post('/v0/activities', activities.create)
    .get('/v0/activities/:slug', activities.get)
    .post('/v0/activities/:slug', activities.update)
    .delete('/v0/activities/:slug', activities.remove)

    .get('/v0/times', times.list)
    .post('/v0/times', times.create)
    .get('/v0/times/:uuid', times.get)
    .post('/v0/times/:uuid', times.update)
    .delete('/v0/times/:uuid', times.remove);
}
