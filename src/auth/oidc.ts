// OpenID Connect sign-in (issue 33, part 2): the authorization code flow with PKCE, the
// server a confidential client. The protocol is openid-client's (OpenID certified): it
// checks state, nonce, PKCE, and the ID token's signature (enableNonRepudiationChecks:
// without it the token endpoint's TLS would be trusted instead), issuer, audience and
// expiry. Here: what is kept between the two legs (oidc-store.ts), which local user the
// provider's answer names, and the one-time code the web app exchanges for a token
// (POST /v0/login {"auth": {"type": "oidc", "code": …}}), so that no token is ever in an
// address. Routes: oidc-routes.ts.
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { OidcConfig } from '../config';
import { type Db, writeTransaction } from '../db/open';
import { isNewUsername } from '../identifiers';
import type { Logger } from '../log';
import { registerUser } from '../users/register';
import type { UserStore } from '../users/store';
import { isEmail } from '../validate';
import type { OidcStore } from './oidc-store';

/** Time to sign in at the provider, from the button to the return. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
/** The one-time code's life: the web app exchanges it at once. */
export const CODE_TTL_MS = 60_000;
/** A provider that does not answer fails the sign-in, never hangs it (openid-client: s). */
const PROVIDER_TIMEOUT_S = 10;
const DISPLAY_NAME_MAX = 255;

/** Why a sign-in did not end signed in; the web app's page says it (web/auth/Sso.tsx). */
export type Refusal =
  /** No sign-in under way for this browser: too old, already used, or never started. */
  | 'expired'
  | 'deactivated'
  | 'no-account'
  /** Auto-create is on but the name cannot be a username, or is someone else's. */
  | 'cannot-create'
  /** The user cancelled (or was refused) at the provider. */
  | 'denied'
  /** Anything the protocol checks refused; the details are in the server log. */
  | 'failed'
  | 'unavailable';

export type Outcome = { code: string } | { refused: Refusal; username?: string };

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;

