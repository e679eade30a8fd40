// The HTTP server: every request goes through route matching, the handler, one error
// path and one log line. startServer() wires the database and services for `serve` and
// for the tests; close() is the graceful shutdown of SPEC §8.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp } from './app';
import { createPasswordHasher, type HasherEvent } from './auth/password';
import { type Config, ConfigError } from './config';
import { startCheckpointer } from './db/checkpointer';
import { startJsonFiller } from './db/json-filler';
import { migrate } from './db/migrate';
import {
  type Db,
  openDatabase,
  WAITING_FOR_THE_WRITE_LOCK,
  WriteLockBusy,
  whenWriteLockFree,
} from './db/open';
import { createReaderPool } from './db/readers';
import { ensureSecretKey } from './db/settings';
import { type ShortListOptions, type ShortLists, startShortLists } from './db/short-lists';
import { startTextStreams, type TextStreamOptions } from './db/text-streams';
import { reportWorkerSource } from './embedded';
import { ApiError, serverError, serviceUnavailable } from './errors';
import { clientAddress, newRequestId, sentRequestId } from './http/client';
import type { Ctx, Handler } from './http/context';
import { answerPreflight, applyCors } from './http/cors';
import { IdentifiedResponse } from './http/identified-response';
import { sendError } from './http/respond';
import { endpointMethodNotAllowed, endpointNotFound, type Router } from './http/router';
import type { StaticSite } from './http/static';
import { createLogger, type Logger } from './log';
import { createMetrics, type Metrics } from './metrics';
import { openReportText } from './reports/text';
import { createRouter } from './routes';
import { isApiPath, webSite } from './web-assets';

/** How long slow clients may take; fixed for `serve`, shortened by tests. */
export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  /** How often Node looks for connections past headersMs/requestMs. */
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

export function createHttpServer(app: App, timeouts: ServerTimeouts = DEFAULT_TIMEOUTS): Server {
  const router = createRouter(app);
  // The web app (--no-web: the API only), built or loaded once, before the first request.
  const web = app.config.web ? webSite() : undefined;
  // Slow clients must not hold connections forever (slow-loris).
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      ServerResponse: IdentifiedResponse,
    },
    (req, res) => {
      void handle(app, router, web, req, res);
    },
  );
  return server;
}

/**
 * The request target split into the raw path it is routed on and its query string,
 * with plain string operations (cheaper than `new URL()`). The path is used as sent: no
 * dot-segment removal, so `.`, `..`, `%2E` are just characters of a path parameter (`.`
 * is a well-formed username), and `/a/../b` is not `/b`. A target that is not a path
 * (`*`, `x`) is read as one; `//x` stays a path (new URL() took `x` for a host and threw
 * on `//[`, outside the error path, which crashed the process). The absolute form
 * `http://host/path?query` (RFC 9112 §3.2.2) gives its path and query; its host does
 * not matter.
 */
function splitTarget(target: string | undefined): { path: string; search: string } {
  let t = target ?? '';
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash);
  const q = t.indexOf('?');
  let path = q < 0 ? t : t.slice(0, q);
  const search = q < 0 ? '' : t.slice(q + 1);
  if (path.charCodeAt(0) !== 0x2f /* / */) {
    const authority = ABSOLUTE_FORM.exec(path);
    path = authority ? path.slice(authority[0].length) || '/' : `/${path}`;
  }
  return { path, search };
}

/** `http://` or `https://` (any letter case) and the authority, up to the path. */
const ABSOLUTE_FORM = /^https?:\/\/[^/]*/i;

/**
 * ctx.url, built only when a handler reads it (a list's next-page Link). List routes are
 * literal paths, which URL parsing leaves as they are.
 */
function lazyUrl(path: string, search: string): () => URL {
  let url: URL | undefined;
  return () => {
    if (!url) {
      try {
        url = new URL(`http://localhost${path}?${search}`);
      } catch {
        url = new URL(`http://localhost/?${search}`);
      }
    }
    return url;
  };
}

