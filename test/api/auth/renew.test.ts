// POST /v0/login/renew (issue 34), our extension: a valid token for a fresh one that lives
// --session-idle seconds, never past --session-max after the sign-in it descends from;
// refused for a revoked token, a deactivated user, an expired or forged token. The tokens
// keep TimeSync's claims exactly (SPEC §2.3), and /v0/login is unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticationBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64').toString('utf8')) as Record<
    string,
    unknown
  >;

const renew = (server: TestServer, token: string) =>
  server.api.raw('/v0/login/renew', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

const renewBody = (server: TestServer, token: string) =>
  server.api.raw('/v0/login/renew', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: { type: 'token', token } }),
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('POST /v0/login/renew', () => {
  let server: TestServer;
  let short: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_SESSION_IDLE: '120', TIMETRACK_SESSION_MAX: '3600' },
    });
    short = await startTestServer({
      env: { TIMETRACK_TOKEN_TTL: '60', TIMETRACK_SESSION_IDLE: '60', TIMETRACK_SESSION_MAX: '2' },
    });
    alice = await createUser(server, { username: 'alice' });
    await createUser(short, { username: 'alice' });
  });
  after(async () => {
    await server.close();
    await short.close();
  });

  it('answers a fresh token living --session-idle, with exactly TimeSync’s claims', async () => {
    const first = await server.api.login('alice', alice.password);
    assert.equal((claimsOf(first).exp as number) - (claimsOf(first).iat as number), 1800_000);
    await sleep(2);
    for (const send of [renew, renewBody]) {
      const res = await send(server, first);
      assert.equal(res.status, 200, res.text);
      const { token } = res.body as { token: string };
      assert.notEqual(token, first);
      const claims = claimsOf(token);
      assert.deepEqual(Object.keys(claims).sort(), ['exp', 'iat', 'iss', 'sub']);
      assert.equal(claims.sub, 'alice');
      assert.equal((claims.exp as number) - (claims.iat as number), 120_000);
      assert.equal((await server.api.get('/users/alice', token)).status, 200);
    }
    // The renewed token renews in turn.
    const again = await renew(
      server,
      ((await renew(server, first)).body as { token: string }).token,
    );
    assert.equal(again.status, 200, again.text);
  });

  it('refuses a signed-out token, a deactivated user, a forged or missing token', async () => {
    const token = await server.api.login('alice', alice.password);
    const renewed = ((await renew(server, token)).body as { token: string }).token;
    assert.equal(
      (
        await server.api.raw('/v0/logout', {
          method: 'POST',
          headers: { Authorization: `Bearer ${renewed}` },
        })
      ).status,
      204,
    );
    const revoked = await renew(server, renewed);
    assert.equal(revoked.status, 401);
    assert.deepEqual(revoked.body, authenticationBody('Token has been revoked'));

    const bob = await createUser(server, { username: 'bob' });
    const off = await server.api.post('/users/bob', server.adminToken, { active: false });
    assert.equal(off.status, 200, off.text);
    const inactive = await renew(server, bob.token);
    assert.equal(inactive.status, 401);

    const forged = await renew(server, `${token.slice(0, -4)}AAAA`);
    assert.deepEqual(forged.body, authenticationBody('Invalid token'));
    const none = await server.api.raw('/v0/login/renew', { method: 'POST' });
    assert.deepEqual(none.body, authenticationBody('Missing credentials'));
    // A body that is not JSON, even with a good Bearer token: kind 4, no token issued.
    const garbled = await server.api.raw('/v0/login/renew', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{"auth":',
    });
    assert.equal(garbled.status, 400, garbled.text);
    assert.equal((garbled.body as { error: string }).error, 'Bad object');
  });

  it('never renews past --session-max after the sign-in, however often renewed', async () => {
    const first = await short.api.login('alice', alice.password);
    const signedIn = claimsOf(first).iat as number;
    const renewed = ((await renew(short, first)).body as { token: string }).token;
    // Capped at the sign-in plus 2 s, not now plus 60 s.
    assert.equal(claimsOf(renewed).exp, signedIn + 2000);
    const twice = ((await renew(short, renewed)).body as { token: string }).token;
    assert.equal(claimsOf(twice).exp, signedIn + 2000);
    await sleep(Math.max(0, signedIn + 2050 - Date.now()));
    // The login's own token still lives (60 s), but its session is over.
    const old = await renew(short, first);
    assert.equal(old.status, 401);
    assert.deepEqual(old.body, authenticationBody('Session too old to renew: log in again'));
    assert.equal((await short.api.get('/users/alice', first)).status, 200);
  });
});
