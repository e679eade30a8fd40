// The Idempotency-Key request header (issue 29, item 7) on every POST that creates or
// changes something: a client that lost the answer to a write (a network error after the
// request arrived) sends it again with the same key and gets the first answer again,
// status and body, with nothing done twice. The key is claimed in the database before the
// request runs (so two requests with one key, in one process or two, never both run), the
// answer is stored before it is sent, and a key lives 24 h (idempotency/store.ts).
import type { ServerResponse } from 'node:http';
import type { SignedInHandler } from '../auth/session';
import { whenWriteLockFree } from '../db/open';
import { ApiError, idempotencyKeyInUse, idempotencyKeyReused, wrongType } from '../errors';
import { requestBody } from '../http/auth';
import type { RunWrite } from '../http/handlers';
import { JSON_TYPE, sendText } from '../http/respond';
import type { Logger } from '../log';
import { requestFingerprint } from './fingerprint';
import type { IdempotencyStore, StoredAnswer } from './store';

/** 1-255 visible ASCII characters but `,` (two headers arrive joined by a comma). */
const IDEMPOTENCY_KEY = /^[\x21-\x2b\x2d-\x7e]{1,255}$/;

export const badIdempotencyKey = () =>
  wrongType(
    'request',
    'Idempotency-Key',
    '1 to 255 visible ASCII characters other than a comma',
    'string',
  );

/** The header a replayed answer carries. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export interface IdempotencyDeps {
  store: IdempotencyStore;
  /** How claims and answers are written: grouped with the other writes of the turn. */
  run: RunWrite;
  /** --lock-wait: how long a write waits for another process's write lock. */
  lockWaitMs: number;
  log: Logger;
}

export type Idempotency = ReturnType<typeof createIdempotency>;

export function createIdempotency(deps: IdempotencyDeps) {
  const { store, run, lockWaitMs, log } = deps;
  /** Writes the key's outcome: its answer, or (none to keep) the claim given back. */
  const settle = async (userId: number, key: string, at: number, answer?: StoredAnswer) => {
    try {
      await whenWriteLockFree(
        () =>
          run(() =>
            answer ? store.answer(userId, key, at, answer) : store.giveBack(userId, key, at),
          ),
        lockWaitMs,
      );
    } catch (err) {
      // The key stays claimed until it expires: its retries are told it is in use, and
      // nothing is done twice.
      log.warn('idempotency key not settled', { error: String(err) });
    }
  };

  return {
    /** `handler`, answered once per Idempotency-Key of its caller (without one: as it is). */
    once(handler: SignedInHandler): SignedInHandler {
      return async (ctx, actor) => {
        const key = ctx.req.headers['idempotency-key'];
        if (key === undefined) return handler(ctx, actor);
        if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) throw badIdempotencyKey();
        const target = ctx.req.url ?? '';
        const query = target.indexOf('?');
        const fingerprint = requestFingerprint(
          ctx.req.method ?? 'POST',
          query < 0 ? target : target.slice(0, query),
          ctx.query,
          await requestBody(ctx),
        );
        const claim = await run(() => store.claim(actor.id, key, fingerprint, Date.now()));
        if (claim.kind === 'other request') throw idempotencyKeyReused();
        if (claim.kind === 'in progress') throw idempotencyKeyInUse();
        if (claim.kind === 'answered') return replay(ctx.res, claim.answer);

        const held = holdEnd(ctx.res);
        try {
          // A write that finds another process's lock is run again here, under the claim.
          await whenWriteLockFree(() => handler(ctx, actor), lockWaitMs, ctx.lockWaited);
        } catch (err) {
          held.release();
          const answer = err instanceof ApiError && err.status < 500 ? errorAnswer(err) : undefined;
          await settle(actor.id, key, claim.at, answer);
          throw err;
        }
        const sent = held.sent();
        await settle(actor.id, key, claim.at, sent && sent.status < 500 ? sent : undefined);
        held.release();
      };
    },
  };
}

/** The answer server.ts writes for an error, as it will be replayed. */
const errorAnswer = (err: ApiError): StoredAnswer => ({
  status: err.status,
  body: JSON.stringify(err.toBody()),
  headers: { ...err.headers },
});

/** The first answer again, marked as such. */
function replay(res: ServerResponse, answer: StoredAnswer): void {
  const headers = { ...answer.headers, [REPLAYED_HEADER]: 'true' };
  if (answer.body === '') {
    res.writeHead(answer.status, { ...headers, 'Content-Length': 0 });
    res.end();
  } else {
    sendText(res, answer.status, JSON_TYPE, answer.body, headers);
  }
}

/**
 * Holds back the end of `res`: the handler's answer (written with writeHead and one end,
 * as every POST handler does) goes out only once it is stored, so a client that got it
 * can count on its retries getting it too.
 */
function holdEnd(res: ServerResponse) {
  let body: string | undefined;
  res.end = function held(this: ServerResponse, chunk?: unknown) {
    if (typeof chunk === 'string') body = chunk;
    else if (Buffer.isBuffer(chunk)) body = chunk.toString('utf8');
    else body = '';
    return this;
  } as ServerResponse['end'];
  return {
    /** What the handler answered, if it did. */
    sent: (): StoredAnswer | undefined =>
      body === undefined ? undefined : { status: res.statusCode, body, headers: {} },
    /** The response's own end again, and what was held sent with it. */
    release() {
      Reflect.deleteProperty(res, 'end');
      if (body !== undefined) res.end(body);
    },
  };
}