async function handle(
  app: App,
  router: Router<Handler>,
  web: StaticSite | undefined,
  req: IncomingMessage,
  res: IdentifiedResponse,
) {
  const started = performance.now();
  const { path, search } = splitTarget(req.url);
  const query = new URLSearchParams(search);
  const url = lazyUrl(path, search);
  // A client's X-Request-Id is the request's id only from a trusted proxy; from anyone
  // else it is logged apart, and the id is our own.
  const sentId = sentRequestId(req);
  const trusted = app.config.trustProxy;
  const id = trusted && sentId !== undefined ? sentId : newRequestId();
  res.requestId = id;
  const ctx: Ctx = {
    req,
    res,
    get url() {
      return url();
    },
    query,
    params: {},
    lists: app.lists,
    client: clientAddress(req, app.config.trustProxy),
    lockWaited: () => app.log.info(WAITING_FOR_THE_WRITE_LOCK, { method: req.method, route, id }),
  };
  // Its headers are read; the request line comes once it is answered. A request that
  // never ends (a client that trickles its body, a stream) shows here meanwhile.
  if (app.log.debugging) {
    app.log.debug('request started', { method: req.method, path, id, client: ctx.client });
  }
  /** The route pattern for the log and the metrics: never the raw path (ids, names). */
  let route = UNMATCHED;
  try {
    applyCors(req, res, app.config.corsOrigins);
    if (req.method === 'OPTIONS') {
      route = PREFLIGHT;
      return answerPreflight(res);
    }
    const match = router.match(req.method ?? 'GET', path);
    if (match.kind === 'not-found') {
      // Not the API's: the web app's files, and its page for client-side routes.
      if (web && !isApiPath(path) && web.serve(req, res, path)) {
        route = WEB;
        return;
      }
      throw endpointNotFound();
    }
    route = match.pattern;
    if (match.kind === 'method-not-allowed') throw endpointMethodNotAllowed(match.allow);
    ctx.params = match.params;
    // A write that finds another process's write lock (the CLI, a second server) did
    // nothing and is run again until the lock is free or the wait is over: meanwhile the
    // event loop answers other requests. The body was read once and is kept in ctx.
    await whenWriteLockFree(
      () => match.handler(ctx),
      app.config.lockWaitSeconds * 1000,
      ctx.lockWaited,
    );
  } catch (err) {
    if (err instanceof WriteLockBusy) {
      sendError(res, serviceUnavailable('The database is busy; try again shortly', 1));
    } else if (err instanceof ApiError) {
      if (err.status === 413) res.setHeader('Connection', 'close'); // the rest is not read
      sendError(res, err);
    } else if (req.destroyed && !req.complete) {
      // The client went away (or timed out) before its body arrived: nobody to answer,
      // and not a server error. 499 in the log, as nginx writes it.
      res.statusCode = 499;
      res.destroy();
    } else {
      app.log.error('unexpected error', {
        method: req.method,
        path,
        id,
        error: err instanceof Error ? err.stack : String(err),
      });
      sendError(res, serverError());
    }
  } finally {
    const ms = performance.now() - started;
    app.metrics?.request(req.method, route, res.statusCode, ms / 1000);
    app.log.request({
      method: req.method ?? '',
      path,
      route,
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      id,
      client: ctx.client,
      user: ctx.caller,
      client_request_id: trusted ? undefined : sentId,
    });
  }
}

/** Route names of requests no route pattern answered (the log's and metrics' `route`). */
const UNMATCHED = '(none)';
const PREFLIGHT = '(preflight)';
const WEB = '(web)';

export interface RunningServer {
  app: App;
  server: Server;
  /** http://host:port */
  url: string;
  /** With --metrics-addr: http://host:port/metrics of its own listener. */
  metricsUrl?: string;
  /**
   * Settles once the WAL checkpoint worker has its connection open (db/checkpointer.ts), a
   * moment after start-up; at once when Litestream makes the checkpoints.
   */
  checkpointsStarted: Promise<void>;
  /** The short-list workers (db/short-lists.ts), which run while short lists are read. */
  shortLists: Pick<ShortLists, 'state' | 'warmUp' | 'counts' | 'waiting' | 'stop'>;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** Where the first admin's generated password is announced. */
  announce?: (line: string) => void;
  /** Internal: tests shorten the slow-client timeouts; `serve` keeps the defaults. */
  timeouts?: ServerTimeouts;
  /** Internal: tests fix the bcrypt pool's size and count what it does. */
  bcrypt?: { workers?: number; onEvent?: (event: HasherEvent) => void };
  /** Internal: tests shorten the short-list workers' idle time, size the pool and see them start and exit. */
  shortLists?: ShortListOptions;
  /** Internal: the same for the large-report worker. */
  reportStreams?: TextStreamOptions;
}

const SERVE_BUSY_TIMEOUT_MS = 20;

/** --db names a file that cannot be opened (no such directory, not SQLite): one line. */
function openConfiguredDatabase(file: string): Db {
  try {
    return openDatabase(file);
  } catch (err) {
    throw new ConfigError(`cannot open the database ${file}: ${(err as Error).message}`);
  }
}

