// OpenID Connect sign-in (issue 33, part 2) against a real provider run by this file
// (test/helpers/oidc-provider.ts): the flow through real HTTP with a cookie jar, each
// check of the provider's answer refusing what it must, the one-time code good once,
// and which local user a sign-in names (auto-create off and on, deactivated, email).
import assert from 'node:assert/strict';
import { after, before, describe, it, mock } from 'node:test';
import Database from 'better-sqlite3';
import { CODE_TTL_MS, SIGN_IN_TTL_MS } from '../../../src/auth/oidc';
import { SIGN_IN_COOKIE } from '../../../src/auth/oidc-routes';
import { SIGN_INS_PER_CLIENT } from '../../../src/auth/oidc-store';
import { createUser } from '../../helpers/factories';
import {
  browse,
  CLIENT,
  CookieJar,
  finishSignIn,
  listenTestProvider,
  signInAtProvider,
  type TestProvider,
} from '../../helpers/oidc-provider';
import { startTestServer, type TestServer } from '../../helpers/server';

const LABEL = 'Sign in with Example SSO';

function oidcLogin(server: TestServer, code: unknown) {
  return server.api.raw('/v0/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: { type: 'oidc', code } }),
  });
}

/** The `sub` claim of a token: the username it was issued to. */
const subject = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub as string;

/** Signs in as `login` at the provider and comes back: where our server sends the browser. */
async function signIn(server: TestServer, login: string): Promise<URL> {
  const jar = new CookieJar();
  return finishSignIn(jar, await signInAtProvider(jar, server.url, login));
}

/** The one-time code of a landing address (/sso#code=…), checked to be one. */
function codeOf(landing: URL): string {
  assert.equal(landing.pathname, '/sso', landing.href);
  assert.equal(landing.search, '', landing.href);
  const code = new URLSearchParams(landing.hash.slice(1)).get('code');
  assert.match(code ?? '', /^[\w-]{43}$/, landing.href);
  return code as string;
}

function refusal(landing: URL): Record<string, string> {
  assert.equal(landing.pathname, '/sso', landing.href);
  assert.equal(landing.hash, '');
  return Object.fromEntries(landing.searchParams);
}

