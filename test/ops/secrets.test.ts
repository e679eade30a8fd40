// No secret ever reaches a log: a representative session (logins right and wrong,
// creates, refusals, ?token=, Bearer, password changes) runs against a server whose log
// lines are kept, and against a `serve` process whose stdout and stderr are kept; no
// token, password, bcrypt hash or signing key appears in them. The first admin's random
// password is printed once on stderr by design (SPEC §2.5) and nowhere else.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type Api, createApi } from '../helpers/api';
import { spawnCli } from '../helpers/cli';
import { ADMIN, bcryptHash, startTestServer, tempDir } from '../helpers/server';

const SECRET_KEY = 'secrets-test-signing-key-that-is-long-enough-42';

/** Everything secret a session handled, to look for in the logs. */
class Secrets {
  readonly values = new Set<string>();
  add(...values: string[]) {
    for (const v of values) {
      this.values.add(v);
      // A token's signature alone, or a hash without its prefix, is as bad.
      if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(v)) this.values.add(v.split('.')[2] as string);
      if (v.startsWith('$2')) this.values.add(v.slice(7));
    }
  }
  /** The secrets that occur in `text`. */
  foundIn(text: string): string[] {
    return [...this.values].filter(
      (v) => text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1)),
    );
  }
}

async function post(api: Api, path: string, body: unknown, headers: Record<string, string> = {}) {
  return api.raw(`/v0${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Logins, creates, refusals, query tokens and bearer tokens, as clients do them. */
async function session(api: Api, adminPassword: string, secrets: Secrets): Promise<void> {
  const adminToken = await api.login(ADMIN.username, adminPassword);
  secrets.add(adminPassword, adminToken);
  const password = 'correct horse battery staple';
  const hash = bcryptHash(password);
  secrets.add(password, hash);
  const created = await api.post('/users', adminToken, { username: 'carol', password: hash });
  assert.equal(created.status, 200, created.text);
  const carolToken = await api.login('carol', password);
  secrets.add(carolToken);

  // Wrong passwords, an unknown user, a wrong type, a password in a malformed body.
  for (const attempt of ['wrong-password-1', 'wrong-password-2']) {
    secrets.add(attempt);
    await post(api, '/login', { auth: { type: 'password', username: 'carol', password: attempt } });
    await post(api, '/login', {
      auth: { type: 'password', username: 'nobody', password: attempt },
    });
  }
  secrets.add('ldap-password-x');
  await post(api, '/login', {
    auth: { type: 'ldap', username: 'carol', password: 'ldap-password-x' },
  });
  await api.raw('/v0/login', { method: 'POST', body: `{"auth":{"password":"${password}"` });

  // Tokens in the query string, in a Bearer header, in POST bodies; some refused.
  assert.equal((await api.get('/users', carolToken)).status, 200);
  assert.equal((await api.get('/users', carolToken, { limit: 'x' })).status, 400);
  const bearer = await api.raw('/v0/users', { headers: { Authorization: `Bearer ${carolToken}` } });
  assert.equal(bearer.status, 200);
  await api.raw(`/v0/users?token=${adminToken}`, {
    headers: { Authorization: `Bearer ${carolToken}` },
  });
  const forged = `${carolToken.slice(0, -4)}AAAA`;
  secrets.add(forged);
  assert.equal((await api.get('/users', forged)).status, 401);
  await api.get('/nowhere', carolToken);
  await api.del('/users/admin', carolToken);

  // Password changes and refusals that carry hashes.
  const newHash = bcryptHash('another secret passphrase');
  secrets.add('another secret passphrase', newHash);
  assert.equal((await api.post('/users/carol', carolToken, { password: newHash })).status, 200);
  await api.post('/users/admin', carolToken, { password: newHash }); // kind 9
  await api.post('/users', carolToken, { username: 'dave', password: newHash }); // kind 9
  await api.post('/users', adminToken, { username: 'erin', password: 'not-a-hash-plain-secret' });
  secrets.add('not-a-hash-plain-secret');
  await api.post('/users/org-roles', carolToken, { name: 'x', slug: 'x' });
  await post(api, '/users', { auth: { type: 'token', token: forged }, object: {} });
  await post(api, '/users', { auth: { type: 'password', username: 'carol', password } });
}

describe('secrets in logs', () => {
  it('writes no token, password, hash or key into the request log', async () => {
    const server = await startTestServer({
      env: { LOG_LEVEL: 'debug', TIMETRACK_SECRET_KEY: SECRET_KEY },
    });
    const secrets = new Secrets();
    secrets.add(SECRET_KEY, server.adminToken);
    try {
      await session(server.api, ADMIN.password, secrets);
    } finally {
      await server.close();
    }
    const logs = server.logs.join('');
    assert.ok(server.logs.length > 20, 'the session was logged');
    assert.deepEqual(secrets.foundIn(logs), []);
  });

  it('prints the generated first-admin password once on stderr and no secret anywhere else', async () => {
    const dbFile = join(tempDir(), 'secrets.db');
    // No admin password and no signing key: both are generated.
    const child = spawnCli(['serve', '--port', '0', '--db', dbFile], { LOG_LEVEL: 'debug' });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (d) => {
        stdout += d;
        const match = /"msg":"listening","url":"([^"]+)"/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`serve exited: ${stderr}`)));
    });
    const secrets = new Secrets();
    try {
      const printed = /with password (\S+) \(shown only this once\)/.exec(stderr)?.[1];
      assert.ok(printed, stderr);
      await session(createApi(url), printed, secrets);
      const db = new Database(dbFile, { readonly: true });
      const key = db.prepare("SELECT value FROM settings WHERE key = 'secret_key'").pluck().get();
      db.close();
      assert.equal(typeof key, 'string');
      secrets.add(key as string);

      child.kill('SIGTERM');
      await exited;
      assert.equal(stderr.split(printed).length - 1, 1, 'the password is printed exactly once');
      assert.equal(stdout.includes(printed), false);
      secrets.values.delete(printed);
      assert.deepEqual(secrets.foundIn(stdout), []);
      assert.deepEqual(secrets.foundIn(stderr), []);
      assert.ok(stdout.split('\n').length > 20, 'the session was logged');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
