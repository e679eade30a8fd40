// Configuration (SPEC §8): flags > environment > defaults, validated once with clear
// messages; the signing key given or generated once and kept in the database.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ConfigError, loadConfig } from '../../src/config';
import { authenticationBody } from '../helpers/errors';
import { startTestServer, tempDir } from '../helpers/server';

const refuses = (flags: Record<string, string>, env: Record<string, string>, message: string) =>
  assert.throws(
    () => loadConfig(flags, env),
    (err: unknown) => err instanceof ConfigError && err.message === message,
    `${JSON.stringify({ flags, env })} → ${message}`,
  );

describe('settings', () => {
  it('has the defaults of SPEC §8', () => {
    const config = loadConfig({}, {});
    assert.deepEqual(config, {
      port: 8000,
      host: '127.0.0.1',
      db: './timetrack.db',
      secretKey: undefined,
      instanceName: 'timesync',
      displayName: 'timetrack',
      tokenTtlSeconds: 1800,
      sessionIdleSeconds: 1800,
      sessionMaxSeconds: 43200,
      authModules: ['password'],
      ldap: {
        url: undefined,
        searchBase: undefined,
        bindDn: undefined,
        bindPassword: undefined,
        usernameAttribute: 'uid',
        autoCreate: false,
        startTls: false,
      },
      oidc: {
        issuer: undefined,
        clientId: undefined,
        clientSecret: undefined,
        usernameClaim: 'preferred_username',
        autoCreate: false,
        label: 'Sign in with single sign-on',
      },
      publicUrl: undefined,
      adminUsername: 'admin',
      adminPassword: undefined,
      defaultLimit: 0,
      timerRoundingSeconds: 60,
      loginMaxFailures: 10,
      loginWindowSeconds: 600,
      loginMaxFailuresPerAddress: 100,
      loginQueuePerWorker: 32,
      lockWaitSeconds: 10,
      listStallSeconds: 60,
      maxStreamedLists: 8 * availableParallelism(),
      corsOrigins: ['*'],
      web: true,
      checkpoint: 'auto',
      trustProxy: false,
      metrics: false,
      metricsAddr: undefined,
      logLevel: 'info',
    });
    assert.ok(Object.isFrozen(config));
  });

  it('takes the environment over defaults and flags over the environment', () => {
    const env = {
      PORT: '9001',
      HOST: '0.0.0.0',
      TIMETRACK_DB: '/env.db',
      TIMETRACK_INSTANCE_NAME: 'from-env',
      TIMETRACK_TOKEN_TTL: '60',
      TIMETRACK_DEFAULT_LIMIT: '50',
      TIMETRACK_CORS_ORIGINS: 'https://a.example, https://b.example',
      LOG_LEVEL: 'DEBUG',
      TIMETRACK_ADMIN_USERNAME: 'Boss',
      TIMETRACK_ADMIN_PASSWORD: 'env-admin-password',
    };
    const fromEnv = loadConfig({}, env);
    assert.equal(fromEnv.port, 9001);
    assert.equal(fromEnv.host, '0.0.0.0');
    assert.equal(fromEnv.db, '/env.db');
    assert.equal(fromEnv.instanceName, 'from-env');
    assert.equal(fromEnv.tokenTtlSeconds, 60);
    assert.equal(fromEnv.defaultLimit, 50);
    assert.deepEqual(fromEnv.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(fromEnv.logLevel, 'debug');
    assert.equal(fromEnv.adminUsername, 'Boss');
    assert.equal(fromEnv.adminPassword, 'env-admin-password');

    const fromFlags = loadConfig(
      { port: 0, host: '::1', db: '/flag.db', 'instance-name': 'from-flag', 'token-ttl': '5' },
      env,
    );
    assert.equal(fromFlags.port, 0);
    assert.equal(fromFlags.host, '::1');
    assert.equal(fromFlags.db, '/flag.db');
    assert.equal(fromFlags.instanceName, 'from-flag');
    assert.equal(fromFlags.tokenTtlSeconds, 5);
    assert.equal(fromFlags.defaultLimit, 50, 'what no flag names still comes from the environment');
  });

  it('treats an empty value as not given', () => {
    assert.equal(loadConfig({ port: '' }, { PORT: '' }).port, 8000);
    assert.equal(loadConfig({}, { TIMETRACK_METRICS: '' }).metrics, false);
  });

  it('reads a bare true/false flag (--metrics, as yargs gives it: empty) as true', () => {
    const config = loadConfig({ metrics: '', 'trust-proxy': '', web: false }, {});
    assert.equal(config.metrics, true);
    assert.equal(config.trustProxy, true);
    assert.equal(config.web, false, '--no-web');
  });

  it('refuses bad values with a message naming the flag and the variable', () => {
    refuses(
      { port: 'eighty' },
      {},
      "--port / PORT must be a whole number from 0 to 65535, not 'eighty'",
    );
    refuses(
      {},
      { PORT: '70000' },
      "--port / PORT must be a whole number from 0 to 65535, not '70000'",
    );
    refuses({}, { PORT: '-1' }, "--port / PORT must be a whole number from 0 to 65535, not '-1'");
    refuses(
      {},
      { TIMETRACK_TOKEN_TTL: '0' },
      "--token-ttl / TIMETRACK_TOKEN_TTL must be a whole number from 1 to 315360000, not '0'",
    );
    refuses(
      {},
      { TIMETRACK_LOGIN_MAX_FAILURES: '1.5' },
      "--login-max-failures / TIMETRACK_LOGIN_MAX_FAILURES must be a whole number from 0 to 1000000, not '1.5'",
    );
    refuses(
      { 'timer-rounding': '0' },
      {},
      "--timer-rounding / TIMETRACK_TIMER_ROUNDING must be a whole number from 1 to 86400, not '0'",
    );
    refuses(
      {},
      { TIMETRACK_TIMER_ROUNDING: '1m' },
      "--timer-rounding / TIMETRACK_TIMER_ROUNDING must be a whole number from 1 to 86400, not '1m'",
    );
    refuses(
      {},
      { TIMETRACK_LDAP_AUTO_CREATE: 'maybe' },
      "--ldap-auto-create / TIMETRACK_LDAP_AUTO_CREATE must be true or false, not 'maybe'",
    );
    for (const modules of ['password', '[]', '["kerberos"]', '{"password":true}']) {
      refuses(
        {},
        { TIMETRACK_AUTH_MODULES: modules },
        `TIMETRACK_AUTH_MODULES must be a JSON list of "password", "ldap" and/or "oidc", not '${modules}'`,
      );
    }
    refuses(
      {},
      { TIMETRACK_AUTH_MODULES: '["password","ldap"]' },
      'the ldap login type needs TIMETRACK_LDAP_URL and TIMETRACK_LDAP_SEARCH_BASE (or --ldap-url, --ldap-search-base)',
    );
    const oidc = {
      TIMETRACK_AUTH_MODULES: '["oidc"]',
      TIMETRACK_OIDC_ISSUER: 'https://sso.example.org/realms/staff',
      TIMETRACK_OIDC_CLIENT_ID: 'timetrack',
    };
    refuses(
      {},
      oidc,
      'the oidc login type needs TIMETRACK_OIDC_ISSUER, TIMETRACK_OIDC_CLIENT_ID (or --oidc-issuer, --oidc-client-id) and TIMETRACK_OIDC_CLIENT_SECRET',
    );
    for (const issuer of ['http://sso.example.org', 'sso.example.org', 'ftp://localhost']) {
      refuses(
        {},
        { ...oidc, TIMETRACK_OIDC_CLIENT_SECRET: 's', TIMETRACK_OIDC_ISSUER: issuer },
        `--oidc-issuer / TIMETRACK_OIDC_ISSUER must be an https:// URL (http:// only on localhost), not '${issuer}'`,
      );
    }
    for (const url of ['time.example.org', 'https://time.example.org/?a=1', 'ftp://x.org']) {
      refuses(
        {},
        { TIMETRACK_PUBLIC_URL: url },
        `--public-url / TIMETRACK_PUBLIC_URL must be an http:// or https:// address without query or fragment, not '${url}'`,
      );
    }
    refuses(
      {},
      { LOG_LEVEL: 'verbose' },
      "LOG_LEVEL must be one of error, warn, info, debug, not 'verbose'",
    );
    refuses(
      {},
      { TIMETRACK_CHECKPOINT: 'never' },
      "--checkpoint / TIMETRACK_CHECKPOINT must be auto or litestream, not 'never'",
    );
    for (const addr of ['9464', 'host:', ':9464', 'host:99999', '::1:9464']) {
      refuses(
        {},
        { TIMETRACK_METRICS: 'true', TIMETRACK_METRICS_ADDR: addr },
        `--metrics-addr / TIMETRACK_METRICS_ADDR must be host:port (e.g. 127.0.0.1:9464), not '${addr}'`,
      );
    }
    refuses(
      {},
      { TIMETRACK_METRICS_ADDR: '127.0.0.1:9464' },
      'TIMETRACK_METRICS_ADDR needs TIMETRACK_METRICS=true (or --metrics)',
    );
    for (const name of ['two words', 'org-roles']) {
      refuses(
        {},
        { TIMETRACK_ADMIN_USERNAME: name },
        `TIMETRACK_ADMIN_USERNAME must be a valid username (1-64 of A-Z a-z 0-9 - . _ ~), not '${name}'`,
      );
    }
  });

  it('reads the operations settings: checkpoints, proxy, metrics and their address', () => {
    const config = loadConfig(
      { checkpoint: 'Litestream', 'trust-proxy': 'true' },
      { TIMETRACK_METRICS: '1', TIMETRACK_METRICS_ADDR: '[::1]:9464' },
    );
    assert.equal(config.checkpoint, 'litestream');
    assert.equal(config.trustProxy, true);
    assert.equal(config.metrics, true);
    assert.deepEqual(config.metricsAddr, { host: '::1', port: 9464 });
    assert.deepEqual(loadConfig({ metrics: 'true', 'metrics-addr': '0.0.0.0:0' }, {}).metricsAddr, {
      host: '0.0.0.0',
      port: 0,
    });
  });

  it('accepts password and ldap together when the directory is configured', () => {
    const config = loadConfig(
      {},
      {
        TIMETRACK_AUTH_MODULES: '["ldap","password","ldap"]',
        TIMETRACK_LDAP_URL: 'ldap://127.0.0.1:389',
        TIMETRACK_LDAP_SEARCH_BASE: 'ou=people,dc=example,dc=org',
        TIMETRACK_LDAP_AUTO_CREATE: 'TRUE',
      },
    );
    assert.deepEqual(config.authModules, ['ldap', 'password']);
    assert.equal(config.ldap.autoCreate, true);
  });

  it('refuses StartTLS on an ldaps:// URL, which is encrypted already', () => {
    assert.throws(
      () =>
        loadConfig(
          {},
          {
            TIMETRACK_LDAP_URL: 'ldaps://ldap.example.org',
            TIMETRACK_LDAP_STARTTLS: 'true',
          },
        ),
      {
        message:
          'TIMETRACK_LDAP_STARTTLS is for ldap:// URLs; an ldaps:// URL is encrypted already',
      },
    );
  });
});

describe('the signing key', () => {
  const SHORT = 'the secret key must be at least 32 bytes long';

  it('is the value as given, at least 32 bytes (counted in UTF-8)', () => {
    assert.equal(
      loadConfig({}, { TIMETRACK_SECRET_KEY: 'k'.repeat(32) }).secretKey,
      'k'.repeat(32),
    );
    assert.equal(
      loadConfig({}, { TIMETRACK_SECRET_KEY: 'ü'.repeat(16) }).secretKey,
      'ü'.repeat(16),
    );
    refuses({}, { TIMETRACK_SECRET_KEY: 'k'.repeat(31) }, SHORT);
    refuses({}, { TIMETRACK_SECRET_KEY: 'ü'.repeat(15) }, SHORT);
  });

  it('can come from a file (without its final newline), which wins over the variable', () => {
    const dir = tempDir();
    const file = join(dir, 'key');
    writeFileSync(file, `${'f'.repeat(40)}\n`);
    const config = loadConfig(
      { 'secret-key-file': file },
      { TIMETRACK_SECRET_KEY: 'e'.repeat(40) },
    );
    assert.equal(config.secretKey, 'f'.repeat(40));
    writeFileSync(file, 'short\n');
    refuses({ 'secret-key-file': file }, {}, SHORT);
    assert.throws(
      () => loadConfig({ 'secret-key-file': join(dir, 'missing') }, {}),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.message.startsWith(`cannot read the secret key file ${join(dir, 'missing')}`),
    );
  });

  it('is generated once, kept in the database, and so survives a restart', async () => {
    const noKey = { TIMETRACK_SECRET_KEY: '' };
    const first = await startTestServer({ env: noKey });
    const { dbFile, adminToken } = first;
    await first.close();
    const db = new Database(dbFile, { readonly: true });
    const stored = db
      .prepare("SELECT value FROM settings WHERE key = 'secret_key'")
      .pluck()
      .get() as string;
    db.close();
    assert.ok(Buffer.byteLength(stored) >= 64);

    const second = await startTestServer({ env: noKey, dbFile });
    try {
      assert.equal((await second.api.get('/users', adminToken)).status, 200, 'old token accepted');
    } finally {
      await second.close();
    }
    // A configured key takes precedence: tokens signed with the stored one are refused.
    const third = await startTestServer({ env: { TIMETRACK_SECRET_KEY: 'x'.repeat(40) }, dbFile });
    try {
      assert.deepEqual(
        (await third.api.get('/users', adminToken)).body,
        authenticationBody('Invalid token'),
      );
    } finally {
      await third.close();
    }
  });

  it('refuses to open a database made by a newer timetrack', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'newer.db');
    const first = await startTestServer({ dbFile });
    await first.close();
    const db = new Database(dbFile);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future', 0)",
    ).run();
    db.close();
    await assert.rejects(
      startTestServer({ dbFile }),
      /schema version 999, newer than this timetrack knows/,
    );
  });
});
