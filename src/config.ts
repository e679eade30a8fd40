// Every setting of `timetrack serve` in one table: flag, environment variable, default,
// parser. Flags override the environment, which overrides defaults (SPEC §8). The same
// table generates the yargs options (so `--help` lists everything) and the README table.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isNewUsername } from './identifiers';
import { LOG_LEVELS, type LogLevel } from './log';

export const AUTH_MODULES = ['password', 'ldap', 'oidc'] as const;
export type AuthModule = (typeof AUTH_MODULES)[number];

export const CHECKPOINT_MODES = ['auto', 'litestream'] as const;
export type CheckpointMode = (typeof CHECKPOINT_MODES)[number];

export interface LdapConfig {
  url: string | undefined;
  searchBase: string | undefined;
  bindDn: string | undefined;
  bindPassword: string | undefined;
  usernameAttribute: string;
  autoCreate: boolean;
  /** Upgrade an ldap:// connection with StartTLS before anything is sent. */
  startTls: boolean;
}

export interface OidcConfig {
  /** The provider's issuer identifier (its discovery document is under it). */
  issuer: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The ID token or userinfo claim whose value is the local username. */
  usernameClaim: string;
  autoCreate: boolean;
  /** The sign-in page's button text. */
  label: string;
}

export interface Config {
  port: number;
  host: string;
  db: string;
  secretKey: string | undefined;
  instanceName: string;
  /** The name people see (the sign-in page); instanceName stays the tokens' issuer. */
  displayName: string;
  tokenTtlSeconds: number;
  /** A renewed token's lifetime: a session unused this long ends (POST /v0/login/renew). */
  sessionIdleSeconds: number;
  /** No renewal this long after the sign-in: then one signs in again. */
  sessionMaxSeconds: number;
  authModules: readonly AuthModule[];
  ldap: LdapConfig;
  oidc: OidcConfig;
  /** The address browsers use (no trailing slash); unset: the request's own. */
  publicUrl: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  defaultLimit: number;
  /** A stopped timer's duration is rounded to a multiple of this (docs/api-timer.md). */
  timerRoundingSeconds: number;
  loginMaxFailures: number;
  loginWindowSeconds: number;
  lockWaitSeconds: number;
  loginMaxFailuresPerAddress: number;
  loginQueuePerWorker: number;
  /** A streamed list or report whose client takes nothing for this long is cut off (http/list.ts, http/text-body.ts). */
  listStallSeconds: number;
  /** Lists and reports streamed at once (each holds a database reader); more wait, then get 503. */
  maxStreamedLists: number;
  corsOrigins: readonly string[];
  /** Serve the web app (src/web) next to the API; false: the API only. */
  web: boolean;
  /** `litestream`: no checkpoints of our own (Litestream makes them); `auto`: SQLite's. */
  checkpoint: CheckpointMode;
  /** Take the client address from X-Forwarded-For (its last entry: our proxy's peer). */
  trustProxy: boolean;
  /** Serve GET /metrics (Prometheus). */
  metrics: boolean;
  /** host:port of a listener of its own for /metrics; unset: /metrics on the API's. */
  metricsAddr: { host: string; port: number } | undefined;
  logLevel: LogLevel;
}

export class ConfigError extends Error {}

interface Setting {
  flag: string;
  env: string;
  default: string | undefined;
  describe: string;
  /** Settings given only through the environment (secrets) have no flag. */
  envOnly?: boolean;
}

/** `--max-streamed-lists auto`: this many per CPU core (os.availableParallelism()). */
export const STREAMS_PER_CORE = 8;

