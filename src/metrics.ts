// Prometheus metrics (--metrics, GET /metrics), kept by prom-client in a registry of this
// server's own (tests run several servers in one process). Labels are bounded sets: the
// route *pattern* (never the raw path, which holds usernames and ids), the status, the
// method, the login type and outcome — no username, token or address ever.
import { statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { LoginOutcome } from './auth/login';
import { LISTS_IN_FLIGHT, type ShortListCounts } from './db/short-lists';

export interface Metrics {
  /** One answered request: `route` is the router's pattern or a fixed name (see server.ts). */
  request(method: string | undefined, route: string, status: number, seconds: number): void;
  login(type: string, outcome: LoginOutcome): void;
  /** Writes the exposition text (GET /metrics). */
  send(res: ServerResponse): Promise<void>;
}

export interface MetricSources {
  dbFile: string;
  /** Password checks waiting for a bcrypt worker. */
  bcryptWaiting(): number;
  /** Lists (and large reports) being streamed now (http/streams.ts). */
  openLists(): number;
  /** Short lists read so far on a list worker thread and on the event loop (db/short-lists.ts). */
  shortLists(): ShortListCounts;
  /** Short lists waiting for a list worker with room (db/short-lists.ts). */
  shortListsWaiting(): number;
}

/** Anything else (WebDAV verbs, …) is one label value, so no client can add series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'PUT', 'PATCH']);

/** Seconds: API answers are ~1 ms, logins ~70 ms, long streamed lists seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0; // no -wal file (yet, or after a checkpoint that truncated it)
  }
};

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'timetrack_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'timetrack_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const logins = new Counter({
    name: 'timetrack_logins_total',
    help: 'Login attempts by login type and outcome (success, failure, throttled, busy, error)',
    labelNames: ['type', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'timetrack_bcrypt_queue_length',
    help: 'Password checks waiting for a bcrypt worker',
    registers: [registry],
    collect() {
      this.set(sources.bcryptWaiting());
    },
  });
  new Gauge({
    name: 'timetrack_streamed_lists_open',
    help: 'Lists of over 1,000 rows and large reports being streamed now (see --max-streamed-lists)',
    registers: [registry],
    collect() {
      this.set(sources.openLists());
    },
  });
  // Counted where they happen; the counter catches up at each scrape. Lists read on the
  // event loop hold up every other answer meanwhile: a share that grows under a steady
  // load says the workers cannot keep up (or have failed).
  const reported: ShortListCounts = { worker: 0, eventLoop: 0 };
  new Counter({
    name: 'timetrack_short_lists_total',
    help: "Short lists (one user's month and the like) read whole, by thread: worker or event_loop",
    labelNames: ['thread'] as const,
    registers: [registry],
    collect() {
      const now = sources.shortLists();
      this.inc({ thread: 'worker' }, now.worker - reported.worker);
      this.inc({ thread: 'event_loop' }, now.eventLoop - reported.eventLoop);
      Object.assign(reported, now);
    },
  });
  new Gauge({
    name: 'timetrack_short_lists_waiting',
    help: `Short lists waiting for a list worker (each reads at most ${LISTS_IN_FLIGHT} at a time)`,
    registers: [registry],
    collect() {
      this.set(sources.shortListsWaiting());
    },
  });
  new Gauge({
    name: 'timetrack_database_bytes',
    help: 'Size of the SQLite database file and of its write-ahead log',
    labelNames: ['file'] as const,
    registers: [registry],
    collect() {
      this.set({ file: 'db' }, sizeOf(sources.dbFile));
      this.set({ file: 'wal' }, sizeOf(`${sources.dbFile}-wal`));
    },
  });
  return {
    request(method, route, status, seconds) {
      const m = method && METHODS.has(method) ? method : 'other';
      requests.inc({ method: m, route, status: String(status) });
      duration.observe({ method: m, route }, seconds);
    },
    login(type, outcome) {
      logins.inc({ type, outcome });
    },
    async send(res) {
      const text = await registry.metrics();
      res.writeHead(200, {
        'Content-Type': registry.contentType,
        'Content-Length': Buffer.byteLength(text),
        'Cache-Control': 'no-store',
      });
      res.end(text);
    },
  };
}
