// The token holders of auth/session.ts, kept between requests: every signed-in request
// needs its caller's flags, revocation time and signed-out tokens, and reading them was
// one statement per request. Only holders read outside a transaction are kept (committed
// state). A holder is forgotten whenever users may have changed: on every write of the
// user store (password, flags, active, deletion, revocation, sign-out), and whenever
// another connection or process has committed anything (`PRAGMA data_version` moves:
// `admin set-password`, the other CLI commands and other servers write from outside).
// So a revoked or signed-out token is refused at once.
import type { Db } from '../db/open';
import type { TokenHolder } from './store';

export interface HolderCache {
  /** The cached holder of `username`, else `load`'s answer (kept only when there is one). */
  get(
    username: string,
    load: (username: string) => TokenHolder | undefined,
  ): TokenHolder | undefined;
  /** Forgets every holder: a user is being written. */
  clear(): void;
}

// One per connection, shared by every user store made on it (app.ts, the first admin's).
const caches = new WeakMap<Db, HolderCache>();

export function holderCacheOf(db: Db): HolderCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createHolderCache(db);
    caches.set(db, cache);
  }
  return cache;
}

function createHolderCache(db: Db): HolderCache {
  const holders = new Map<string, TokenHolder>();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen: unknown;
  let probed = false;
  const reprobe = () => {
    probed = false;
  };
  return {
    get(username, load) {
      // Inside a transaction the connection may see a write that is still to commit or
      // roll back: such a holder is not kept.
      if (db.inTransaction) return load(username);
      // Probed once per batch of requests that one poll of the sockets gave: each of
      // them arrived before that poll returned, so before the probe, and whatever was
      // committed before they were sent is seen. The next batch probes again.
      if (!probed) {
        probed = true;
        setImmediate(reprobe);
        const version = dataVersion.get();
        if (version !== seen) {
          holders.clear();
          seen = version;
        }
      }
      let holder = holders.get(username);
      if (!holder) {
        holder = load(username);
        if (holder) holders.set(username, holder);
      }
      return holder;
    },
    clear: () => holders.clear(),
  };
}