/** The settings of `serve`, in the order of `--help` and the README table. */
export const SETTINGS = [
  {
    flag: 'port',
    env: 'PORT',
    default: '8000',
    describe: 'TCP port to listen on (0 = any free port)',
  },
  { flag: 'host', env: 'HOST', default: '127.0.0.1', describe: 'address to listen on' },
  {
    flag: 'db',
    env: 'TIMETRACK_DB',
    default: './timetrack.db',
    describe: 'the SQLite database file',
  },
  {
    flag: 'secret-key-file',
    env: 'TIMETRACK_SECRET_KEY_FILE',
    default: undefined,
    describe:
      'file holding the token signing key (else TIMETRACK_SECRET_KEY, else generated and kept in the db)',
  },
  {
    flag: 'secret-key',
    env: 'TIMETRACK_SECRET_KEY',
    default: undefined,
    describe: 'token signing key, at least 32 bytes',
    envOnly: true,
  },
  {
    flag: 'instance-name',
    env: 'TIMETRACK_INSTANCE_NAME',
    default: 'timesync',
    describe: 'token issuer name',
  },
  {
    flag: 'display-name',
    env: 'TIMETRACK_DISPLAY_NAME',
    default: 'timetrack',
    describe:
      "the instance's name as people see it (the sign-in page; GET /v0/info's display_name)",
  },
  {
    flag: 'token-ttl',
    env: 'TIMETRACK_TOKEN_TTL',
    default: '1800',
    describe: 'token lifetime in seconds',
  },
  {
    flag: 'session-idle',
    env: 'TIMETRACK_SESSION_IDLE',
    default: '1800',
    describe:
      'lifetime in seconds of a token renewed by POST /v0/login/renew: the web app renews while used, so a session idle this long ends',
  },
  {
    flag: 'session-max',
    env: 'TIMETRACK_SESSION_MAX',
    default: '43200',
    describe: 'seconds after a sign-in beyond which its tokens are no longer renewed',
  },
  {
    flag: 'auth-modules',
    env: 'TIMETRACK_AUTH_MODULES',
    default: '["password"]',
    describe: 'JSON list of enabled login types: "password", "ldap", "oidc" (docs/sso.md)',
  },
  {
    flag: 'ldap-url',
    env: 'TIMETRACK_LDAP_URL',
    default: undefined,
    describe: 'ldap:// or ldaps:// URL of the directory',
  },
  {
    flag: 'ldap-search-base',
    env: 'TIMETRACK_LDAP_SEARCH_BASE',
    default: undefined,
    describe: 'base DN under which users are searched',
  },
  {
    flag: 'ldap-bind-dn',
    env: 'TIMETRACK_LDAP_BIND_DN',
    default: undefined,
    describe: 'DN for the search bind (optional)',
  },
  {
    flag: 'ldap-bind-password',
    env: 'TIMETRACK_LDAP_BIND_PASSWORD',
    default: undefined,
    describe: 'password for the search bind',
    envOnly: true,
  },
  {
    flag: 'ldap-username-attribute',
    env: 'TIMETRACK_LDAP_USERNAME_ATTRIBUTE',
    default: 'uid',
    describe: 'directory attribute holding the username',
  },
  {
    flag: 'ldap-starttls',
    env: 'TIMETRACK_LDAP_STARTTLS',
    default: 'false',
    describe: 'upgrade an ldap:// connection with StartTLS before any bind (system CAs)',
  },
  {
    flag: 'ldap-auto-create',
    env: 'TIMETRACK_LDAP_AUTO_CREATE',
    default: 'false',
    describe: 'create a plain local user on first successful LDAP login',
  },
  {
    flag: 'oidc-issuer',
    env: 'TIMETRACK_OIDC_ISSUER',
    default: undefined,
    describe:
      "OpenID Connect provider's issuer URL (its discovery document is <issuer>/.well-known/openid-configuration)",
  },
  {
    flag: 'oidc-client-id',
    env: 'TIMETRACK_OIDC_CLIENT_ID',
    default: undefined,
    describe: 'client id registered for timetrack at the provider',
  },
  {
    flag: 'oidc-client-secret',
    env: 'TIMETRACK_OIDC_CLIENT_SECRET',
    default: undefined,
    describe: 'client secret registered for timetrack at the provider',
    envOnly: true,
  },
  {
    flag: 'oidc-username-claim',
    env: 'TIMETRACK_OIDC_USERNAME_CLAIM',
    default: 'preferred_username',
    describe:
      'claim holding the username (an email address names the user of its local part with exactly that email)',
  },
  {
    flag: 'oidc-auto-create',
    env: 'TIMETRACK_OIDC_AUTO_CREATE',
    default: 'false',
    describe: 'create a plain local user on first OpenID Connect sign-in',
  },
  {
    flag: 'oidc-label',
    env: 'TIMETRACK_OIDC_LABEL',
    default: 'Sign in with single sign-on',
    describe: "the sign-in page's single sign-on button text",
  },
  {
    flag: 'public-url',
    env: 'TIMETRACK_PUBLIC_URL',
    default: undefined,
    describe:
      'the address browsers use (e.g. https://time.example.org); the OpenID Connect redirect URI is <public URL>/v0/oidc/callback (unset: the address the request came in on)',
  },
  {
    flag: 'admin-username',
    env: 'TIMETRACK_ADMIN_USERNAME',
    default: 'admin',
    describe: 'first administrator created on an empty database',
  },
  {
    flag: 'admin-password',
    env: 'TIMETRACK_ADMIN_PASSWORD',
    default: undefined,
    describe: "first administrator's password (random and printed once when unset)",
    envOnly: true,
  },
  {
    flag: 'default-limit',
    env: 'TIMETRACK_DEFAULT_LIMIT',
    default: '0',
    describe: 'default page size of lists (0 = whole list)',
  },
  {
    flag: 'timer-rounding',
    env: 'TIMETRACK_TIMER_ROUNDING',
    default: '60',
    describe:
      'seconds a stopped timer is rounded to (nearest multiple); a timer stopped before one step books nothing (docs/api-timer.md)',
  },
  {
    flag: 'login-max-failures',
    env: 'TIMETRACK_LOGIN_MAX_FAILURES',
    default: '10',
    describe: 'failed logins per username before throttling (0 disables)',
  },
  {
    flag: 'login-window',
    env: 'TIMETRACK_LOGIN_WINDOW',
    default: '600',
    describe: 'throttling window in seconds (0 disables)',
  },
  {
    flag: 'login-max-failures-per-ip',
    env: 'TIMETRACK_LOGIN_MAX_FAILURES_PER_IP',
    default: '100',
    describe:
      "failed logins per client address (the connection's, or the proxy's X-Forwarded-For with --trust-proxy; whatever the usernames) before throttling (0 disables)",
  },
  {
    flag: 'login-queue-per-worker',
    env: 'TIMETRACK_LOGIN_QUEUE_PER_WORKER',
    default: '32',
    describe:
      'password checks that may wait per bcrypt worker (one per core, ~70 ms each); more logins are refused with Retry-After',
  },
  {
    flag: 'lock-wait',
    env: 'TIMETRACK_LOCK_WAIT',
    default: '10',
    describe:
      "seconds a write waits for another process's write lock (without blocking other requests) before answering 503",
  },
  {
    flag: 'list-stall-seconds',
    env: 'TIMETRACK_LIST_STALL_SECONDS',
    default: '60',
    describe:
      'a streamed list or report whose client reads nothing for this many seconds is cut off and its database snapshot freed',
  },
  {
    flag: 'max-streamed-lists',
    env: 'TIMETRACK_MAX_STREAMED_LISTS',
    default: 'auto',
    describe: `lists of over 1,000 rows and large reports streamed at once; more wait up to 1 s, then get 503 (auto = ${STREAMS_PER_CORE} per CPU core)`,
  },
  {
    flag: 'cors-origins',
    env: 'TIMETRACK_CORS_ORIGINS',
    default: '*',
    describe: 'allowed browser origins: * or a comma-separated list',
  },
  {
    flag: 'web',
    env: 'TIMETRACK_WEB',
    default: 'true',
    describe: 'serve the web app on / next to the API (--no-web: the API only)',
  },
  {
    flag: 'checkpoint',
    env: 'TIMETRACK_CHECKPOINT',
    default: 'auto',
    describe:
      'auto: SQLite folds the WAL into the file as it grows and at stop; litestream: never, Litestream does (see docs/operations.md)',
  },
  {
    flag: 'trust-proxy',
    env: 'TIMETRACK_TRUST_PROXY',
    default: 'false',
    describe:
      "behind one reverse proxy: the client address (logs, login throttling) is the last X-Forwarded-For entry, and the request id the proxy's X-Request-Id",
  },
  {
    flag: 'metrics',
    env: 'TIMETRACK_METRICS',
    default: 'false',
    describe: 'serve Prometheus metrics on GET /metrics (no token)',
  },
  {
    flag: 'metrics-addr',
    env: 'TIMETRACK_METRICS_ADDR',
    default: undefined,
    describe: 'host:port on which /metrics is served instead of the API address (needs --metrics)',
  },
  { flag: 'log-level', env: 'LOG_LEVEL', default: 'info', describe: 'error, warn, info or debug' },
] as const satisfies readonly Setting[];