/** Opens and migrates the database, creates the first admin if needed, listens. */
export async function startServer(
  config: Readonly<Config>,
  options: StartOptions = {},
): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = openConfiguredDatabase(config.db);
  migrate(db);
  const secretKey = config.secretKey ?? ensureSecretKey(db);
  const passwords = createPasswordHasher(options.bcrypt?.workers, {
    queuePerWorker: config.loginQueuePerWorker,
    onEvent: options.bcrypt?.onEvent,
  });
  // Litestream copies the WAL before it folds it into the file, and only it may then
  // start the WAL over; our own checkpoints could only race it (docs/operations.md). Nor
  // may we cut the WAL short when a write starts it over: Litestream copies the frames
  // written just before its checkpoint from the old WAL's tail afterwards.
  if (config.checkpoint === 'litestream') {
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('journal_size_limit = -1');
  }
  const readers = createReaderPool(config.db);
  const shortLists = startShortLists(config.db, readers, log, options.shortLists);
  const reportStreams = startTextStreams({
    what: 'large report',
    file: config.db,
    readers,
    source: reportWorkerSource,
    openText: openReportText,
    log,
    options: options.reportStreams,
  });
  const metrics = config.metrics
    ? createMetrics({
        dbFile: config.db,
        bcryptWaiting: () => passwords.waiting(),
        openLists: () => app.lists.open(),
        shortLists: () => shortLists.counts(),
        shortListsWaiting: () => shortLists.waiting(),
      })
    : undefined;
  const app = createApp({
    config,
    log,
    db,
    readers,
    shortLists: shortLists.read,
    reportStreams,
    passwords,
    secretKey,
    metrics,
  });
  const server = createHttpServer(app, options.timeouts);
  const metricsServer =
    metrics && config.metricsAddr ? createMetricsServer(metrics, options.timeouts) : undefined;
  // Listening comes first: a server that cannot listen (a host that does not resolve,
  // a port in use) creates no first admin and announces no password.
  try {
    await listen(server, config.port, config.host);
    if (metricsServer && config.metricsAddr) {
      await listen(metricsServer, config.metricsAddr.port, config.metricsAddr.host);
    }
  } catch (err) {
    server.close();
    await passwords.close();
    await shortLists.stop();
    await reportStreams.stop();
    readers.close();
    db.close();
    throw err;
  }
  try {
    const announce = options.announce ?? ((line) => process.stderr.write(`${line}\n`));
    await app.ensureFirstAdmin(announce);
  } catch (err) {
    server.close();
    metricsServer?.close();
    await shortLists.stop();
    await reportStreams.stop();
    throw err;
  }
  // From here on a statement blocks the event loop at most this long on another
  // process's lock; writes then wait asynchronously (whenWriteLockFree).
  db.pragma(`busy_timeout = ${SERVE_BUSY_TIMEOUT_MS}`);
  const filler = startJsonFiller(db, [app.projectJson], log);
  const checkpointer =
    config.checkpoint === 'auto'
      ? startCheckpointer(db, config.db, log, app.writes.hold)
      : undefined;
  const url = urlOf(server, config.host);
  const metricsUrl =
    metricsServer && config.metricsAddr
      ? `${urlOf(metricsServer, config.metricsAddr.host)}/metrics`
      : undefined;
  log.info('listening', { url, db: config.db, ...(metricsUrl ? { metrics: metricsUrl } : {}) });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Stop accepting, let in-flight requests finish (then close their connections),
      // force the rest after 10 s; then fold the WAL into the main file. Between the two
      // lines the log shows what the stop waited for.
      log.info('stopping');
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const idleTimer = setInterval(() => server.closeIdleConnections(), 50);
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearInterval(idleTimer);
      clearTimeout(force);
      // A stream whose connection just closed gives its reader back a moment later.
      await app.lists.settled();
      await passwords.close();
      filler.stop();
      await shortLists.stop();
      await reportStreams.stop();
      readers.close();
      // With Litestream running this checkpoint cannot finish anyway (it holds a read
      // transaction): measured, the WAL stayed 12 MB after a stop.
      await checkpointer?.stop();
      if (config.checkpoint === 'auto') db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      log.info('stopped');
    })();
    return closing;
  };
  const checkpointsStarted = checkpointer?.started ?? Promise.resolve();
  return { app, server, url, metricsUrl, checkpointsStarted, shortLists, close };
}

/** Listens, or says in one line why it cannot (a host that does not resolve, a port in use). */
async function listen(server: Server, port: number, host: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (err) {
    throw new ConfigError(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }
}

/** http://host:port of a listening server (an IPv6 host in brackets). */
function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The listener of --metrics-addr: GET (and HEAD) /metrics, nothing else. */
function createMetricsServer(metrics: Metrics, timeouts = DEFAULT_TIMEOUTS): Server {
  return createServer(
    { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs },
    (req, res) => {
      const { path } = splitTarget(req.url);
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
        void metrics.send(res);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    },
  );
}
