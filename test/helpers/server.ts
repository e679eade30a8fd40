// Starts a real server on a temporary database file and port 0, with a known admin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import {
  type RunningServer,
  type ServerTimeouts,
  type StartOptions,
  startServer,
} from '../../src/server';
import { type Api, createApi } from './api';

export const ADMIN = { username: 'admin', password: 'admin-password-1' };

export interface TestServer {
  url: string;
  dir: string;
  dbFile: string;
  running: RunningServer;
  api: Api;
  /** Every log line the server wrote. */
  logs: string[];
  adminToken: string;
  close(): Promise<void>;
}

/** The server's log lines from the `from`th on, parsed: each one's fields by name. */
export const logLines = (server: TestServer, from = 0) =>
  server.logs.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);

const tempDirs: string[] = [];

/** A temporary directory removed when the process exits (one exit listener for all). */
export function tempDir(prefix = 'timetrack-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (tempDirs.length === 0) {
    process.once('exit', () => {
      for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  tempDirs.push(dir);
  return dir;
}

/**
 * Starts a server. `env` holds settings as environment variables (e.g.
 * TIMETRACK_LOGIN_MAX_FAILURES); `dbFile` reuses an existing database.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    dbFile?: string;
    timeouts?: ServerTimeouts;
    bcrypt?: StartOptions['bcrypt'];
    shortLists?: StartOptions['shortLists'];
    reportStreams?: StartOptions['reportStreams'];
  } = {},
): Promise<TestServer> {
  const dir = tempDir();
  const dbFile = options.dbFile ?? join(dir, 'test.db');
  const config = loadConfig(
    { port: 0, host: '127.0.0.1', db: dbFile },
    {
      TIMETRACK_ADMIN_PASSWORD: ADMIN.password,
      TIMETRACK_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      LOG_LEVEL: 'info',
      ...options.env,
    },
  );
  const logs: string[] = [];
  const running = await startServer(config, {
    log: createLogger(config.logLevel, (line) => logs.push(line)),
    announce: () => {},
    timeouts: options.timeouts,
    bcrypt: options.bcrypt,
    shortLists: options.shortLists,
    reportStreams: options.reportStreams,
  });
  const api = createApi(running.url);
  const adminToken = await api.login(ADMIN.username, ADMIN.password);
  return {
    url: running.url,
    dir,
    dbFile,
    running,
    api,
    logs,
    adminToken,
    close: () => running.close(),
  };
}

const hashCache = new Map<string, string>();

/** A bcrypt hash as clients send it ($2a$); cost 4 keeps tests fast (the API allows 04-14). */
export function bcryptHash(password: string): string {
  let hash = hashCache.get(password);
  if (!hash) {
    hash = bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2a$');
    hashCache.set(password, hash);
  }
  return hash;
}
