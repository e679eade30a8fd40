// POST /v0/login and tokens (SPEC §2.1–2.3): token shape, where a token may travel,
// which tokens are refused, and the basics of login throttling.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import bcrypt from 'bcryptjs';
import jwt from 'jsonwebtoken';
import { DUMMY_HASH } from '../../../src/auth/password';
import { bcryptCost, isAcceptedHash } from '../../../src/users/password-hash';
import { authenticationBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const SECRET = 'login-test-secret-key-of-more-than-32-bytes';
const INVALID = authenticationBody('Invalid username or password');
const INVALID_TOKEN = authenticationBody('Invalid token');

let server: TestServer;
let admin: string;

/** POST /v0/login with any body. */
const login = (body: unknown, on = server) =>
  on.api.raw('/v0/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const passwordLogin = (username: string, password: string, on = server) =>
  login({ auth: { type: 'password', username, password } }, on);

/** A token signed like ours (string payload, as given) with any claims and options. */
function signed(claims: Record<string, unknown>, options: jwt.SignOptions = {}, key = SECRET) {
  return jwt.sign(JSON.stringify(claims), key, { algorithm: 'HS512', ...options });
}

const base64Json = (segment: string) =>
  JSON.parse(Buffer.from(segment, 'base64').toString('utf8')) as Record<string, unknown>;

/** The bcrypt checks the server has started and finished. */
const bcryptCounts = { started: 0, finished: 0 };

before(async () => {
  server = await startTestServer({
    env: { TIMETRACK_SECRET_KEY: SECRET, TIMETRACK_LOGIN_MAX_FAILURES: '3' },
    bcrypt: {
      onEvent: (event) => {
        if (event === 'started' || event === 'finished') bcryptCounts[event]++;
      },
    },
  });
  admin = server.adminToken;
});
after(() => server.close());

describe('password login', () => {
  it('answers {token} for the right password', async () => {
    const user = await createUser(server);
    const res = await passwordLogin(user.username, user.password);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body as object), ['token']);
  });

  it('gives unknown users and wrong passwords the same answer', async () => {
    const user = await createUser(server);
    assert.deepEqual((await passwordLogin(user.username, 'wrong')).body, INVALID);
    assert.deepEqual((await passwordLogin('nobody-by-that-name', 'wrong')).body, INVALID);
    const noPassword = await server.api.post('/users', admin, { username: 'no-password-user' });
    assert.equal(noPassword.status, 200);
    assert.deepEqual((await passwordLogin('no-password-user', '')).body, INVALID);
    assert.deepEqual((await passwordLogin('no-password-user', 'anything')).body, INVALID);
  });

  it('takes as long for an unknown user as for a wrong password: one check of the same cost', async () => {
    // Counted, not timed (a wall-clock ratio was at the mercy of the machine's load): each
    // login runs exactly one bcrypt check, an unknown user's against a dummy hash of the
    // cost TimeSync clients send (10), so both take one cost-10 check.
    const hash = bcrypt.hashSync('the-real-one', 10);
    await server.api.post('/users', admin, { username: 'timed-known', password: hash });
    const checks = async (username: string) => {
      const before = { ...bcryptCounts };
      assert.deepEqual((await passwordLogin(username, 'a-wrong-one')).body, INVALID);
      return {
        started: bcryptCounts.started - before.started,
        finished: bcryptCounts.finished - before.finished,
      };
    };
    assert.deepEqual(await checks('timed-known'), { started: 1, finished: 1 });
    assert.deepEqual(await checks('nobody-timed'), { started: 1, finished: 1 });
    assert.ok(isAcceptedHash(DUMMY_HASH), 'the dummy hash is one bcrypt compares in full');
    assert.equal(bcryptCost(DUMMY_HASH), bcryptCost(hash));
  });

  it('refuses missing or malformed auth blocks and types not enabled', async () => {
    const cases: [unknown, string][] = [
      [{}, 'Missing credentials'],
      [{ auth: 'password' }, 'Missing credentials'],
      [{ auth: { username: 'admin', password: 'x' } }, 'Missing authentication type'],
      [
        { auth: { type: 'ldap', username: 'admin', password: 'x' } },
        'ldap is not a valid authentication type',
      ],
      [{ auth: { type: 'token', token: admin } }, 'token is not a valid authentication type'],
      [{ auth: { type: 'kerberos' } }, 'kerberos is not a valid authentication type'],
      [{ auth: { type: 'password', username: 'admin' } }, 'Missing credentials'],
      [{ auth: { type: 'password', password: 'x' } }, 'Missing credentials'],
      [{ auth: { type: 'password', username: 5, password: 'x' } }, 'Missing credentials'],
    ];
    for (const [body, text] of cases) {
      assert.deepEqual((await login(body)).body, authenticationBody(text), JSON.stringify(body));
    }
  });

  it('refuses an inactive user at login and refuses their existing token', async () => {
    const user = await createUser(server);
    await server.api.post(`/users/${user.username}`, admin, { active: false });
    assert.deepEqual((await passwordLogin(user.username, user.password)).body, INVALID);
    assert.deepEqual((await server.api.get('/users', user.token)).body, INVALID_TOKEN);
  });
});