export type SettingFlag = (typeof SETTINGS)[number]['flag'];
type Raw = Partial<Record<SettingFlag, string | number | boolean | undefined>>;

/** Resolves flags > environment > defaults and validates every value once. */
export function loadConfig(flags: Raw, env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const raw = (flag: SettingFlag): string | undefined => {
    const setting = SETTINGS.find((s) => s.flag === flag);
    if (!setting) throw new Error(`unknown setting ${flag}`);
    const given = flags[flag];
    // yargs gives a bare `--metrics` (a string option) as '': for a true/false setting
    // that is the flag switched on.
    if (given === '' && (setting.default === 'true' || setting.default === 'false')) return 'true';
    if (given !== undefined && given !== '') return String(given);
    const fromEnv = env[setting.env];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    return setting.default;
  };
  const str = (flag: SettingFlag): string => raw(flag) ?? '';
  /** Names both ways of giving a setting: the operator may have used either. */
  const label = (flag: SettingFlag) => `--${flag} / ${SETTINGS.find((s) => s.flag === flag)?.env}`;
  const int = (flag: SettingFlag, min: number, max: number): number => {
    const value = str(flag);
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new ConfigError(
        `${label(flag)} must be a whole number from ${min} to ${max}, not '${value}'`,
      );
    }
    return n;
  };
  const streamedLists = (): number => {
    const value = str('max-streamed-lists');
    if (value.toLowerCase() === 'auto') return STREAMS_PER_CORE * availableParallelism();
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > 100_000) {
      throw new ConfigError(
        `${label('max-streamed-lists')} must be auto or a whole number from 1 to 100000, not '${value}'`,
      );
    }
    return n;
  };
  const bool = (flag: SettingFlag): boolean => {
    const value = str(flag).toLowerCase();
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no', ''].includes(value)) return false;
    throw new ConfigError(`${label(flag)} must be true or false, not '${value}'`);
  };

  const config: Config = {
    port: int('port', 0, 65535),
    host: str('host'),
    db: str('db'),
    secretKey: readSecretKey(raw('secret-key-file'), raw('secret-key')),
    instanceName: str('instance-name'),
    displayName: str('display-name'),
    tokenTtlSeconds: int('token-ttl', 1, 10 * 365 * 86400),
    sessionIdleSeconds: int('session-idle', 1, 10 * 365 * 86400),
    sessionMaxSeconds: int('session-max', 1, 10 * 365 * 86400),
    authModules: parseAuthModules(str('auth-modules')),
    ldap: {
      url: raw('ldap-url'),
      searchBase: raw('ldap-search-base'),
      bindDn: raw('ldap-bind-dn'),
      bindPassword: raw('ldap-bind-password'),
      usernameAttribute: str('ldap-username-attribute'),
      autoCreate: bool('ldap-auto-create'),
      startTls: bool('ldap-starttls'),
    },
    oidc: {
      issuer: parseIssuer(raw('oidc-issuer')),
      clientId: raw('oidc-client-id'),
      clientSecret: raw('oidc-client-secret'),
      usernameClaim: str('oidc-username-claim'),
      autoCreate: bool('oidc-auto-create'),
      label: str('oidc-label'),
    },
    publicUrl: parsePublicUrl(raw('public-url')),
    adminUsername: parseAdminUsername(str('admin-username')),
    adminPassword: raw('admin-password'),
    defaultLimit: int('default-limit', 0, Number.MAX_SAFE_INTEGER),
    timerRoundingSeconds: int('timer-rounding', 1, 86400),
    loginMaxFailures: int('login-max-failures', 0, 1_000_000),
    loginWindowSeconds: int('login-window', 0, 365 * 86400),
    lockWaitSeconds: int('lock-wait', 0, 3600),
    loginMaxFailuresPerAddress: int('login-max-failures-per-ip', 0, 1_000_000),
    loginQueuePerWorker: int('login-queue-per-worker', 0, 100_000),
    listStallSeconds: int('list-stall-seconds', 1, 86400),
    maxStreamedLists: streamedLists(),
    corsOrigins: str('cors-origins')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    web: bool('web'),
    checkpoint: parseCheckpoint(str('checkpoint')),
    trustProxy: bool('trust-proxy'),
    metrics: bool('metrics'),
    metricsAddr: parseMetricsAddr(raw('metrics-addr')),
    logLevel: parseLogLevel(str('log-level')),
  };
  if (config.authModules.includes('ldap') && (!config.ldap.url || !config.ldap.searchBase)) {
    throw new ConfigError(
      'the ldap login type needs TIMETRACK_LDAP_URL and TIMETRACK_LDAP_SEARCH_BASE (or --ldap-url, --ldap-search-base)',
    );
  }
  if (
    config.authModules.includes('oidc') &&
    (!config.oidc.issuer || !config.oidc.clientId || !config.oidc.clientSecret)
  ) {
    throw new ConfigError(
      'the oidc login type needs TIMETRACK_OIDC_ISSUER, TIMETRACK_OIDC_CLIENT_ID (or --oidc-issuer, --oidc-client-id) and TIMETRACK_OIDC_CLIENT_SECRET',
    );
  }
  if (config.ldap.startTls && /^ldaps:/i.test(config.ldap.url ?? '')) {
    throw new ConfigError(
      'TIMETRACK_LDAP_STARTTLS is for ldap:// URLs; an ldaps:// URL is encrypted already',
    );
  }
  if (config.metricsAddr && !config.metrics) {
    throw new ConfigError('TIMETRACK_METRICS_ADDR needs TIMETRACK_METRICS=true (or --metrics)');
  }
  return Object.freeze(config);
}

