// The limits of streamed lists (http/list.ts) and large reports (http/text-body.ts),
// shared by every request of one server. A streamed list or report holds a database
// reader and its snapshot (db/readers.ts, db/text-streams.ts) until its client
// has taken the rows, so a client that stops reading must not hold them forever and
// there must not be any number of them: a stream that makes no progress for `stallMs`
// is cut off, and at most `max` lists stream at once. A list that finds every slot taken
// waits up to `waitMs` for one (the longest-waiting list gets the next), then gets a 503.
import { serviceUnavailable } from '../errors';

/** How long a list waits for a free slot before its 503. */
export const STREAM_WAIT_MS = 1000;

/** Retry-After of the 503 of a list that found no free stream slot. */
const RETRY_AFTER_SECONDS = 2;

/** The 503 of a list (or a large report) that found no free slot in time. */
export const tooManyStreams = () =>
  serviceUnavailable('Too many lists are being streamed; try again shortly', RETRY_AFTER_SECONDS);

export interface StreamLimits {
  /** Lists streamed at once. */
  max: number;
  /** How long a list waits for a free slot before it is refused. */
  waitMs: number;
  /** A list response that the client takes nothing of for this long is cut off. */
  stallMs: number;
  /** Told of each response cut off for stalling (for the log). */
  onStall?: (path: string) => void;
}

export interface ListStreams {
  readonly limits: Readonly<StreamLimits>;
  /** Takes a slot if one is free and no list is waiting for one. */
  tryTake(): boolean;
  /**
   * Waits up to `limits.waitMs` for a slot: true once one is handed over, false when none
   * came in time or `abort` fired first (the client went away).
   */
  take(abort: AbortSignal): Promise<boolean>;
  /** Gives a slot back: to the list waiting longest, if any. */
  give(): void;
  /** Slots taken now: lists being streamed. */
  open(): number;
  /** Resolves once no slot is taken (the shutdown waits for the readers to come back). */
  settled(): Promise<void>;
}

export function createListStreams(limits: StreamLimits): ListStreams {
  let taken = 0;
  /** Waiting lists, oldest first; calling one hands it the slot of a finished stream. */
  const waiting: (() => void)[] = [];
  let onSettled: (() => void)[] = [];
  return {
    limits,
    open: () => taken,
    tryTake() {
      if (taken >= limits.max || waiting.length > 0) return false;
      taken++;
      return true;
    },
    take(abort) {
      return new Promise<boolean>((resolve) => {
        if (abort.aborted) {
          resolve(false);
          return;
        }
        const done = (handedOver: boolean) => {
          clearTimeout(timer);
          abort.removeEventListener('abort', gone);
          const at = waiting.indexOf(handOver);
          if (at >= 0) waiting.splice(at, 1);
          resolve(handedOver);
        };
        const handOver = () => done(true);
        const gone = () => done(false);
        const timer = setTimeout(() => done(false), limits.waitMs);
        abort.addEventListener('abort', gone, { once: true });
        waiting.push(handOver);
      });
    },
    give() {
      const next = waiting.shift();
      if (next) {
        next(); // the slot passes on; `taken` stays
        return;
      }
      taken--;
      if (taken === 0) {
        const settled = onSettled;
        onSettled = [];
        for (const resolve of settled) resolve();
      }
    },
    settled() {
      return taken === 0 ? Promise.resolve() : new Promise((resolve) => onSettled.push(resolve));
    },
  };
}
