// The HTTP server: every request goes through route matching, the handler, one error
// path and one log line. startServer() wires the database and services for `serve` and
// for the tests; close() is the graceful shutdown of SPEC §8.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ensureFirstAdmin } from './admin/first-admin';
import { type App, createApp } from './app';
import { createPasswordHasher } from './auth/password';
import { type Config, ConfigError } from './config';
import { migrate } from './db/migrate';
import { type Db, openDatabase } from './db/open';
import { createReaderPool } from './db/readers';
import { ensureSecretKey } from './db/settings';
import { ApiError, serverError } from './errors';
import type { Ctx, Handler } from './http/context';
import { answerPreflight, applyCors } from './http/cors';
import { sendError } from './http/respond';
import { endpointMethodNotAllowed, endpointNotFound, type Router } from './http/router';
import { createLogger, type Logger } from './log';
import { createRouter } from './routes';
import { createUserStore } from './users/store';

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
  // Slow clients must not hold connections forever (slow-loris).
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    (req, res) => {
      void handle(app, router, req, res);
    },
  );
  return server;
}

/**
 * The request target as a URL. Always read as a path: `new URL('//x', base)` would take
 * `x` for a host and throws on `//[` — outside the error path, that crashed the process.
 */
function requestUrl(target: string | undefined): URL {
  try {
    return new URL(`http://localhost${target?.startsWith('/') ? target : `/${target ?? ''}`}`);
  } catch {
    return new URL('http://localhost/');
  }
}

async function handle(
  app: App,
  router: Router<Handler>,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const started = performance.now();
  const url = requestUrl(req.url);
  const ctx: Ctx = { req, res, url, query: url.searchParams, params: {}, lists: app.lists };
  try {
    applyCors(req, res, app.config.corsOrigins);
    if (req.method === 'OPTIONS') return answerPreflight(res);
    const match = router.match(req.method ?? 'GET', url.pathname);
    if (match.kind === 'not-found') throw endpointNotFound();
    if (match.kind === 'method-not-allowed') throw endpointMethodNotAllowed(match.allow);
    ctx.params = match.params;
    await match.handler(ctx);
  } catch (err) {
    if (err instanceof ApiError) {
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
        path: url.pathname,
        error: err instanceof Error ? err.stack : String(err),
      });
      sendError(res, serverError());
    }
  } finally {
    app.log.info('request', {
      method: req.method,
      path: url.pathname,
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      user: ctx.caller ?? null,
    });
  }
}

export interface RunningServer {
  app: App;
  server: Server;
  /** http://host:port */
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** Where the first admin's generated password is announced. */
  announce?: (line: string) => void;
  /** Internal: tests shorten the slow-client timeouts; `serve` keeps the defaults. */
  timeouts?: ServerTimeouts;
}

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
  const passwords = createPasswordHasher();
  const readers = createReaderPool(config.db);
  const users = createUserStore(db, readers);
  await ensureFirstAdmin(
    { config, db, users, passwords },
    options.announce ?? ((line) => process.stderr.write(`${line}\n`)),
  );
  const app = createApp({ config, log, db, readers, passwords, secretKey });
  const server = createHttpServer(app, options.timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info('listening', { url: `http://${host}:${port}`, db: config.db });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Stop accepting, let in-flight requests finish (then close their connections),
      // force the rest after 10 s; then fold the WAL into the main file.
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
      readers.close();
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      log.info('stopped');
    })();
    return closing;
  };
  return { app, server, url: `http://${host}:${port}`, close };
}
