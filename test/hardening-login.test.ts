// Issue 19, "Hardening, round 2" — the login items: auth.type that is not a string (8),
// foreign Authorization schemes (12), expired login_failures rows (10), and the bounded,
// droppable bcrypt queue with per-address accounting (3). Real HTTP, real server on
// port 0, temporary SQLite file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticationBody } from './helpers/errors';
import { createUser, type TestUser } from './helpers/factories';
import { startTestServer, type TestServer } from './helpers/server';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('auth.type that is not a string (item 8)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers kind 7 at /login, never a 500 with a stack trace', async () => {
    const cases: [unknown, string][] = [
      [{ toString: 1 }, 'Invalid authentication type'],
      [{ toString: 1, valueOf: 1 }, 'Invalid authentication type'],
      [['password'], 'Invalid authentication type'],
      [5, 'Invalid authentication type'],
      [null, 'Invalid authentication type'],
      ['kerberos', 'kerberos is not a valid authentication type'],
    ];
    for (const [type, text] of cases) {
      const res = await server.api.raw(
        '/v0/login',
        json({ auth: { type, username: 'admin', password: 'x' } }),
      );
      assert.deepEqual(res.body, authenticationBody(text), JSON.stringify(type));
    }
    assert.ok(!server.logs.some((line) => line.includes('unexpected error')), 'no 500 logged');
  });

  it('answers kind 7 in the auth block of any other POST', async () => {
    const cases: [unknown, string][] = [
      [{ toString: 1 }, 'Invalid authentication type'],
      [7, 'Invalid authentication type'],
      ['password', 'password is not a valid authentication type'],
    ];
    for (const [type, text] of cases) {
      const res = await server.api.raw(
        '/v0/users',
        json({ auth: { type, token: server.adminToken }, object: {} }),
      );
      assert.deepEqual(res.body, authenticationBody(text), JSON.stringify(type));
    }
    assert.ok(!server.logs.some((line) => line.includes('unexpected error')), 'no 500 logged');
  });
});

describe('Authorization schemes other than Bearer (item 12)', () => {
  let server: TestServer;
  let user: TestUser;
  before(async () => {
    server = await startTestServer();
    user = await createUser(server);
  });
  after(() => server.close());

  it('ignores a Basic header (a reverse proxy’s own) beside a valid ?token=', async () => {
    const res = await server.api.raw(`/v0/users/${user.username}?token=${user.token}`, {
      headers: { Authorization: 'Basic cHJveHk6c2VjcmV0' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as { username: string }).username, user.username);
  });

  it('ignores it beside a token in a POST auth block', async () => {
    const res = await server.api.raw(`/v0/users/${user.username}`, {
      ...json({ auth: { type: 'token', token: user.token }, object: { meta: 'via proxy' } }),
      headers: { 'Content-Type': 'application/json', Authorization: 'Digest username="proxy"' },
    });
    assert.equal(res.status, 200, res.text);
  });

  it('still refuses a malformed Bearer header, even beside a valid ?token=', async () => {
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'bearer  ']) {
      const res = await server.api.raw(`/v0/users?token=${user.token}`, {
        headers: { Authorization: header },
      });
      assert.deepEqual(res.body, authenticationBody('Malformed Authorization header'), header);
    }
  });
});
