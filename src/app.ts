// The application's services, built once per process from the config and the database.
// This is the one place the server's stores are made and services wired to each other
// (the admin commands make the few they need for themselves); the route table (routes.ts)
// gets the services, never the stores.

import { createActivityService } from './activities/service';
import { createActivityStore } from './activities/store';
import { ensureFirstAdmin } from './admin/first-admin';
import { createApprovalService } from './approvals/service';
import { createApprovalStore } from './approvals/store';
import { ldapAuthenticator } from './auth/ldap';
import { createLoginService, passwordAuthenticator } from './auth/login';
import { createOidcSignIn } from './auth/oidc';
import { createOidcStore } from './auth/oidc-store';
import type { PasswordHasher } from './auth/password';
import { createRenewal } from './auth/renew';
import { createRenewalStore } from './auth/renewal-store';
import { createAuthenticate } from './auth/session';
import { createLoginThrottle } from './auth/throttle';
import { createTokenService } from './auth/token';
import type { Config } from './config';
import { beforeCommit, type Db } from './db/open';
import type { ReaderPool } from './db/readers';
import { type ShortLists, shortListsHere } from './db/short-lists';
import type { TextStreams } from './db/text-streams';
import { createWriteQueue } from './db/write-queue';
import { createListStreams, STREAM_WAIT_MS } from './http/streams';
import { createIdempotency } from './idempotency/keys';
import { createIdempotencyStore } from './idempotency/store';
import { createImportService } from './importers/service';
import { createImportStore } from './importers/store';
import { createKeptRowService } from './kept-rows/service';
import { createKeptRowStore } from './kept-rows/store';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { createProjectJsonStore } from './projects/json-store';
import { createProjectService } from './projects/service';
import { createProjectStore } from './projects/store';
import { createReportService } from './reports/service';
import { createReportStore } from './reports/store';
import type { ReportRequest } from './reports/text';
import { createRoleService } from './roles/service';
import { createRoleStore } from './roles/store';
import { createTimerService } from './timer/service';
import { createTimerStore } from './timer/store';
import { createTimeService } from './times/service';
import { createTimeImportStatements, createTimeStore } from './times/store';
import { createPersonalTokenService } from './tokens/service';
import { createTokenStore } from './tokens/store';
import { createUserService } from './users/service';
import { createUserStore } from './users/store';

export interface AppDeps {
  config: Readonly<Config>;
  log: Logger;
  db: Db;
  readers: ReaderPool;
  /** How short lists are read whole (db/short-lists.ts); default: on the event loop. */
  shortLists?: ShortLists['read'];
  /** Where large reports are made (db/text-streams.ts, the report worker); default: here. */
  reportStreams?: TextStreams<ReportRequest>;
  passwords: PasswordHasher;
  secretKey: string;
  /** With --metrics: what requests and logins are counted in (metrics.ts). */
  metrics?: Metrics;
}

export type App = ReturnType<typeof createApp>;