describe('token shape (SPEC §2.3)', () => {
  let user: TestUser;
  before(async () => {
    // `~` in the username and in display data must not leak `_`/`-` into the segments.
    user = await createUser(server, { username: 'Tilde~User~Q' });
  });

  it('has header and payload segments that are padded standard base64 and base64url at once', async () => {
    const tokens = [user.token, admin, await server.api.login('tilde~user~q', user.password)];
    for (const token of tokens) {
      const segments = token.split('.');
      assert.equal(segments.length, 3);
      for (const segment of segments.slice(0, 2) as string[]) {
        assert.doesNotMatch(segment, /[-_=+/]/, segment);
        assert.equal(segment.length % 4, 0, 'no padding needed: a multiple of 3 bytes');
        assert.equal(Buffer.from(segment, 'base64').toString('base64'), segment);
        assert.equal(Buffer.from(segment, 'base64url').toString('base64url'), segment);
      }
      assert.deepEqual(base64Json(segments[0] as string), { alg: 'HS512', typ: 'JWT' });
    }
  });

  it('carries exactly iss, sub (stored case), iat and exp in milliseconds', async () => {
    const before = Date.now();
    const token = await server.api.login('TILDE~USER~q', user.password);
    const claims = base64Json(token.split('.')[1] as string);
    assert.deepEqual(Object.keys(claims).sort(), ['exp', 'iat', 'iss', 'sub']);
    assert.equal(claims.iss, 'timesync');
    assert.equal(claims.sub, 'Tilde~User~Q');
    const iat = claims.iat as number;
    assert.ok(Number.isInteger(iat) && iat >= before && iat <= Date.now(), 'iat in ms');
    assert.equal((claims.exp as number) - iat, 1_800_000);
  });

  it('is an HS512 JWS that standard tooling verifies with the secret', () => {
    const decoded = jwt.verify(user.token, SECRET, {
      algorithms: ['HS512'],
      ignoreExpiration: true,
    });
    assert.equal((typeof decoded === 'string' ? JSON.parse(decoded) : decoded).sub, user.username);
  });
});