function parseCheckpoint(value: string): CheckpointMode {
  const mode = value.toLowerCase();
  if (!(CHECKPOINT_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(
      `--checkpoint / TIMETRACK_CHECKPOINT must be auto or litestream, not '${value}'`,
    );
  }
  return mode as CheckpointMode;
}

/** `host:port` or `[ipv6]:port`; the port may be 0 (tests). */
function parseMetricsAddr(value: string | undefined): Config['metricsAddr'] {
  if (value === undefined) return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  const host = match?.[1] ?? match?.[2];
  if (!match || !host || port > 65535) {
    throw new ConfigError(
      `--metrics-addr / TIMETRACK_METRICS_ADDR must be host:port (e.g. 127.0.0.1:9464), not '${value}'`,
    );
  }
  return { host, port };
}

/** The signing key is the UTF-8 bytes of the value as given (SPEC §2.3). */
function readSecretKey(file: string | undefined, value: string | undefined): string | undefined {
  let key = value;
  if (file) {
    try {
      key = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new ConfigError(`cannot read the secret key file ${file}: ${(err as Error).message}`);
    }
  }
  if (key !== undefined && Buffer.byteLength(key, 'utf8') < 32) {
    throw new ConfigError('the secret key must be at least 32 bytes long');
  }
  return key;
}

/**
 * https://, or http:// on this machine only (a provider run for tests or development):
 * the client secret and the tokens must not cross a network in the clear.
 */
function parseIssuer(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url?.hostname ?? '');
  if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    throw new ConfigError(
      `--oidc-issuer / TIMETRACK_OIDC_ISSUER must be an https:// URL (http:// only on localhost), not '${value}'`,
    );
  }
  return value;
}

/** An http(s) origin with an optional path; kept without its trailing slash. */
function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(
      `--public-url / TIMETRACK_PUBLIC_URL must be an http:// or https:// address without query or fragment, not '${value}'`,
    );
  }
  return value.replace(/\/+$/, '');
}

function parseAuthModules(value: string): AuthModule[] {
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    list = undefined;
  }
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((m): m is AuthModule => (AUTH_MODULES as readonly unknown[]).includes(m))
  ) {
    throw new ConfigError(
      `TIMETRACK_AUTH_MODULES must be a JSON list of "password", "ldap" and/or "oidc", not '${value}'`,
    );
  }
  return [...new Set(list)];
}

/** The first admin is created from this name, so it must be a valid username (SPEC §1). */
function parseAdminUsername(value: string): string {
  if (!isNewUsername(value)) {
    throw new ConfigError(
      `TIMETRACK_ADMIN_USERNAME must be a valid username (1-64 of A-Z a-z 0-9 - . _ ~), not '${value}'`,
    );
  }
  return value;
}

function parseLogLevel(value: string): LogLevel {
  const level = value.toLowerCase();
  if (!(LOG_LEVELS as string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${value}'`);
  }
  return level as LogLevel;
}
