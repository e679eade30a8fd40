// POST /v0/logout (issue 29, item 6): the token it is sent with is refused from then on
// with kind 7 `Token has been revoked`, by every server on the file and after a restart;
// the user's other tokens stay valid. The body may be empty (a Bearer header alone) or
// hold the `auth` block.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { databaseChecksum } from '../../helpers/checksum';
import { authenticationBody, badObjectBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const REVOKED = authenticationBody('Token has been revoked');

/** POST /v0/logout with a Bearer header and no body. */
const logoutBearer = (server: TestServer, token: string) =>
  server.api.raw('/v0/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });

/** POST /v0/logout with the token in the body's auth block, as TimeSync clients send it. */
const logoutBody = (server: TestServer, body: unknown) =>
  server.api.raw('/v0/logout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const tokenAuth = (token: string) => ({ auth: { type: 'token', token } });

/** Whether `token` still works, on a GET and on a POST. */
async function answers(server: TestServer, token: string, username: string) {
  const get = await server.api.get(`/users/${username}`, token);
  const post = await server.api.post(`/users/${username}`, token, { meta: 'still here' });
  return { get: get.status === 200 ? 200 : get.body, post: post.status === 200 ? 200 : post.body };
}

describe('POST /v0/logout', () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUser(server);
  });
  after(() => server.close());

  it('ends the token sent as a Bearer header with no body; the other tokens stay valid', async () => {
    const other = await server.api.login(alice.username, alice.password);
    const ending = await server.api.login(alice.username, alice.password);
    assert.notEqual(ending, other);
    assert.deepEqual(await answers(server, ending, alice.username), { get: 200, post: 200 });

    const res = await logoutBearer(server, ending);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');

    assert.deepEqual(await answers(server, ending, alice.username), {
      get: REVOKED,
      post: REVOKED,
    });
    const bearer = await server.api.raw(`/v0/users/${alice.username}`, {
      headers: { Authorization: `Bearer ${ending}` },
    });
    assert.deepEqual(bearer.body, REVOKED);
    assert.deepEqual(await answers(server, other, alice.username), { get: 200, post: 200 });
    assert.deepEqual(await answers(server, alice.token, alice.username), { get: 200, post: 200 });
    // Signing out again with it is refused like any other use.
    assert.deepEqual((await logoutBearer(server, ending)).body, REVOKED);
  });

  it('ends the token sent in the auth block of the body (TimeSync clients)', async () => {
    const token = await server.api.login(alice.username, alice.password);
    const res = await logoutBody(server, tokenAuth(token));
    assert.equal(res.status, 204);
    assert.deepEqual((await server.api.get('/users', token)).body, REVOKED);
    // Members beside `auth` (a client that always sends `object`) change nothing.
    const next = await server.api.login(alice.username, alice.password);
    assert.equal((await logoutBody(server, { ...tokenAuth(next), object: {} })).status, 204);
    assert.deepEqual((await server.api.get('/users', next)).body, REVOKED);
  });

  it('refuses a missing, invalid or foreign token and a bad body, writing nothing', async () => {
    const token = await server.api.login(alice.username, alice.password);
    const before = databaseChecksum(server.dbFile);
    const cases: [string, Promise<{ body: unknown }>, unknown][] = [
      ['no body, no token', logoutBody(server, ''), authenticationBody('Missing credentials')],
      ['empty object', logoutBody(server, {}), authenticationBody('Missing credentials')],
      ['bad token', logoutBearer(server, `${token}x`), authenticationBody('Invalid token')],
      [
        'two tokens that differ',
        server.api.raw('/v0/logout', {
          method: 'POST',
          headers: { Authorization: `Bearer ${alice.token}` },
          body: JSON.stringify(tokenAuth(token)),
        }),
        authenticationBody('The bearer token and the request token differ'),
      ],
      [
        'not JSON',
        logoutBody(server, '{"auth":'),
        badObjectBody('The request body could not be parsed as valid JSON'),
      ],
      [
        'an array',
        logoutBody(server, '[]'),
        badObjectBody('Field body of request should be object but was sent as array'),
      ],
    ];
    for (const [name, reply, expected] of cases) {
      assert.deepEqual((await reply).body, expected, name);
    }
    assert.equal(databaseChecksum(server.dbFile), before);
    assert.equal((await server.api.get('/users', token)).status, 200, 'the token still works');
  });

  it('forgets sign-outs of tokens that have expired since', async () => {
    const db = new Database(server.dbFile);
    try {
      const id = db.prepare('SELECT id FROM users WHERE username = ?').pluck().get('admin');
      const insert = db.prepare(
        'INSERT INTO signed_out_tokens (user_id, issued_at, expires_at) VALUES (?, ?, ?)',
      );
      for (let i = 0; i < 10; i++) insert.run(id, i, 1_000 + i);
      const token = await server.api.login(alice.username, alice.password);
      assert.equal((await logoutBearer(server, token)).status, 204);
      const left = db.prepare('SELECT count(*) FROM signed_out_tokens WHERE expires_at < ?');
      assert.equal(left.pluck().get(Date.now()), 0, 'the expired ones are gone');
      assert.deepEqual((await server.api.get('/users', token)).body, REVOKED);
    } finally {
      db.close();
    }
  });
});

describe('POST /v0/logout across processes', () => {
  let first: TestServer;
  let second: TestServer;
  before(async () => {
    first = await startTestServer();
    second = await startTestServer({ dbFile: first.dbFile });
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  it('is seen at once by a second server on the file, and after a restart', async () => {
    const bob = await createUser(first);
    // The second server has the token's holder in its cache before the sign-out.
    assert.equal((await second.api.get('/users', bob.token)).status, 200);
    assert.equal((await logoutBearer(first, bob.token)).status, 204);
    assert.deepEqual((await second.api.get('/users', bob.token)).body, REVOKED);
    assert.deepEqual((await first.api.get('/users', bob.token)).body, REVOKED);

    await second.close();
    second = await startTestServer({ dbFile: first.dbFile });
    assert.deepEqual((await second.api.get('/users', bob.token)).body, REVOKED);
    const fresh = await second.api.login(bob.username, bob.password);
    assert.equal((await first.api.get('/users', fresh)).status, 200);
  });
});
