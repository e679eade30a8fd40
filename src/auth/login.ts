// POST /v0/login (SPEC §2.2): checks a password or LDAP auth block and issues a token.
// Unknown users and wrong passwords get the same answer in about the same time.
import type { AuthModule } from '../config';
import { authenticationFailure } from '../errors';
import type { UserStore } from '../users/store';
import { DUMMY_HASH, isAcceptedHash, type PasswordHasher } from './password';
import type { LoginThrottle } from './throttle';
import type { TokenService } from './token';

/** Checks credentials; returns the local username (stored case) or undefined. */
export type Authenticator = (username: string, password: string) => Promise<string | undefined>;

export const INVALID_CREDENTIALS = 'Invalid username or password';

export function passwordAuthenticator(users: UserStore, passwords: PasswordHasher): Authenticator {
  return async (username, password) => {
    const user = users.findByUsername(username);
    // A hash of a cost we refuse (older data) is never compared: the dummy takes its place.
    const stored = user?.password_hash;
    const hash = stored && isAcceptedHash(stored) ? stored : undefined;
    const ok = await passwords.compare(password, hash ?? DUMMY_HASH);
    if (!ok || !user || user.active !== 1 || user.deleted_at !== null || !hash) {
      return undefined;
    }
    return user.username;
  };
}

export type LoginService = ReturnType<typeof createLoginService>;

export function createLoginService(options: {
  modules: readonly AuthModule[];
  authenticators: Partial<Record<AuthModule, Authenticator>>;
  throttle: LoginThrottle;
  tokens: TokenService;
}) {
  return {
    async login(body: unknown): Promise<{ token: string }> {
      const auth =
        typeof body === 'object' && body !== null
          ? (body as Record<string, unknown>).auth
          : undefined;
      if (typeof auth !== 'object' || auth === null || Array.isArray(auth)) {
        throw authenticationFailure('Missing credentials');
      }
      const { type, username, password } = auth as Record<string, unknown>;
      if (type === undefined) throw authenticationFailure('Missing authentication type');
      const authenticator = options.modules.includes(type as AuthModule)
        ? options.authenticators[type as AuthModule]
        : undefined;
      if (!authenticator)
        throw authenticationFailure(`${String(type)} is not a valid authentication type`);
      if (typeof username !== 'string' || typeof password !== 'string' || username === '') {
        throw authenticationFailure('Missing credentials');
      }
      const wait = options.throttle.attempt(username);
      if (wait > 0) {
        throw authenticationFailure('Too many failed logins; try again later', {
          'Retry-After': String(wait),
        });
      }
      let who: string | undefined;
      try {
        who = await authenticator(username, password);
      } catch (err) {
        options.throttle.undecided(username);
        throw err;
      }
      if (!who) throw authenticationFailure(INVALID_CREDENTIALS);
      options.throttle.succeeded(username);
      return { token: options.tokens.issue(who) };
    },
  };
}