describe('OpenID Connect sign-in', () => {
  let provider: TestProvider;
  let server: TestServer;
  let autoServer: TestServer;

  before(async () => {
    provider = await listenTestProvider();
    const env = (extra: Record<string, string> = {}) => ({
      TIMETRACK_AUTH_MODULES: '["password","oidc"]',
      TIMETRACK_OIDC_ISSUER: provider.issuer,
      TIMETRACK_OIDC_CLIENT_ID: CLIENT.id,
      TIMETRACK_OIDC_CLIENT_SECRET: CLIENT.secret,
      TIMETRACK_OIDC_LABEL: LABEL,
      ...extra,
    });
    [server, autoServer] = await Promise.all([
      startTestServer({ env: env() }),
      startTestServer({ env: env({ TIMETRACK_OIDC_AUTO_CREATE: 'true' }) }),
    ]);
    await provider.start([server.url, autoServer.url].map((u) => `${u}/v0/oidc/callback`));
    for (const s of [server, autoServer]) {
      await createUser(s, { username: 'alice' });
      await createUser(s, { username: 'sleeper' });
      await s.api.post('/users/sleeper', s.adminToken, { active: false });
      await createUser(s, { username: 'carol', email: 'carol@example.org' });
    }
  });
  after(async () => {
    await server?.close();
    await autoServer?.close();
    await provider?.close();
  });

  it('lists oidc and the button text in /v0/info', async () => {
    const info = await server.api.get('/info');
    assert.deepEqual(info.body.auth_modules, ['password', 'oidc']);
    assert.equal(info.body.oidc_label, LABEL);
  });

  it('signs alice in: a one-time code in the fragment, exchanged once for her token', async () => {
    const jar = new CookieJar();
    const start = new URL('/v0/oidc/start', server.url);
    const callback = await signInAtProvider(jar, server.url, 'alice');
    assert.ok(jar.get(start, SIGN_IN_COOKIE), 'the sign-in is bound to this browser');
    const landing = await finishSignIn(jar, callback);
    assert.equal(jar.get(start, SIGN_IN_COOKIE), undefined, 'the cookie is cleared');
    const code = codeOf(landing);

    const first = await oidcLogin(server, code);
    assert.equal(first.status, 200, first.text);
    const token = (first.body as { token: string }).token;
    assert.equal(subject(token), 'alice');
    assert.equal((await server.api.get('/users/alice', token)).status, 200);
    // Neither the token nor the code is in an address or a log line.
    assert.ok(!landing.href.includes(token));
    for (const secret of [token, code, CLIENT.secret, callback.searchParams.get('code') ?? '']) {
      assert.ok(!server.logs.some((line) => line.includes(secret)), 'a secret in the log');
    }

    const again = await oidcLogin(server, code);
    assert.equal(again.status, 401);
    assert.deepEqual(again.body, {
      status: 401,
      error: 'Authentication failure',
      text: 'Invalid or expired sign-in code',
    });
  });

  it('refuses a code older than 60 seconds', async () => {
    const code = codeOf(await signIn(server, 'alice'));
    mock.timers.enable({ apis: ['Date'], now: Date.now() + CODE_TTL_MS + 1000 });
    try {
      const late = await oidcLogin(server, code);
      assert.equal(late.status, 401);
      assert.equal((late.body as { text: string }).text, 'Invalid or expired sign-in code');
    } finally {
      mock.timers.reset();
    }
  });

  it('refuses a made-up, empty or non-string code', async () => {
    const made = await oidcLogin(server, 'A'.repeat(43));
    assert.equal((made.body as { text: string }).text, 'Invalid or expired sign-in code');
    for (const code of ['', 42, undefined]) {
      const res = await oidcLogin(server, code);
      assert.equal(res.status, 401);
      assert.equal((res.body as { text: string }).text, 'Missing credentials');
    }
  });

  it('refuses a tampered state, and the sign-in cannot be finished afterwards', async () => {
    const jar = new CookieJar();
    const callback = await signInAtProvider(jar, server.url, 'alice');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const requests = provider.tokenRequests;
    assert.deepEqual(refusal(await finishSignIn(jar, tampered)), { error: 'failed' });
    assert.equal(provider.tokenRequests, requests, 'the code was never exchanged');
    // The sign-in under way was used up by the attempt.
    jar.set(new URL(server.url), SIGN_IN_COOKIE, 'gone');
    assert.deepEqual(refusal(await finishSignIn(jar, callback)), { error: 'expired' });
  });

  it("refuses the provider's answer in another browser (no sign-in cookie)", async () => {
    const callback = await signInAtProvider(new CookieJar(), server.url, 'alice');
    assert.deepEqual(refusal(await finishSignIn(new CookieJar(), callback)), { error: 'expired' });
  });

  it("refuses a replayed provider's code", async () => {
    const jar = new CookieJar();
    const callback = await signInAtProvider(jar, server.url, 'alice');
    codeOf(await finishSignIn(jar, callback));
    // The same code and state again, with a sign-in of this browser under way.
    const jar2 = new CookieJar();
    const second = await signInAtProvider(jar2, server.url, 'alice');
    const replay = new URL(second);
    replay.searchParams.set('code', callback.searchParams.get('code') as string);
    const requests = provider.tokenRequests;
    assert.deepEqual(refusal(await finishSignIn(jar2, replay)), { error: 'failed' });
    assert.equal(provider.tokenRequests, requests + 1, 'the provider was asked and refused');
  });

  it('refuses a sign-in that took longer than its 10 minutes', async () => {
    const jar = new CookieJar();
    const callback = await signInAtProvider(jar, server.url, 'alice');
    mock.timers.enable({ apis: ['Date'], now: Date.now() + SIGN_IN_TTL_MS + 1000 });
    try {
      assert.deepEqual(refusal(await finishSignIn(jar, callback)), { error: 'expired' });
    } finally {
      mock.timers.reset();
    }
  });

  describe('refuses an ID token, well signed by the provider, that is', () => {
    after(() => provider.tamper(undefined));
    // What each changes, and the check the server's log names as refusing it.
    const cases: [string, (claims: Record<string, any>) => void, RegExp, boolean?][] = [
      ['for another client (audience)', (c) => (c.aud = 'another-client'), /"aud"/],
      ['from another issuer', (c) => (c.iss = 'https://issuer.invalid'), /"iss"/],
      [
        'expired',
        (c) => {
          c.iat -= 3600;
          c.exp = Math.floor(Date.now() / 1000) - 120;
        },
        /"exp"/,
      ],
      ['for another sign-in (nonce)', (c) => (c.nonce = 'another-nonce'), /"nonce"/],
      ['signed with a key not the provider’s', () => {}, /signature verification failed/, true],
    ];
    for (const [what, change, check, otherKey] of cases) {
      it(what, async () => {
        provider.tamper(change, otherKey);
        assert.deepEqual(refusal(await signIn(server, 'alice')), { error: 'failed' });
        const line = server.logs
          .map((l) => JSON.parse(l))
          .findLast((l) => l.msg === 'oidc sign-in refused');
        assert.match(line?.reason ?? '', check);
      });
    }
  });

  it('refuses a deactivated user, saying so', async () => {
    for (const s of [server, autoServer]) {
      assert.deepEqual(refusal(await signIn(s, 'sleeper')), {
        error: 'deactivated',
        user: 'sleeper',
      });
    }
  });

  it('with auto-create off: no account is made for an unknown user', async () => {
    assert.deepEqual(refusal(await signIn(server, 'newcomer')), {
      error: 'no-account',
      user: 'newcomer',
    });
    assert.equal((await server.api.get('/users/newcomer', server.adminToken)).status, 404);
  });

  it('with auto-create on: a plain user is made from the claims, and signed in', async () => {
    const code = codeOf(await signIn(autoServer, 'newcomer'));
    const res = await oidcLogin(autoServer, code);
    assert.equal(subject((res.body as { token: string }).token), 'newcomer');
    const user = (await autoServer.api.get('/users/newcomer', autoServer.adminToken)).body;
    assert.equal(user.display_name, 'New Comer');
    assert.equal(user.email, 'newcomer@example.org');
    assert.equal(user.site_admin, false);
    assert.equal(user.active, true);
    // Signing in again finds the same user.
    const again = await oidcLogin(autoServer, codeOf(await signIn(autoServer, 'newcomer')));
    assert.equal(subject((again.body as { token: string }).token), 'newcomer');
  });

  it('an email address names the user of its local part only with exactly that email', async () => {
    const code = codeOf(await signIn(server, 'carol'));
    assert.equal(
      subject(((await oidcLogin(server, code)).body as { token: string }).token),
      'carol',
    );
    assert.deepEqual(refusal(await signIn(server, 'mallory')), {
      error: 'no-account',
      user: 'carol@evil.example',
    });
    assert.deepEqual(refusal(await signIn(autoServer, 'mallory')), {
      error: 'cannot-create',
      user: 'carol@evil.example',
    });
  });

  it('refuses an answer without the username claim', async () => {
    assert.deepEqual(refusal(await signIn(autoServer, 'nameless')), { error: 'failed' });
  });

  it('says so when the person cancels at the provider', async () => {
    const jar = new CookieJar();
    const toProvider = (await browse(jar, new URL('/v0/oidc/start', server.url))).location;
    const interaction = (await browse(jar, toProvider as URL)).location as URL;
    assert.match(interaction.pathname, /^\/interaction\//);
    // The provider's own "cancel" of its login form, then its redirects back to us.
    let at = (await browse(jar, new URL(`${interaction.pathname}/abort`, interaction))).location;
    while (at && at.pathname !== '/v0/oidc/callback') at = (await browse(jar, at)).location;
    assert.equal(at?.searchParams.get('error'), 'access_denied');
    assert.deepEqual(refusal(await finishSignIn(jar, at as URL)), { error: 'denied' });
  });

  it('answers any odd callback, with or without a sign-in under way, with a refusal page', async () => {
    const odd = [
      '',
      '?code=%FF&state=%00',
      '?state=x&state=y&code=',
      `?code=${'a'.repeat(5000)}`,
      '?error=access_denied&state=whatever',
      '?x=%',
    ];
    for (const query of odd) {
      for (const withSignIn of [false, true]) {
        const jar = new CookieJar();
        if (withSignIn) await signInAtProvider(jar, server.url, 'alice');
        const landing = await finishSignIn(jar, new URL(`/v0/oidc/callback${query}`, server.url));
        const { error } = refusal(landing);
        assert.equal(error, withSignIn ? 'failed' : 'expired', `${query} ${withSignIn}`);
      }
    }
  });

  it('keeps at most 50 sign-ins under way per client address, dropping the oldest', async () => {
    const jar = new CookieJar();
    const oldest = await signInAtProvider(jar, server.url, 'alice');
    for (let i = 0; i < SIGN_INS_PER_CLIENT; i++) {
      const res = await fetch(`${server.url}/v0/oidc/start`, { redirect: 'manual' });
      assert.equal(res.status, 302);
    }
    const db = new Database(server.dbFile, { readonly: true });
    try {
      const count = db.prepare('SELECT count(*) FROM oidc_sign_ins').pluck().get();
      assert.equal(count, SIGN_INS_PER_CLIENT);
    } finally {
      db.close();
    }
    assert.deepEqual(refusal(await finishSignIn(jar, oldest)), { error: 'expired' });
    // The newest are still good.
    codeOf(await signIn(server, 'alice'));
  });

  it('makes the redirect URI from --public-url, else from the request (a proxy’s scheme with --trust-proxy)', async () => {
    const oidcEnv = {
      TIMETRACK_AUTH_MODULES: '["password","oidc"]',
      TIMETRACK_OIDC_ISSUER: provider.issuer,
      TIMETRACK_OIDC_CLIENT_ID: CLIENT.id,
      TIMETRACK_OIDC_CLIENT_SECRET: CLIENT.secret,
    };
    // One after the other: a server left running would keep the test process alive.
    const publicServer = await startTestServer({
      env: { ...oidcEnv, TIMETRACK_PUBLIC_URL: 'https://time.example.org/' },
    });
    const proxied = await startTestServer({
      env: { ...oidcEnv, TIMETRACK_TRUST_PROXY: 'true' },
    }).catch(async (err) => {
      await publicServer.close();
      throw err;
    });
    try {
      const start = async (s: TestServer, headers: Record<string, string> = {}) => {
        const res = await fetch(`${s.url}/v0/oidc/start`, { redirect: 'manual', headers });
        assert.equal(res.status, 302);
        const to = new URL(res.headers.get('location') as string);
        assert.equal(to.origin, provider.issuer);
        return {
          redirectUri: to.searchParams.get('redirect_uri'),
          cookie: res.headers.get('set-cookie') ?? '',
        };
      };
      const viaPublic = await start(publicServer);
      assert.equal(viaPublic.redirectUri, 'https://time.example.org/v0/oidc/callback');
      assert.match(viaPublic.cookie, /; HttpOnly; SameSite=Lax; Secure$/);
      const back = await fetch(`${publicServer.url}/v0/oidc/callback`, { redirect: 'manual' });
      assert.equal(back.headers.get('location'), 'https://time.example.org/sso?error=expired');

      // The proxy terminated TLS: https, on the host the browser asked for.
      const viaProxy = await start(proxied, { 'X-Forwarded-Proto': 'https' });
      assert.equal(
        viaProxy.redirectUri,
        `${proxied.url.replace('http:', 'https:')}/v0/oidc/callback`,
      );
      const direct = await start(server);
      assert.equal(direct.redirectUri, `${server.url}/v0/oidc/callback`);
      assert.doesNotMatch(direct.cookie, /Secure/);
      // Without --trust-proxy the header is anyone's: not believed.
      const ignored = await start(server, { 'X-Forwarded-Proto': 'https' });
      assert.equal(ignored.redirectUri, `${server.url}/v0/oidc/callback`);
    } finally {
      await publicServer.close();
      await proxied.close();
    }
  });

  it('answers 404 on its routes and refuses the oidc login type when not enabled', async () => {
    const plain = await startTestServer();
    try {
      const start = await fetch(`${plain.url}/v0/oidc/start`, { redirect: 'manual' });
      assert.equal(start.status, 404);
      const res = await oidcLogin(plain, 'whatever');
      assert.equal(res.status, 401);
      assert.equal((res.body as { text: string }).text, 'oidc is not a valid authentication type');
    } finally {
      await plain.close();
    }
  });
});