export function createApp(deps: AppDeps) {
  const { config, db, readers, passwords, log } = deps;
  const { defaultLimit } = config;
  const tokens = createTokenService({
    secretKey: deps.secretKey,
    instanceName: config.instanceName,
    ttlSeconds: config.tokenTtlSeconds,
  });
  const renewal = createRenewal(db, createRenewalStore(db), tokens, config);
  const userStore = createUserStore(db, readers);
  const projectStore = createProjectStore(db, readers);
  // No write of this process commits a project's JSON stale (sql/008's triggers mark it).
  const projectJson = createProjectJsonStore(db);
  beforeCommit(db, projectJson.fillAll);
  const roles = createRoleService({ db, roles: createRoleStore(db, readers), defaultLimit });
  const activityStore = createActivityStore(db, readers);
  const users = createUserService({ db, users: userStore, roleIdsOf: roles.idsOf, defaultLimit });
  const activities = createActivityService({
    db,
    activities: activityStore,
    defaultLimit,
  });
  const projects = createProjectService({
    db,
    projects: projectStore,
    userIdOf: users.idOf,
    activityIdOf: activities.idOf,
    defaultLimit,
  });
  const times = createTimeService({
    db,
    times: createTimeStore(db, readers, deps.shortLists ?? shortListsHere(readers)),
    findActiveUser: users.findActor,
    userIdOf: users.idOf,
    activityIdOf: activities.idOf,
    roleOf: projectStore.roleOf,
    defaultLimit,
  });
  const timer = createTimerService({
    db,
    timers: createTimerStore(db),
    times,
    userIdOf: users.idOf,
    roundingSeconds: config.timerRoundingSeconds,
  });
  const reports = createReportService({
    reports: createReportStore(readers, deps.reportStreams),
    timeFilters: times.filters,
  });
  const approvals = createApprovalService({
    db,
    approvals: createApprovalStore(db),
    timeFilters: times.filters,
    userIdOf: users.idOf,
    projectIdOf: projectStore.idOf,
    roleOf: projectStore.roleOf,
    defaultLimit,
  });
  const keptRows = createKeptRowService({
    db,
    rows: createKeptRowStore(db),
    userIdOf: users.idOf,
    projectIdOf: projectStore.idOf,
    activityIdOf: activities.idOf,
  });
  // Built only when enabled: the provider is asked for its metadata on first use.
  const oidc = config.authModules.includes('oidc')
    ? createOidcSignIn({
        oidc: config.oidc,
        db,
        users: userStore,
        store: createOidcStore(db),
        log,
      })
    : undefined;
  const login = createLoginService({
    modules: config.authModules,
    authenticators: {
      password: passwordAuthenticator(userStore, passwords),
      ldap: config.authModules.includes('ldap')
        ? ldapAuthenticator({ ldap: config.ldap, db, users: userStore, log })
        : undefined,
    },
    throttle: createLoginThrottle(
      db,
      config.loginMaxFailures,
      config.loginWindowSeconds,
      config.loginMaxFailuresPerAddress,
    ),
    tokens,
    redeemOidcCode: oidc?.redeem,
    onOutcome: deps.metrics?.login,
  });
  const imports = createImportService({
    db,
    store: createImportStore(db),
    inserts: createTimeImportStatements(db),
    users: userStore,
    projects: projectStore,
    activities: activityStore,
    lockWaitMs: config.lockWaitSeconds * 1000,
  });
  /** Writes grouped per turn of the event loop into one transaction (time entries'). */
  const writes = createWriteQueue(db);
  const idempotency = createIdempotency({
    store: createIdempotencyStore(db),
    run: writes.run,
    lockWaitMs: config.lockWaitSeconds * 1000,
    log,
  });
  const personalTokens = createPersonalTokenService({
    db,
    tokens: createTokenStore(db),
    findTokenHolder: users.findTokenHolder,
    findUser: (username) => {
      const row = userStore.findByUsername(username);
      return row && { id: row.id, username: row.username };
    },
    runWrite: writes.run,
    defaultLimit,
  });
  const lists = createListStreams({
    max: config.maxStreamedLists,
    waitMs: STREAM_WAIT_MS,
    stallMs: config.listStallSeconds * 1000,
    onStall: (path) => log.warn('list stalled', { path, seconds: config.listStallSeconds }),
  });
  return {
    ...deps,
    projectJson,
    writes,
    idempotency,
    tokens,
    lists,
    authenticate: createAuthenticate(tokens, users.findTokenHolder, personalTokens),
    personalTokens,
    login,
    /** OpenID Connect sign-in, when `oidc` is among the auth modules. */
    oidc,
    renewal,
    /** SPEC §2.5: an empty database gets an administrator (server.ts, once listening). */
    ensureFirstAdmin: (announce: (line: string) => void) =>
      ensureFirstAdmin({ config, db, users: userStore, passwords }, announce),
    users,
    roles,
    activities,
    projects,
    times,
    timer,
    reports,
    approvals,
    imports,
    keptRows,
  };
}
