// Hardening, round 2 (issue 19, item 2): a client that asks for a long list and then
// reads nothing must not keep the response, a database reader, its snapshot (and so the
// WAL) or file descriptors for good. A response without progress is cut off after the
// stall limit, only so many lists stream at once (beyond that: a brief wait, then 503
// with Retry-After), the WAL shrinks again after checkpoints, and the database
// descriptors stay where they were however many streams come and go.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config';
import { JOURNAL_SIZE_LIMIT, openDatabase } from '../../src/db/open';
import type { Reply } from '../helpers/api';
import { insertTimes } from '../helpers/bulk';
import { createActivity, createProject, uniqueSlug } from '../helpers/factories';
import { ADMIN, logLines, startTestServer, type TestServer } from '../helpers/server';

/** Times in the long list: ~10 MB of JSON, twice what loopback socket buffers take in. */
const ROWS = 40_000;
const BUSY_BODY = {
  status: 503,
  error: 'Service unavailable',
  text: 'Too many lists are being streamed; try again shortly',
};

const ok = (res: Reply) => assert.equal(res.status, 200, res.text.slice(0, 300));

/** A project with ROWS times of the admin, written straight into the database file. */
async function seedLongList(server: TestServer): Promise<void> {
  const { slug: activity } = await createActivity(server);
  const project = (
    await createProject(server, {
      default_activity: activity,
      users: { [ADMIN.username]: { member: true } },
    })
  ).slugs[0] as string;
  const base = Date.UTC(2020, 0, 1);
  insertTimes(server.dbFile, {
    username: ADMIN.username,
    project,
    activity,
    count: ROWS,
    duration: (i) => i + 1,
    createdAt: (i) => base + i,
  });
}

/** The server's side of each connection, found by the client's port. */
function serverSides(http: Server) {
  const accepted = new Map<number, Socket>();
  const waiting = new Map<number, (socket: Socket) => void>();
  http.on('connection', (socket: Socket) => {
    const port = socket.remotePort;
    if (port === undefined) return;
    const take = waiting.get(port);
    if (take) {
      waiting.delete(port);
      take(socket);
      return;
    }
    accepted.set(port, socket);
    socket.once('close', () => {
      if (accepted.get(port) === socket) accepted.delete(port);
    });
  });
  return (client: Socket): Promise<Socket> =>
    new Promise((resolve) => {
      const port = client.localPort as number;
      const socket = accepted.get(port);
      if (socket) {
        accepted.delete(port);
        resolve(socket);
      } else {
        waiting.set(port, resolve);
      }
    });
}

/** Resolves when the socket has closed, whether it ended or was reset. */
const closed = (socket: Socket): Promise<void> =>
  new Promise((resolve) => {
    if (socket.closed) resolve();
    else socket.once('close', () => resolve());
  });

interface RawRequest {
  client: Socket;
  /** The server's side of the connection. */
  server: Promise<Socket>;
}

/**
 * Sends `count` pipelined GETs of `path` as the admin on a connection of its own, which
 * reads nothing unless told to (it is paused from the start).
 */
