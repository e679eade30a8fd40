// A real OpenID Connect provider for the tests: oidc-provider (the OpenID-certified Node
// implementation) on a loopback port, with its development login form (any login of
// ACCOUNTS; the password field is not checked) and consent given without asking. Our
// server registers as a confidential client. `tamper` rewrites the ID token of the next
// token answers, signed again with the provider's own key (or another one), so that the
// tests can hand our server a token that is well signed but for another audience, or
// expired, or badly signed.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export interface TestAccount {
  /** What is typed in the provider's login form (the account id, `sub`). */
  login: string;
  claims: Record<string, unknown>;
}

/** The people the provider knows. Their usernames are in claims.preferred_username. */
export const ACCOUNTS: TestAccount[] = [
  { login: 'alice', claims: { preferred_username: 'alice', name: 'Alice A.' } },
  { login: 'bob', claims: { preferred_username: 'bob', name: 'Bob B.' } },
  {
    login: 'newcomer',
    claims: {
      preferred_username: 'newcomer',
      name: 'New Comer',
      email: 'newcomer@example.org',
      email_verified: true,
    },
  },
  { login: 'sleeper', claims: { preferred_username: 'sleeper' } },
  { login: 'carol', claims: { preferred_username: 'carol@example.org', name: 'Carol C.' } },
  { login: 'mallory', claims: { preferred_username: 'carol@evil.example' } },
  { login: 'nameless', claims: {} },
];

export const CLIENT = { id: 'timetrack', secret: 'timetrack-client-secret-0123456789abcdef' };

export interface TestProvider {
  /** The issuer identifier: our server's --oidc-issuer. */
  issuer: string;
  /** Registers our servers' redirect URIs and starts answering (once). */
  start(redirectUris: string[]): Promise<void>;
  /** Changes the claims of the ID token of every following token answer (until reset). */
  tamper(change: ((claims: Record<string, any>) => void) | undefined, otherKey?: boolean): void;
  /** Token requests the provider answered. */
  tokenRequests: number;
  close(): Promise<void>;
}

/** Listens at once (so that the issuer is known); answers once `start` has registered us. */
export async function listenTestProvider(): Promise<TestProvider> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  let change: ((claims: Record<string, any>) => void) | undefined;
  let withOtherKey = false;

  const provider: TestProvider = {
    issuer,
    tokenRequests: 0,
    async start(redirectUris) {
      mendGeneratorFunction();
      const { default: Provider } = await import('oidc-provider');
      // Its warnings about development settings (in-memory store, dev interactions)
      // would fill the test output.
      const warn = console.warn;
      console.warn = () => {};
      let oidc: any;
      try {
        oidc = new Provider(issuer, {
          clients: [
            {
              client_id: CLIENT.id,
              client_secret: CLIENT.secret,
              redirect_uris: redirectUris,
              grant_types: ['authorization_code'],
              response_types: ['code'],
              token_endpoint_auth_method: 'client_secret_basic',
            },
          ],
          jwks: { keys: [jwk as any] },
          cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
          claims: {
            openid: ['sub'],
            profile: ['preferred_username', 'name'],
            email: ['email', 'email_verified'],
          },
          features: { devInteractions: { enabled: true } },
          // Consent is taken as given: the tests sign in, they do not authorize.
          async loadExistingGrant(ctx: any) {
            const grantId =
              ctx.oidc.result?.consent?.grantId ||
              ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
            if (grantId) return ctx.oidc.provider.Grant.find(grantId);
            const grant = new ctx.oidc.provider.Grant({
              clientId: ctx.oidc.client.clientId,
              accountId: ctx.oidc.session.accountId,
            });
            grant.addOIDCScope('openid profile email');
            await grant.save();
            return grant;
          },
          async findAccount(_ctx: unknown, id: string) {
            const account = ACCOUNTS.find((a) => a.login === id);
            if (!account) return undefined;
            return { accountId: id, claims: async () => ({ sub: id, ...account.claims }) };
          },
        } as any);
      } finally {
        console.warn = warn;
      }
      oidc.use(async (ctx: any, next: () => Promise<void>) => {
        await next();
        if (ctx.path !== '/token' || ctx.method !== 'POST') return;
        provider.tokenRequests++;
        const idToken = ctx.body?.id_token;
        if (change && typeof idToken === 'string') {
          ctx.body = {
            ...ctx.body,
            id_token: resign(idToken, change, withOtherKey ? otherKey : privateKey),
          };
        }
      });
      server.removeAllListeners('request');
      server.on('request', oidc.callback());
    },
    tamper(next, other = false) {
      change = next;
      withOtherKey = other;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}

/**
 * koa (oidc-provider's) requires generator-function, whose `module-sync` entry is ESM
 * exporting `'module.exports'`; tsx's require hook hands back the namespace object
 * instead of that function (plain Node does not), and koa's first `use` throws. The
 * cached module is given the function it stands for.
 */
function mendGeneratorFunction(): void {
  const fromKoa = createRequire(require.resolve('is-generator-function'));
  const id = fromKoa.resolve('generator-function');
  const loaded = fromKoa('generator-function');
  const cached = require.cache[id];
  if (typeof loaded !== 'function' && cached && typeof loaded?.['module.exports'] === 'function') {
    cached.exports = loaded['module.exports'];
  }
}

/** The JWT with its claims changed, signed RS256 with `key` (same kid). */
function resign(
  jwt: string,
  change: (claims: Record<string, any>) => void,
  key: KeyObject,
): string {
  const [header, payload] = jwt.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  change(claims);
  const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(body), key);
  return `${body}.${signature.toString('base64url')}`;
}

