// POST /v0/login (SPEC §2.2): checks a password or LDAP auth block and issues a token.
// Unknown users and wrong passwords get the same answer in about the same time. The
// `oidc` type exchanges the one-time code of a finished OpenID Connect sign-in (oidc.ts).
import type { AuthModule } from '../config';
import { authenticationFailure, invalidAuthenticationType } from '../errors';
import type { Token } from '../shapes/auth';
import { isAcceptedHash } from '../users/password-hash';
import type { UserStore } from '../users/store';
import { DUMMY_HASH, HasherBusyError, type PasswordHasher, TaskDroppedError } from './password';
import type { LoginThrottle } from './throttle';
import type { TokenService } from './token';

/**
 * Checks credentials; returns the local username (stored case) or undefined. `signal`
 * aborts when the client has gone: work not yet started may then be dropped.
 */
export type Authenticator = (
  username: string,
  password: string,
  signal?: AbortSignal,
) => Promise<string | undefined>;

/** Who is logging in, as far as the connection tells. */
export interface LoginClient {
  /** The connection's remote address: failures are counted per address too. */
  address?: string;
  /** Aborts when the request or its connection closes before the answer. */
  signal?: AbortSignal;
}

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const TOO_MANY_FAILURES = 'Too many failed logins; try again later';
export const LOGINS_BUSY = 'Too many logins at once; try again later';
export const INVALID_SIGN_IN_CODE = 'Invalid or expired sign-in code';

export function passwordAuthenticator(users: UserStore, passwords: PasswordHasher): Authenticator {
  return async (username, password, signal) => {
    const user = users.findByUsername(username);
    // A hash of a cost we refuse (older data) is never compared: the dummy takes its place.
    const stored = user?.password_hash;
    const hash = stored && isAcceptedHash(stored) ? stored : undefined;
    const ok = await passwords.compare(password, hash ?? DUMMY_HASH, signal);
    if (!ok || !user || user.active !== 1 || user.deleted_at !== null || !hash) {
      return undefined;
    }
    return user.username;
  };
}

/** How a login attempt of a known type ended (counted by the metrics). */
export type LoginOutcome = 'success' | 'failure' | 'throttled' | 'busy' | 'error';

export type LoginService = ReturnType<typeof createLoginService>;

export function createLoginService(options: {
  modules: readonly AuthModule[];
  authenticators: Partial<Record<AuthModule, Authenticator>>;
  throttle: LoginThrottle;
  tokens: TokenService;
  /** With `oidc`: the active user a one-time code names, once (oidc.ts). */
  redeemOidcCode?: (code: string) => string | undefined;
  /** Told how each attempt of a known login type ended (the metrics). */
  onOutcome?: (type: AuthModule, outcome: LoginOutcome) => void;
}) {
  /**
   * `{"type": "oidc", "code": …}`: the code is 256 random bits, good once for 60 s, so
   * it is not throttled as guessable passwords are.
   */
  const redeem = (code: unknown): Token => {
    const redeemOidcCode = options.modules.includes('oidc') ? options.redeemOidcCode : undefined;
    if (!redeemOidcCode) throw invalidAuthenticationType('oidc');
    if (typeof code !== 'string' || code === '') throw authenticationFailure('Missing credentials');
    const who = code.length <= 128 ? redeemOidcCode(code) : undefined;
    options.onOutcome?.('oidc', who ? 'success' : 'failure');
    if (!who) throw authenticationFailure(INVALID_SIGN_IN_CODE);
    return { token: options.tokens.issue(who) };
  };
  return {
    async login(body: unknown, client: LoginClient = {}): Promise<Token> {
      const auth =
        typeof body === 'object' && body !== null
          ? (body as Record<string, unknown>).auth
          : undefined;
      if (typeof auth !== 'object' || auth === null || Array.isArray(auth)) {
        throw authenticationFailure('Missing credentials');
      }
      const { type, username, password } = auth as Record<string, unknown>;
      if (type === undefined) throw authenticationFailure('Missing authentication type');
      if (type === 'oidc') return redeem((auth as Record<string, unknown>).code);
      const authenticator = options.modules.includes(type as AuthModule)
        ? options.authenticators[type as AuthModule]
        : undefined;
      if (!authenticator) throw invalidAuthenticationType(type);
      if (typeof username !== 'string' || typeof password !== 'string' || username === '') {
        throw authenticationFailure('Missing credentials');
      }
      const outcome = (what: LoginOutcome) => options.onOutcome?.(type as AuthModule, what);
      const wait = options.throttle.attempt(username, client.address);
      if (wait > 0) {
        outcome('throttled');
        throw authenticationFailure(TOO_MANY_FAILURES, { 'Retry-After': String(wait) });
      }
      let who: string | undefined;
      try {
        who = await authenticator(username, password, client.signal);
      } catch (err) {
        // A request whose client left while it waited stays counted: it was an attempt,
        // and a flood of abandoned requests must reach the address limit.
        if (err instanceof TaskDroppedError) throw err;
        options.throttle.undecided(username, client.address);
        if (err instanceof HasherBusyError) {
          outcome('busy');
          throw authenticationFailure(LOGINS_BUSY, {
            'Retry-After': String(err.retryAfterSeconds),
          });
        }
        outcome('error');
        throw err;
      }
      if (!who) {
        outcome('failure');
        throw authenticationFailure(INVALID_CREDENTIALS);
      }
      outcome('success');
      options.throttle.succeeded(username, client.address);
      return { token: options.tokens.issue(who) };
    },
  };
}