export function createOidcSignIn(deps: {
  oidc: OidcConfig;
  db: Db;
  users: UserStore;
  store: OidcStore;
  log: Logger;
}) {
  const { oidc, db, users, store, log } = deps;
  const { issuer, clientId, clientSecret } = oidc;
  if (!issuer || !clientId || !clientSecret) {
    throw new Error('OpenID Connect needs an issuer, a client id and a client secret');
  }
  let discovered: Promise<client.Configuration> | undefined;
  /** The provider's metadata, fetched on first use and again after a failure. */
  const configuration = () => {
    discovered ??= client
      .discovery(new URL(issuer), clientId, undefined, client.ClientSecretBasic(clientSecret), {
        timeout: PROVIDER_TIMEOUT_S,
        execute: [
          client.enableNonRepudiationChecks,
          // config.ts allows http:// only for a provider on this machine.
          ...(issuer.startsWith('http:') ? [client.allowInsecureRequests] : []),
        ],
      })
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  };

  /** The local user the provider's name stands for (see docs/sso.md), or why not. */
  const localUser = (
    name: string,
    claims: Record<string, unknown>,
  ): { id: number; username: string } | { refused: Refusal; username?: string } => {
    // An email address (Google's, Entra's preferred_username) names the user of its local
    // part only if that user's email is exactly it: alice@elsewhere is not our alice.
    const at = name.lastIndexOf('@');
    const username = at > 0 ? name.slice(0, at) : name;
    const existing = users.findByUsername(username);
    const mismatch = existing && at > 0 && existing.email?.toLowerCase() !== name.toLowerCase();
    if (existing && !mismatch) {
      if (existing.active === 1 && existing.deleted_at === null) return existing;
      log.info('oidc sign-in refused: local user inactive or deleted', { username });
      return { refused: 'deactivated', username: existing.username };
    }
    if (!oidc.autoCreate) {
      log.info('oidc sign-in refused: no local user', { username: name });
      return { refused: 'no-account', username: name };
    }
    if (mismatch || !isNewUsername(username)) {
      log.info('oidc sign-in refused: cannot create that user', { username: name });
      return { refused: 'cannot-create', username: name };
    }
    return writeTransaction(db, () => {
      // Another sign-in may have created it since the read above.
      if (users.findByUsername(username)) return { refused: 'cannot-create', username: name };
      const email = at > 0 ? name : claims.email;
      const display = typeof claims.name === 'string' ? claims.name.trim() : '';
      const fields = {
        display_name: display === '' ? null : display.slice(0, DISPLAY_NAME_MAX),
        email:
          typeof email === 'string' && isEmail(email) && claims.email_verified !== false
            ? email
            : null,
      };
      const row = registerUser(db, users, { username, fields });
      log.info('oidc sign-in created a local user', { username });
      return row;
    });
  };

  return {
    /**
     * Begins a sign-in for the browser at `address`: what it keeps (`id`,
     * in a cookie) and the provider's address to send it to. Throws when the provider
     * cannot be reached.
     */
    async start(redirectUri: string, address = ''): Promise<{ id: string; url: URL }> {
      const config = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const id = randomBytes(32).toString('base64url');
      store.saveSignIn(
        id,
        { state, nonce, verifier, redirectUri },
        address,
        Date.now() + SIGN_IN_TTL_MS,
      );
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { id, url };
    },

    /** Ends a sign-in: the browser's `id` and the provider's answer (the callback's query). */
    async finish(id: string | undefined, answer: URLSearchParams): Promise<Outcome> {
      const pending = id ? store.takeSignIn(id) : undefined;
      if (!pending) {
        log.info('oidc sign-in refused: none under way for this browser');
        return { refused: 'expired' };
      }
      let config: client.Configuration;
      try {
        config = await configuration();
      } catch (err) {
        log.error('oidc provider unreachable', { reason: reasonOf(err) });
        return { refused: 'unavailable' };
      }
      const currentUrl = new URL(pending.redirectUri);
      currentUrl.search = answer.toString();
      let name: unknown;
      try {
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: pending.verifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (!idToken) throw new Error('no ID token');
        let claims: Record<string, unknown> = idToken;
        // Most providers put profile claims in the ID token; the others answer userinfo
        // (for the same subject: openid-client checks it).
        if (claims[oidc.usernameClaim] === undefined && tokens.access_token) {
          const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
          claims = { ...info, ...idToken };
        }
        name = claims[oidc.usernameClaim];
        if (typeof name !== 'string' || name.trim() === '') {
          log.warn('oidc sign-in refused: no username claim', { claim: oidc.usernameClaim });
          return { refused: 'failed' };
        }
        const user = localUser(name.trim(), claims);
        if ('refused' in user) return user;
        const code = randomBytes(32).toString('base64url');
        store.saveCode(code, user.id, Date.now() + CODE_TTL_MS);
        log.info('oidc sign-in', { username: user.username });
        return { code };
      } catch (err) {
        if (err instanceof client.AuthorizationResponseError && err.error === 'access_denied') {
          log.info('oidc sign-in refused at the provider', { reason: err.error });
          return { refused: 'denied' };
        }
        // The check that failed, never the response (it may hold tokens).
        log.warn('oidc sign-in refused', { reason: reasonOf(err) });
        return { refused: 'failed' };
      }
    },

    /** The active user a one-time code names, once (POST /v0/login). */
    redeem: (code: string): string | undefined => store.takeCode(code),
  };
}

/**
 * What failed, for the log: openid-client's code and message, the claim a check refused
 * (aud, iss, exp, nonce…) or the underlying error's message (a bad signature). Never the
 * rest of the error's cause, which may hold the provider's response and its tokens.
 */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code, cause } = err as { code?: unknown; cause?: unknown };
  const claim = (cause as { claim?: unknown } | undefined)?.claim;
  return [
    typeof code === 'string' ? `${code}:` : '',
    err.message,
    typeof claim === 'string' ? `(claim ${claim})` : '',
    cause instanceof Error ? `(${cause.message})` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