async function rawGet(
  server: TestServer,
  sideOf: ReturnType<typeof serverSides>,
  path: string,
  { count = 1, close = false } = {},
): Promise<RawRequest> {
  const client = connect(Number(new URL(server.url).port), '127.0.0.1');
  client.pause();
  client.on('error', () => {}); // a reset is what some tests expect
  await once(client, 'connect');
  const request =
    `GET /v0${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Authorization: Bearer ${server.adminToken}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
  client.write(request.repeat(count));
  return { client, server: sideOf(client) };
}

/** Reads the first bytes that arrive (the response head), then reads nothing more. */
function readHead(client: Socket): Promise<string> {
  return new Promise((resolve) => {
    client.once('data', (data: Buffer) => {
      client.pause();
      resolve(data.toString('latin1'));
    });
    client.resume();
  });
}

/** Everything the client can still read, until its connection closes (end or reset). */
async function readRest(client: Socket): Promise<string> {
  let text = '';
  client.on('data', (data: Buffer) => {
    text += data.toString('latin1');
  });
  const gone = closed(client);
  client.resume();
  await gone;
  return text;
}

/** Descriptors of this process (the server runs in it) open on the database file or its WAL/shm. */
function databaseDescriptors(file: string): number {
  const real = realpathSync(file);
  const names = new Set([real, `${real}-wal`, `${real}-shm`]);
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (names.has(readlinkSync(`/proc/self/fd/${fd}`))) count++;
    } catch {
      // closed while we looked
    }
  }
  return count;
}

/** `mib` transactions of 1 MiB each on a connection of this process's own. */
function writeBurst(file: string, mib: number): void {
  const db = openDatabase(file);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS burst (data BLOB)');
    const insert = db.prepare('INSERT INTO burst (data) VALUES (randomblob(1048576))');
    for (let i = 0; i < mib; i++) insert.run();
  } finally {
    db.close();
  }
}

async function assertWholeList(server: TestServer): Promise<void> {
  const res = await server.api.get('/times', server.adminToken);
  ok(res);
  assert.equal(res.headers.get('transfer-encoding'), 'chunked');
  assert.equal((res.body as unknown[]).length, Number(res.headers.get('x-total-count')));
  assert.ok((res.body as unknown[]).length >= ROWS);
}

describe('settings of streamed lists', () => {
  it('default to a 60 s stall limit and 8 streamed lists per CPU core', () => {
    const config = loadConfig({}, {});
    assert.equal(config.listStallSeconds, 60);
    assert.equal(config.maxStreamedLists, 8 * availableParallelism());
  });

  it('take whole numbers, and auto for the cap', () => {
    const env = { TIMETRACK_LIST_STALL_SECONDS: '5', TIMETRACK_MAX_STREAMED_LISTS: '3' };
    assert.equal(loadConfig({}, env).listStallSeconds, 5);
    assert.equal(loadConfig({}, env).maxStreamedLists, 3);
    const flags = { 'list-stall-seconds': '7', 'max-streamed-lists': 'AUTO' };
    assert.equal(loadConfig(flags, env).listStallSeconds, 7);
    assert.equal(loadConfig(flags, env).maxStreamedLists, 8 * availableParallelism());
  });

  it('refuse anything else with one line', () => {
    const refused = (env: Record<string, string>, message: string) =>
      assert.throws(
        () => loadConfig({}, env),
        (err: unknown) => err instanceof ConfigError && err.message === message,
      );
    refused(
      { TIMETRACK_LIST_STALL_SECONDS: '0' },
      "--list-stall-seconds / TIMETRACK_LIST_STALL_SECONDS must be a whole number from 1 to 86400, not '0'",
    );
    refused(
      { TIMETRACK_MAX_STREAMED_LISTS: '0' },
      "--max-streamed-lists / TIMETRACK_MAX_STREAMED_LISTS must be auto or a whole number from 1 to 100000, not '0'",
    );
    refused(
      { TIMETRACK_MAX_STREAMED_LISTS: 'many' },
      "--max-streamed-lists / TIMETRACK_MAX_STREAMED_LISTS must be auto or a whole number from 1 to 100000, not 'many'",
    );
  });
});

describe('a list whose client stops reading (one stream at a time, 3 s stall limit)', () => {
  let server: TestServer;
  let sideOf: ReturnType<typeof serverSides>;
  before(async () => {
    // The stall limit is well above the 1 s a list waits for a slot, so a list refused
    // for the cap is refused before the stalled stream is cut off.
    server = await startTestServer({
      env: { TIMETRACK_MAX_STREAMED_LISTS: '1', TIMETRACK_LIST_STALL_SECONDS: '3' },
    });
    sideOf = serverSides(server.running.server);
    await seedLongList(server);
  });
  after(() => server.close());

  it('limits the WAL of the server writer', () => {
    const limit = server.running.app.db.pragma('journal_size_limit', { simple: true });
    assert.equal(limit, JOURNAL_SIZE_LIMIT);
  });

  it('is cut off; its snapshot goes back and the WAL it held shrinks', {
    timeout: 60_000,
  }, async () => {
    const wal = `${server.dbFile}-wal`;
    const stalled = await rawGet(server, sideOf, '/times');
    const head = await readHead(stalled.client);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.match(head, /\r\ntransfer-encoding: chunked\r\n/i);
    const cut = closed(await stalled.server);

    // The stalled list's snapshot keeps every checkpoint behind it: the WAL grows.
    writeBurst(server.dbFile, 24);
    assert.ok(statSync(wal).size > JOURNAL_SIZE_LIMIT, `WAL of ${statSync(wal).size} bytes`);

    await cut; // by the server: the client has read nothing since the head
    const rest = await readRest(stalled.client);
    assert.ok(!rest.endsWith('\r\n0\r\n\r\n'), 'the stalled client got the whole list');

    // Its reader and slot are back (one stream at a time, so no 503)...
    await assertWholeList(server);
    // ...and nothing holds the old snapshot: a checkpoint gets through, the writer starts
    // the WAL over and cuts the file down to the limit.
    for (let i = 0; i < 5 && statSync(wal).size > JOURNAL_SIZE_LIMIT; i++) {
      ok(
        await server.api.post('/activities', server.adminToken, {
          name: `W ${i}`,
          slug: uniqueSlug('w'),
        }),
      );
    }
    assert.ok(statSync(wal).size <= JOURNAL_SIZE_LIMIT, `WAL of ${statSync(wal).size} bytes`);
  });

  it('holds the only slot: another long list waits, then gets 503 with Retry-After', {
    timeout: 60_000,
  }, async () => {
    const stalled = await rawGet(server, sideOf, '/times');
    await readHead(stalled.client);
    const cut = closed(await stalled.server);

    const refused = await server.api.get('/times', server.adminToken);
    assert.equal(refused.status, 503);
    assert.deepEqual(refused.body, BUSY_BODY);
    assert.equal(refused.headers.get('retry-after'), '2');

    // Lists sent whole need no slot: a short list, and a full page of 1,000.
    ok(await server.api.get('/activities', server.adminToken));
    const page = await server.api.get('/times', server.adminToken, { limit: 1000, skip: 5 });
    ok(page);
    assert.equal((page.body as unknown[]).length, 1000);

    // Once the stall limit has freed the slot, the long list is served again.
    await cut;
    await assertWholeList(server);
  });

  it('gives the slot of a client that leaves to the next list at once', {
    timeout: 60_000,
  }, async () => {
    const stalled = await rawGet(server, sideOf, '/times');
    await readHead(stalled.client);
    const next = server.api.get('/times', server.adminToken); // waits for the slot
    stalled.client.destroy();
    const res = await next;
    ok(res);
    assert.equal((res.body as unknown[]).length, Number(res.headers.get('x-total-count')));
  });
});

describe('database descriptors across 300 streams (two at a time, 1 s stall limit)', {
  skip: !existsSync('/proc/self/fd') && 'needs /proc/self/fd',
}, () => {
  const MAX = 2;
  let server: TestServer;
  let sideOf: ReturnType<typeof serverSides>;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_MAX_STREAMED_LISTS: String(MAX), TIMETRACK_LIST_STALL_SECONDS: '1' },
    });
    sideOf = serverSides(server.running.server);
    await seedLongList(server);
  });
  after(() => server.close());

  /** Sends every request, then waits until the server has closed every connection. */
  async function round(requests: Promise<RawRequest>[]): Promise<void> {
    const sent = await Promise.all(requests);
    await Promise.all(sent.map(async (r) => closed(await r.server)));
    for (const r of sent) r.client.destroy();
  }

  it('are as many after them as before', { timeout: 120_000 }, async () => {
    // The checkpoint worker's connection opens a moment after start-up: counted in both.
    await server.running.checkpointsStarted;
    const start = databaseDescriptors(server.dbFile);
    // The readers a server of MAX streams can ever need: MAX streams hold one each while
    // another list reads its first rows in one more.
    const holders = [0, 1].map(() => rawGet(server, sideOf, '/times'));
    for (const h of await Promise.all(holders)) await readHead(h.client);
    ok(await server.api.get('/times', server.adminToken, { limit: 1000 })); // a full page
    await round(holders);
    const baseline = databaseDescriptors(server.dbFile);
    assert.ok(
      baseline - start <= 2 * (MAX + 1),
      `${baseline - start} more descriptors for ${MAX + 1} readers (database and WAL each)`,
    );

    const logged = server.logs.length;
    // 200 long lists on connections of their own, all at once and none read; then 100
    // pipelined on one connection.
    for (let r = 0; r < 2; r++) {
      await round(
        Array.from({ length: 100 }, () => rawGet(server, sideOf, '/times', { close: true })),
      );
    }
    await round([rawGet(server, sideOf, '/times', { count: 100 })]);
    assert.equal(databaseDescriptors(server.dbFile), baseline);

    // Beyond MAX at once they were refused; the ones that streamed were cut off.
    const lines = logLines(server, logged);
    assert.ok(lines.some((l) => l.msg === 'request' && l.status === 503));
    assert.ok(lines.filter((l) => l.msg === 'list stalled').length >= 3);
    ok(await server.api.get('/times', server.adminToken, { limit: 5 }));
  });
});
