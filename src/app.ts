// The application's services, built once per process from the config and the database.

import { type ActivityService, createActivityService } from './activities/service';
import { type ActivityStore, createActivityStore } from './activities/store';
import { ldapAuthenticator } from './auth/ldap';
import { createLoginService, passwordAuthenticator } from './auth/login';
import type { PasswordHasher } from './auth/password';
import { createLoginThrottle } from './auth/throttle';
import { createTokenService, type TokenService } from './auth/token';
import type { Config } from './config';
import type { Db } from './db/open';
import type { ReaderPool } from './db/readers';
import type { Logger } from './log';
import { createProjectService, type ProjectService } from './projects/service';
import { createProjectStore, type ProjectStore } from './projects/store';
import { createRoleService, type RoleService } from './roles/service';
import { createRoleStore, type RoleStore } from './roles/store';
import { createTimeService, type TimeService } from './times/service';
import { createTimeStore, type TimeStore } from './times/store';
import { createUserService, type UserService } from './users/service';
import { createUserStore, type UserStore } from './users/store';

export interface App {
  config: Readonly<Config>;
  log: Logger;
  db: Db;
  readers: ReaderPool;
  passwords: PasswordHasher;
  tokens: TokenService;
  login: ReturnType<typeof createLoginService>;
  userStore: UserStore;
  users: UserService;
  roleStore: RoleStore;
  roles: RoleService;
  activityStore: ActivityStore;
  activities: ActivityService;
  projectStore: ProjectStore;
  projects: ProjectService;
  timeStore: TimeStore;
  times: TimeService;
}

export interface AppDeps {
  config: Readonly<Config>;
  log: Logger;
  db: Db;
  readers: ReaderPool;
  passwords: PasswordHasher;
  secretKey: string;
}

export function createApp(deps: AppDeps): App {
  const { config, db, passwords } = deps;
  const tokens = createTokenService({
    secretKey: deps.secretKey,
    instanceName: config.instanceName,
    ttlSeconds: config.tokenTtlSeconds,
  });
  const userStore = createUserStore(db);
  const roleStore = createRoleStore(db);
  const roles = createRoleService(db, roleStore);
  const users = createUserService(db, userStore, roles);
  const activityStore = createActivityStore(db);
  const activities = createActivityService(db, activityStore);
  const projectStore = createProjectStore(db);
  const projects = createProjectService(db, projectStore, userStore, activityStore);
  const timeStore = createTimeStore(db);
  const times = createTimeService({
    db,
    times: timeStore,
    projects: projectStore,
    activities: activityStore,
    users: userStore,
  });
  const login = createLoginService({
    modules: config.authModules,
    authenticators: {
      password: passwordAuthenticator(userStore, passwords),
      ldap: config.authModules.includes('ldap')
        ? ldapAuthenticator({ ldap: config.ldap, db, users: userStore, log: deps.log })
        : undefined,
    },
    throttle: createLoginThrottle(
      db,
      config.loginMaxFailures,
      config.loginWindowSeconds,
      config.loginMaxFailuresPerAddress,
    ),
    tokens,
  });
  return {
    ...deps,
    tokens,
    login,
    userStore,
    users,
    roleStore,
    roles,
    activityStore,
    activities,
    projectStore,
    projects,
    timeStore,
    times,
  };
}
