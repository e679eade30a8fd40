// Every route of the API, on one screen. Each resource's handlers are built from its own
// service; `signedIn` authenticates the caller first.
import { activityRoutes } from './activities/routes';
import type { App } from './app';
import { approvalRoutes } from './approvals/routes';
import { oidcRoutes } from './auth/oidc-routes';
import { loginRoutes, logoutRoute, renewRoute } from './auth/routes';
import { type SignedInHandler, signedIn } from './auth/session';
import type { Handler } from './http/context';
import { sendJson } from './http/respond';
import { Router } from './http/router';
import { importRoutes, rawBody } from './importers/routes';
import { infoRoutes } from './info/routes';
import { keptRowRoutes } from './kept-rows/routes';
import { openApiText } from './openapi/document';
import { projectRoutes } from './projects/routes';
import { reportRoutes } from './reports/routes';
import { roleRoutes } from './roles/routes';
import type { Health } from './shapes/meta';
import { timerRoutes } from './timer/routes';
import { timeRoutes } from './times/routes';
import { tokenRoutes } from './tokens/routes';
import { userRoutes } from './users/routes';

export function createRouter(app: App): Router<Handler> {
  const auth = signedIn(app.authenticate);
  // Every POST that creates or changes something: answered once per Idempotency-Key.
  const write = (handler: SignedInHandler) => auth(app.idempotency.once(handler));
  const { login } = loginRoutes(app.login);
  const logout = logoutRoute(app.authenticate, app.users.signOut);
  const roles = roleRoutes(app.roles);
  const users = userRoutes(app.users);
  const projects = projectRoutes(app.projects);
  const activities = activityRoutes(app.activities);
  const times = timeRoutes(app.times, app.writes.run);
  const timer = timerRoutes(app.timer);
  const info = infoRoutes(app.config);
  const oidc = oidcRoutes({
    signIn: app.oidc,
    publicUrl: app.config.publicUrl,
    trustProxy: app.config.trustProxy,
    log: app.log,
  });
  const reports = reportRoutes(app.reports);
  const tokens = tokenRoutes(app.personalTokens);
  const approvals = approvalRoutes(app.approvals);
  const imports = importRoutes(app.imports);
  const keptRows = keptRowRoutes(app.keptRows);

  const router = new Router<Handler>()
    .get('/health', (ctx) => sendJson(ctx.res, 200, { status: 'ok' } satisfies Health))
    .post('/v0/login', login)
    .post('/v0/login/renew', renewRoute(app.authenticate, app.renewal))
    .post('/v0/logout', logout)
    .get('/v0/info', info.get) // no token: a login page asks it which login types to offer
    // OpenID Connect sign-in (404 unless enabled): the browser is sent through these.
    .get('/v0/oidc/start', oidc.start)
    .get('/v0/oidc/callback', oidc.callback)
    .get('/v0/openapi.json', (ctx) => sendJson(ctx.res, 200, openApiText))

    .get('/v0/users/org-roles', auth(roles.list))
    .post('/v0/users/org-roles', write(roles.create))
    .get('/v0/users/org-roles/:slug', auth(roles.get))
    .post('/v0/users/org-roles/:slug', write(roles.update))
    .delete('/v0/users/org-roles/:slug', auth(roles.remove))

    .get('/v0/users', auth(users.list))
    .post('/v0/users', write(users.create))
    .get('/v0/users/:username', auth(users.get))
    .post('/v0/users/:username', write(users.update))
    .delete('/v0/users/:username', auth(users.remove))

    .get('/v0/projects', auth(projects.list))
    .post('/v0/projects', write(projects.create))
    .get('/v0/projects/:slug', auth(projects.get))
    .post('/v0/projects/:slug', write(projects.update))
    .delete('/v0/projects/:slug', auth(projects.remove))
    .post('/v0/projects/:uuid/restore', write(projects.restore))
    .get('/v0/projects/:uuid/history', auth(projects.history))

    .get('/v0/activities', auth(activities.list))
    .post('/v0/activities', write(activities.create))
    .get('/v0/activities/:slug', auth(activities.get))
    .post('/v0/activities/:slug', write(activities.update))
    .delete('/v0/activities/:slug', auth(activities.remove))
    .post('/v0/activities/:uuid/restore', write(activities.restore))
    .get('/v0/activities/:uuid/history', auth(activities.history))

    .get('/v0/times', auth(times.list))
    .post('/v0/times', write(times.create))
    .get('/v0/times/:uuid', auth(times.get))
    .get('/v0/times/:uuid/history', auth(times.history))
    .post('/v0/times/:uuid', write(times.update))
    .delete('/v0/times/:uuid', auth(times.remove))

    .get('/v0/timer', auth(timer.get))
    .post('/v0/timer', write(timer.start))
    .delete('/v0/timer', auth(timer.discard))
    .post('/v0/timer/stop', write(timer.stop))
    .get('/v0/reports', auth(reports.get))

    // Not `write`: an Idempotency-Key's stored answer would keep the secret in the database.
    .get('/v0/tokens', auth(tokens.list))
    .post('/v0/tokens', auth(tokens.create))
    .delete('/v0/tokens/:id', auth(tokens.revoke))

    .post('/v0/weeks/:username/:week/submit', write(approvals.submit))
    .get('/v0/approvals', auth(approvals.list))
    .post('/v0/approvals/:username/:week/:slug/approve', write(approvals.approve))
    .post('/v0/approvals/:username/:week/:slug/reject', write(approvals.reject))
    .post('/v0/approvals/:username/:week/:slug/reopen', write(approvals.reopen))
    .get('/v0/approvals/:username/:week/:slug/history', auth(approvals.history))
    .get('/v0/lock', auth(approvals.getLock))
    .put('/v0/lock', write(approvals.setLock))
    // The web app's timesheet rows added and not yet filled (issue 34).
    .get('/v0/weeks/:username/:week/rows', auth(keptRows.get))
    .put('/v0/weeks/:username/:week/rows', write(keptRows.put))

    // Another tracker's export as the body, streamed (issue 31): not a JSON object, so no
    // Idempotency-Key (the rows' source keys make a second POST create nothing).
    .post('/v0/imports', rawBody(auth(imports.run)));
  // Prometheus metrics (--metrics), outside /v0 like /health; with --metrics-addr they
  // are served on their own listener instead (server.ts), and not here.
  const { metrics } = app;
  if (metrics && !app.config.metricsAddr) router.get('/metrics', (ctx) => metrics.send(ctx.res));
  return router;
}
