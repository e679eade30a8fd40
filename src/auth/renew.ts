// POST /v0/login/renew (issue 34), our extension: a valid token is exchanged for a fresh
// one, so that a person who keeps using the web app is never asked to sign in again,
// while an idle session still ends. The presented token must pass every check a request's
// token does (signature, expiry, revocation, an active undeleted user: auth/session.ts).
// The new token lives --session-idle seconds, never past --session-max after the
// sign-in it descends from (kept server-side: the claims stay TimeSync's, SPEC §2.3).
// /v0/login and the tokens it issues are unchanged.
import { type Db, writeTransaction } from '../db/open';
import { authenticationFailure } from '../errors';
import { type Actor, authorize } from '../policy';
import type { RenewalStore } from './renewal-store';
import type { TokenService } from './token';

export interface RenewalOptions {
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
}

export function createRenewal(
  db: Db,
  store: RenewalStore,
  tokens: TokenService,
  options: RenewalOptions,
) {
  return {
    renew(actor: Actor, now = Date.now()): { token: string } {
      authorize(actor, { do: 'renew session' });
      const issuedAt = actor.tokenIssuedAt;
      if (issuedAt === undefined) throw authenticationFailure('Invalid token');
      return writeTransaction(db, () => {
        const signedIn = store.signedInAt(actor.id, issuedAt) ?? issuedAt;
        const end = signedIn + options.sessionMaxSeconds * 1000;
        if (now >= end) throw authenticationFailure('Session too old to renew: log in again');
        const expiresAt = Math.min(now + options.sessionIdleSeconds * 1000, end);
        const token = tokens.issue(actor.username, now, expiresAt);
        store.record(actor.id, now, signedIn, expiresAt, now);
        return { token };
      });
    },
  };
}

export type Renewal = ReturnType<typeof createRenewal>;
