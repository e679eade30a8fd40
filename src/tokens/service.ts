// Personal API tokens (issue 33): made, listed and revoked through /v0/tokens, and turned
// back into their owner when a request presents one (auth/session.ts). A token acts as
// its owner with the owner's rights at the time of the request; what its scope and its
// being a personal token forbid is policy.ts's to say.

import { formatDate, formatTimestamp } from '../dates';
import { type Db, writeTransaction } from '../db/open';
import {
  authenticationFailure,
  badObject,
  invalidIdentifier,
  notFound,
  tokenNameAlreadyExists,
} from '../errors';
import { type Listing, rowsOf } from '../http/list';
import { firstParam, pagingParams } from '../http/query';
import { isUsername } from '../identifiers';
import { type Actor, authorize } from '../policy';
import type { NewPersonalToken, PersonalToken } from '../shapes/personal-token';
import type { TokenHolder } from '../users/store';
import { parseObject } from '../validate';
import { createTokenSchema, startOfDate } from './schema';
import { hashSecret, isPersonalToken, newSecret } from './secret';
import type { TokenRow, TokenStore } from './store';

/** Live (unrevoked, unexpired) tokens one user may hold. */
export const MAX_LIVE_TOKENS = 50;

/** last_used_at is kept to the minute: written once a minute at most, per token. */
const MINUTE_MS = 60_000;

export interface TokenServiceDeps {
  db: Db;
  tokens: TokenStore;
  /** The active, undeleted user of that username (users/store.ts, cached). */
  findTokenHolder: (username: string) => TokenHolder | undefined;
  /** Any user's id and stored username (deleted ones too). */
  findUser: (username: string) => { id: number; username: string } | undefined;
  /** How last_used_at is written: off the request's path, with other writes. */
  runWrite: <T>(write: () => T) => Promise<T>;
  defaultLimit: number;
}

export type PersonalTokenService = ReturnType<typeof createPersonalTokenService>;

const toJson = (row: TokenRow): PersonalToken => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  created_at: formatDate(row.created_at),
  expires_at: formatDate(row.expires_at),
  last_used_at: row.last_used_at === null ? null : formatTimestamp(row.last_used_at),
});

/** A token id of a path: a positive integer, else kind 5. */
function idFromPath(raw: string | undefined): number {
  const text = raw ?? '';
  if (!/^[1-9][0-9]{0,14}$/.test(text)) throw invalidIdentifier('token id', text);
  return Number(text);
}

export function createPersonalTokenService(deps: TokenServiceDeps) {
  const { db, tokens } = deps;
  /** Tokens whose last_used_at is being written: one write at a time each. */
  const touching = new Set<number>();

  const touch = (row: TokenRow, now: number) => {
    const minute = now - (now % MINUTE_MS);
    if ((row.last_used_at !== null && row.last_used_at >= minute) || touching.has(row.id)) return;
    touching.add(row.id);
    // Not awaited: the request does not wait for it, and a write that finds the lock
    // busy is simply tried again by the next request.
    deps
      .runWrite(() => tokens.touch(row.id, minute))
      .then(
        () => touching.delete(row.id),
        () => touching.delete(row.id),
      );
  };

  return {
    /** POST /v0/tokens: a new token of the caller's; its secret is in this answer only. */
    create: (actor: Actor, input: unknown): NewPersonalToken =>
      writeTransaction(db, () => {
        const object = parseObject(createTokenSchema, input, 'token');
        authorize(actor, { do: 'create token' });
        if (tokens.nameTaken(actor.id, object.name)) throw tokenNameAlreadyExists(object.name);
        const now = Date.now();
        if (tokens.liveCount(actor.id, now) >= MAX_LIVE_TOKENS) {
          throw badObject(
            `${actor.username} already has ${MAX_LIVE_TOKENS} live tokens; revoke one first`,
          );
        }
        const token = newSecret();
        const id = tokens.insert({
          user_id: actor.id,
          name: object.name,
          scope: object.scope,
          secret_hash: hashSecret(token),
          created_at: now,
          expires_at: object.expires_at ? startOfDate(object.expires_at) : null,
        });
        return { ...toJson(tokens.find(id) as TokenRow), token };
      }),

    /**
     * GET /v0/tokens: the caller's unrevoked tokens, or `?user=`'s for site admins, oldest
     * first, paged like every list (a user has few: read whole, then paged in memory).
     */
    list(actor: Actor, query: URLSearchParams): Listing {
      const paging = pagingParams(query, deps.defaultLimit);
      const username = firstParam(query, 'user', isUsername);
      let ownerId = actor.id;
      if (username !== undefined) {
        const owner = deps.findUser(username);
        if (!owner) throw notFound('user');
        authorize(actor, { do: 'list tokens', username: owner.username, ownerId: owner.id });
        ownerId = owner.id;
      }
      const texts = tokens.listOf(ownerId).map((row) => JSON.stringify(toJson(row)));
      return { paging, open: () => rowsOf(texts) };
    },

    /** DELETE /v0/tokens/:id: by its owner or a site admin, never with a personal token. */
    revoke: (actor: Actor, rawId: string | undefined): void =>
      writeTransaction(db, () => {
        const id = idFromPath(rawId);
        const row = tokens.find(id);
        if (!row || row.revoked_at !== null) throw notFound('token');
        authorize(actor, { do: 'revoke token', id, ownerId: row.user_id });
        tokens.revoke(id, Date.now());
      }),

    /** Whether a presented token is a personal one (auth/session.ts asks first). */
    accepts: isPersonalToken,

    /**
     * The actor a personal token stands for, or kind 7: unknown, revoked, expired, or its
     * owner deactivated or deleted (refused while that lasts, like their JWTs).
     */
    authenticate(token: string, now = Date.now()): Actor {
      const row = tokens.findBySecret(hashSecret(token));
      if (!row) throw authenticationFailure('Invalid token');
      if (row.revoked_at !== null) throw authenticationFailure('Token has been revoked');
      if (row.expires_at !== null && row.expires_at <= now) {
        throw authenticationFailure('Expired token');
      }
      const holder = deps.findTokenHolder(row.username);
      if (!holder) throw authenticationFailure('Invalid token');
      touch(row, now);
      const { actor } = holder;
      return {
        id: actor.id,
        username: actor.username,
        siteSpectator: actor.siteSpectator,
        siteManager: actor.siteManager,
        siteAdmin: actor.siteAdmin,
        personalToken: { id: row.id, scope: row.scope },
      };
    },
  };
}