/** A browser's cookies, per host:port, for walking through redirects with fetch. */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  take(url: URL, res: Response): void {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    this.jars.set(url.host, jar);
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: URL): string {
    return [...(this.jars.get(url.host) ?? [])].map(([n, v]) => `${n}=${v}`).join('; ');
  }

  get(url: URL, name: string): string | undefined {
    return this.jars.get(url.host)?.get(name);
  }

  set(url: URL, name: string, value: string): void {
    const jar = this.jars.get(url.host) ?? new Map<string, string>();
    this.jars.set(url.host, jar);
    jar.set(name, value);
  }
}

/** One request as a browser would send it, without following a redirect. */
export async function browse(
  jar: CookieJar,
  url: URL,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<{ res: Response; location: URL | undefined; text: string }> {
  const headers: Record<string, string> = {};
  const cookie = jar.header(url);
  if (cookie) headers.Cookie = cookie;
  let body: string | undefined;
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  jar.take(url, res);
  const where = res.headers.get('location');
  return { res, location: where ? new URL(where, url) : undefined, text: await res.text() };
}

/**
 * From our /v0/oidc/start to the provider's redirect back to us, signing in as `login`
 * at the provider's form: the callback address the browser would go to next (not
 * visited, so that tests may change it).
 */
export async function signInAtProvider(
  jar: CookieJar,
  serverUrl: string,
  login: string,
): Promise<URL> {
  let step = await browse(jar, new URL('/v0/oidc/start', serverUrl));
  for (let hops = 0; hops < 10; hops++) {
    const at = step.location;
    if (!at) throw new Error(`no redirect: ${step.res.status} ${step.text.slice(0, 300)}`);
    if (at.pathname === '/v0/oidc/callback') return at;
    step = await browse(jar, at);
    const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="prompt" value="login"/.exec(
      step.text,
    );
    if (step.res.status === 200 && form?.[1]) {
      step = await browse(jar, new URL(form[1], at), {
        method: 'POST',
        form: { prompt: 'login', login, password: 'any password' },
      });
    }
  }
  throw new Error('too many redirects');
}

/** Visits our callback with the browser's cookies: where it sends the browser. */
export async function finishSignIn(jar: CookieJar, callback: URL): Promise<URL> {
  const step = await browse(jar, callback);
  if (step.res.status !== 302 || !step.location) {
    throw new Error(`callback answered ${step.res.status}: ${step.text.slice(0, 300)}`);
  }
  return step.location;
}