describe('presenting a token', () => {
  let user: TestUser;
  before(async () => {
    user = await createUser(server);
  });

  it('accepts ?token= on GET and DELETE and the auth block on POST', async () => {
    assert.equal((await server.api.get('/users', user.token)).status, 200);
    const res = await server.api.post(`/users/${user.username}`, user.token, { meta: 'hi' });
    assert.equal(res.status, 200);
  });

  it('accepts a raw, unencoded token in the query string', async () => {
    const res = await server.api.raw(`/v0/users?token=${user.token}`);
    assert.equal(res.status, 200);
  });

  it('accepts Authorization: Bearer on GET and POST (no auth block needed)', async () => {
    const get = await server.api.raw('/v0/users', {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    assert.equal(get.status, 200);
    const post = await server.api.raw(`/v0/users/${user.username}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ object: { meta: 'via bearer' } }),
    });
    assert.equal(post.status, 200, post.text);
    assert.equal((post.body as { meta: string }).meta, 'via bearer');
  });

  it('accepts both when they agree and refuses both when they differ', async () => {
    const same = await server.api.raw(`/v0/users?token=${user.token}`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    assert.equal(same.status, 200);
    const differ = await server.api.raw(`/v0/users?token=${user.token}`, {
      headers: { Authorization: `Bearer ${admin}` },
    });
    assert.deepEqual(
      differ.body,
      authenticationBody('The bearer token and the request token differ'),
    );
    const post = await server.api.raw(`/v0/users/${user.username}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}` },
      body: JSON.stringify({ auth: { type: 'token', token: user.token }, object: {} }),
    });
    assert.deepEqual(
      post.body,
      authenticationBody('The bearer token and the request token differ'),
    );
  });

  it('refuses a malformed Authorization header and a POST auth block of another type', async () => {
    const res = await server.api.raw('/v0/users', { headers: { Authorization: `Basic abc` } });
    assert.deepEqual(res.body, authenticationBody('Malformed Authorization header'));
    const post = await server.api.raw('/v0/users', {
      method: 'POST',
      body: JSON.stringify({
        auth: { type: 'password', username: 'admin', password: 'x' },
        object: {},
      }),
    });
    assert.deepEqual(post.body, authenticationBody('password is not a valid authentication type'));
    const noToken = await server.api.raw('/v0/users', {
      method: 'POST',
      body: JSON.stringify({ auth: { type: 'token' }, object: {} }),
    });
    assert.deepEqual(noToken.body, authenticationBody('Missing credentials'));
  });
});

describe('refused tokens (all kind 7)', () => {
  let user: TestUser;
  let claims: { iss: string; sub: string; iat: number; exp: number };
  before(async () => {
    user = await createUser(server);
    claims = base64Json(user.token.split('.')[1] as string) as typeof claims;
  });
  const refuses = async (token: string, body = INVALID_TOKEN) => {
    assert.deepEqual((await server.api.get('/users', token)).body, body, token);
    const bearer = await server.api.raw('/v0/users', {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.deepEqual(bearer.body, body, token);
  };

  it('accepts a token we sign the same way (the baseline of the cases below)', async () => {
    assert.equal((await server.api.get('/users', signed(claims))).status, 200);
  });

  it('refuses an expired token, and exp read as seconds is long expired', async () => {
    const now = Date.now();
    await refuses(
      signed({ ...claims, iat: now - 2000, exp: now - 1000 }),
      authenticationBody('Token has expired'),
    );
    const seconds = Math.floor(now / 1000);
    await refuses(
      signed({ ...claims, iat: seconds, exp: seconds + 1800 }),
      authenticationBody('Token has expired'),
    );
  });

  it('refuses another issuer, another key, HS256, alg none and tampered payloads', async () => {
    await refuses(signed({ ...claims, iss: 'another-instance' }));
    await refuses(signed(claims, {}, 'another-secret-key-of-more-than-32-bytes!'));
    await refuses(signed(claims, { algorithm: 'HS256' }));
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await refuses(`${none}.${payload}.`);
    await refuses(`${none}.${payload}.${signature}`);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url');
    await refuses(`${header}.${forged}.${signature}`);
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 1e9 })).toString(
      'base64url',
    );
    await refuses(`${header}.${longer}.${signature}`);
  });

  it('refuses tokens of users that do not exist and malformed claims', async () => {
    await refuses(signed({ ...claims, sub: 'never-created-user' }));
    await refuses(
      signed({ iss: claims.iss, sub: user.username, iat: claims.iat }),
      authenticationBody('Token has expired'),
    );
    await refuses(signed({ ...claims, sub: 42 }));
    for (const payload of ['null', '5', '"text"', '[]']) {
      await refuses(jwt.sign(payload, SECRET, { algorithm: 'HS512' }));
    }
  });

  it('refuses garbage', async () => {
    for (const garbage of ['abc', 'a.b.c', '...', `${user.token}x`, user.token.slice(0, -2)]) {
      await refuses(garbage);
    }
  });
});

describe('token lifetime and issuer settings', () => {
  it('issues tokens for TIMETRACK_TOKEN_TTL seconds, refused after, and only on their instance', async () => {
    const short = await startTestServer({
      env: {
        TIMETRACK_SECRET_KEY: SECRET,
        TIMETRACK_TOKEN_TTL: '1',
        // Characters that need \u escapes (and padding) to stay base64-safe.
        TIMETRACK_INSTANCE_NAME: 'Zeit>erfassung?~ü€',
      },
    });
    try {
      const token = short.adminToken;
      const [, payload] = token.split('.') as [string, string];
      assert.doesNotMatch(payload, /[-_=]/);
      const claims = base64Json(payload);
      assert.equal(claims.iss, 'Zeit>erfassung?~ü€');
      assert.equal((claims.exp as number) - (claims.iat as number), 1000);
      assert.equal((await short.api.get('/users', token)).status, 200);
      // The same secret but another instance name: each refuses the other's tokens.
      assert.deepEqual((await server.api.get('/users', token)).body, INVALID_TOKEN);
      assert.deepEqual((await short.api.get('/users', admin)).body, INVALID_TOKEN);
      await sleep(Math.max(0, (claims.exp as number) - Date.now() + 50));
      assert.deepEqual(
        (await short.api.get('/users', token)).body,
        authenticationBody('Token has expired'),
      );
    } finally {
      await short.close();
    }
  });
});

describe('login throttling (TIMETRACK_LOGIN_MAX_FAILURES=3)', () => {
  const BLOCKED = authenticationBody('Too many failed logins; try again later');

  it('blocks a username after 3 failures, right password included, with Retry-After', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i++) {
      assert.deepEqual((await passwordLogin(user.username, 'wrong')).body, INVALID);
    }
    const res = await passwordLogin(user.username, user.password);
    assert.deepEqual(res.body, BLOCKED);
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 600, `Retry-After ${retryAfter}`);
    const other = await createUser(server);
    await server.api.login(other.username, other.password); // others are not affected
    assert.equal((await server.api.get('/users', user.token)).status, 200, 'tokens still work');
  });

  it('resets the count on a successful login', async () => {
    const user = await createUser(server);
    for (let round = 0; round < 3; round++) {
      await passwordLogin(user.username, 'wrong');
      await passwordLogin(user.username, 'wrong');
      await server.api.login(user.username, user.password);
    }
  });

  it('counts per username, whatever its case', async () => {
    const user = await createUser(server, { username: 'CaseCounted' });
    for (const spelled of ['casecounted', 'CASECOUNTED', 'CaseCounted']) {
      await passwordLogin(spelled, 'wrong');
    }
    assert.deepEqual((await passwordLogin('cAsEcOuNtEd', user.password)).body, BLOCKED);
  });

  it('counts unknown usernames the same way, so blocking reveals nothing', async () => {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual((await passwordLogin('ghost-user', 'wrong')).body, INVALID);
    }
    assert.deepEqual((await passwordLogin('ghost-user', 'wrong')).body, BLOCKED);
  });

  it('does not count refusals before the password check', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 4; i++) {
      await login({ auth: { type: 'ldap', username: user.username, password: 'x' } });
      await login({ auth: { type: 'password', username: user.username } });
    }
    await server.api.login(user.username, user.password);
  });
});
