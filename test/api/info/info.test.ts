// GET /v0/info (issue 15, part 4): what a client needs before logging in, with no token,
// and nothing secret in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server';

const VERSION = (require('../../../package.json') as { version: string }).version;
const SECRET = 'test-secret-key-that-is-long-enough-0123456789'; // startTestServer's key

describe('GET /v0/info', () => {
  let server: TestServer;
  let ldapServer: TestServer;
  before(async () => {
    server = await startTestServer();
    ldapServer = await startTestServer({
      env: {
        TIMETRACK_INSTANCE_NAME: 'acme-time',
        TIMETRACK_DISPLAY_NAME: 'Acme Time Tracking',
        TIMETRACK_AUTH_MODULES: '["password","ldap"]',
        TIMETRACK_LDAP_URL: 'ldap://127.0.0.1:1',
        TIMETRACK_LDAP_SEARCH_BASE: 'ou=people,dc=example,dc=org',
        TIMETRACK_LDAP_BIND_PASSWORD: 'ldap-bind-secret',
      },
    });
  });
  after(async () => {
    await server.close();
    await ldapServer.close();
  });

  it('answers the name, version, instance name and login types without a token', async () => {
    const res = await server.api.get('/info');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(res.body, {
      name: 'timetrack',
      version: VERSION,
      instance_name: 'timesync',
      display_name: 'timetrack',
      auth_modules: ['password'],
      oidc_label: null,
      api: 'v0',
    });
  });

  it('follows the configuration: instance name and LDAP offered', async () => {
    const res = await ldapServer.api.get('/info');
    assert.deepEqual(res.body, {
      name: 'timetrack',
      version: VERSION,
      instance_name: 'acme-time',
      display_name: 'Acme Time Tracking',
      auth_modules: ['password', 'ldap'],
      oidc_label: null,
      api: 'v0',
    });
    for (const secret of [SECRET, 'ldap-bind-secret', 'ldap://', 'ou=people']) {
      assert.ok(!res.text.includes(secret), `info shows ${secret}`);
    }
  });

  it('ignores any token, even a bad one, and answers HEAD; other methods are 405', async () => {
    const plain = await server.api.get('/info');
    for (const token of [server.adminToken, 'garbage']) {
      const res = await server.api.get('/info', token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.text, plain.text);
    }
    const bearer = await server.api.raw('/v0/info', { headers: { Authorization: 'Bearer x' } });
    assert.equal(bearer.text, plain.text);
    const head = await server.api.raw('/v0/info', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(plain.text)));
    const post = await server.api.raw('/v0/info', { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });
});
