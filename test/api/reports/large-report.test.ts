// A large report does not hold the event loop (issue 30, item 6): three years of
// everyone's entries by day × user × activity (~200,000 entries, ~12 MB of JSON) is made
// off the event loop and streamed like a list. Meanwhile /health keeps answering, also
// before the report's head arrives (on the event loop it could not: the whole body was
// made first); its bytes are exactly those of its 72 half-months' reports put together
// (each small, made on the event loop), as JSON and as CSV; it takes a stream slot like a long
// list (none free: 503 with Retry-After) and is cut off when its client stops reading.
// The worker that makes it exits when idle and starts again for the next one.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { TextStreamEvent } from '../../../src/db/text-streams';
import type { Query } from '../../helpers/api';
import { insertSpreadTimes } from '../../helpers/bulk';
import { createActivity, createProject, createUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

const ENTRIES = 200_000;
const START = '2022-01-01';
const END = '2024-12-31';
const GROUP_BY = ['day', 'user', 'activity'];
const LARGE: Query = { start: START, end: END, group_by: GROUP_BY };
/** The stall limit: above the time the second report of the 503 test takes to be made. */
const STALL_SECONDS = 10;
const BUSY_BODY = {
  status: 503,
  error: 'Service unavailable',
  text: 'Too many lists are being streamed; try again shortly',
};

/**
 * The halves of each month from START to END (1–15, 16–end): small reports (~2,800
 * entries, at most 16 days × 17 users × 10 activities groups), made on the event loop.
 */
function halfMonths(): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  for (let y = 2022; y <= 2024; y++) {
    for (let m = 1; m <= 12; m++) {
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
      const month = `${y}-${String(m).padStart(2, '0')}`;
      out.push({ start: `${month}-01`, end: `${month}-15` });
      out.push({ start: `${month}-16`, end: `${month}-${last}` });
    }
  }
  return out;
}

interface Watched {
  status: number;
  contentLength: string | null;
  body: string;
  /** /health answers that came back before the report's head, and while its body came. */
  healthBeforeHead: number;
  healthDuringBody: number;
  healthStatuses: Set<number>;
  /** This process's RSS (server and client) before, and at most while it came, MB. */
  rssBefore: number;
  rssPeak: number;
}

describe('a report of three years of everyone by day × user × activity', () => {
  let server: TestServer;
  /** What the report worker did (it exits after 1 s without a report here). */
  const worker: TextStreamEvent[] = [];
  const workerWaiters: (() => void)[] = [];
  /** Resolves once `done()` holds, checked after each event of the worker; fails after 30 s. */
  const until = async (done: () => boolean, what: string) => {
    const giveUp = setTimeout(() => {
      for (const wake of workerWaiters.splice(0)) wake();
    }, 30_000);
    try {
      const start = Date.now();
      while (!done()) {
        assert.ok(Date.now() - start < 30_000, `${what}: the worker did ${worker.join(', ')}`);
        await new Promise<void>((resolve) => workerWaiters.push(resolve));
      }
    } finally {
      clearTimeout(giveUp);
    }
  };
  const url = (query: Query) => {
    const params = new URLSearchParams({ token: server.adminToken });
    for (const [key, value] of Object.entries(query)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
    }
    return `${server.url}/v0/reports?${params}`;
  };

  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_MAX_STREAMED_LISTS: '1', TIMETRACK_LIST_STALL_SECONDS: `${STALL_SECONDS}` },
      reportStreams: {
        idleExitMs: 1000,
        onEvent: (event) => {
          worker.push(event);
          for (const wake of workerWaiters.splice(0)) wake();
        },
      },
    });
    const users: string[] = [];
    for (let i = 0; i < 16; i++) users.push((await createUser(server)).username);
    const activities: string[] = [];
    for (let i = 0; i < 10; i++) activities.push((await createActivity(server)).slug);
    const projects: string[] = [];
    for (let i = 0; i < 5; i++) projects.push((await createProject(server)).slugs[0] as string);
    insertSpreadTimes(server.dbFile, {
      usernames: users,
      projects,
      activities,
      count: ENTRIES,
      start: START,
      days: 1096,
    });
    // The insert held the event loop for seconds: let the server close the keep-alive
    // connections that timed out meanwhile before the client picks one of them again.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
  after(() => server.close());

  /** GETs the report while asking /health again and again until the report has come. */
  async function watch(query: Query): Promise<Watched> {
    const rss = () => process.memoryUsage.rss() / 2 ** 20;
    const rssBefore = rss();
    let rssPeak = rssBefore;
    const healthStatuses = new Set<number>();
    let answered = 0;
    let done = false;
    const poll = (async () => {
      while (!done) {
        const res = await fetch(`${server.url}/health`);
        await res.text();
        healthStatuses.add(res.status);
        answered++;
        rssPeak = Math.max(rssPeak, rss());
      }
    })();
    try {
      const res = await fetch(url(query));
      const healthBeforeHead = answered;
      let body = '';
      const decoder = new TextDecoder();
      for await (const chunk of res.body as ReadableStream<Uint8Array>) {
        body += decoder.decode(chunk, { stream: true });
      }
      body += decoder.decode();
      return {
        status: res.status,
        contentLength: res.headers.get('content-length'),
        body,
        healthBeforeHead,
        healthDuringBody: answered - healthBeforeHead,
        healthStatuses,
        rssBefore,
        rssPeak,
      };
    } finally {
      done = true;
      await poll;
    }
  }

  const report = async (query: Query) => {
    const res = await server.api.raw(url(query).slice(server.url.length));
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return res;
  };

  it('is made off the event loop and streamed: /health answers all along, the bytes are its half-months put together', {
    timeout: 300_000,
  }, async (t) => {
    const large = await watch(LARGE);
    assert.equal(large.status, 200, large.body.slice(0, 300));
    assert.equal(large.contentLength, null); // streamed, not made whole first
    assert.deepEqual([...large.healthStatuses], [200]);
    // On the event loop the report held every request until its whole body was made.
    assert.ok(large.healthBeforeHead >= 5, `${large.healthBeforeHead} answers before its head`);
    assert.ok(large.healthDuringBody >= 1, `${large.healthDuringBody} answers during its body`);
    t.diagnostic(
      `${(large.body.length / 2 ** 20).toFixed(1)} MB; /health answered ${large.healthBeforeHead} times before its head, ${large.healthDuringBody} during its body; RSS of the test process ${large.rssBefore.toFixed(0)} → at most ${large.rssPeak.toFixed(0)} MB`,
    );

    // Grouped by day first, the report is its half-months' reports one after the other.
    const rows: unknown[] = [];
    const total = { duration: 0, entries: 0 };
    for (const half of halfMonths()) {
      const part = (await report({ ...half, group_by: GROUP_BY })).body as {
        rows: unknown[];
        total: typeof total;
      };
      rows.push(...part.rows);
      total.duration += part.total.duration;
      total.entries += part.total.entries;
    }
    assert.equal(total.entries, ENTRIES);
    const expected = JSON.stringify({ start: START, end: END, group_by: GROUP_BY, rows, total });
    assert.ok(large.body === expected, 'the streamed report differs from its half-months together');

    // Idle while the half-months (small) were made, the worker exits (after 1 s, however
    // fast they were made).
    await until(() => worker.includes('exited'), 'no exit once idle');
    const csv = await watch({ ...LARGE, format: 'csv' });
    const workerSoFar = [...worker];
    assert.equal(csv.status, 200);
    assert.equal(csv.contentLength, null);
    assert.deepEqual([...csv.healthStatuses], [200]);
    assert.ok(csv.healthBeforeHead >= 5, `${csv.healthBeforeHead} answers before its head`);
    let expectedCsv = '';
    for (const half of halfMonths()) {
      const text = (await report({ ...half, group_by: GROUP_BY, format: 'csv' })).text;
      const header = text.slice(0, text.indexOf('\r\n') + 2);
      expectedCsv += expectedCsv === '' ? text : text.slice(header.length);
    }
    assert.ok(csv.body === expectedCsv, 'the streamed CSV differs from its half-months together');
    // Exited once idle, the worker was started again by the CSV.
    assert.deepEqual(workerSoFar, ['ready', 'exited', 'ready']);
  });

  it('takes a stream slot: with none free another waits, then gets 503; a client that stops reading is cut off', {
    timeout: 300_000,
  }, async () => {
    const stalled = await rawGet(new URL(url(LARGE)));
    const head = await readHead(stalled);
    assert.match(head, /^HTTP\/1\.1 200 /);
    assert.match(head, /\r\ntransfer-encoding: chunked\r\n/i);

    const refused = await server.api.raw(url(LARGE).slice(server.url.length));
    assert.equal(refused.status, 503);
    assert.deepEqual(refused.body, BUSY_BODY);
    assert.equal(refused.headers.get('retry-after'), '2');
    // A report sent in one piece needs no slot.
    await report({ start: '2023-03-01', end: '2023-03-31', group_by: GROUP_BY });

    // Cut off once it has taken nothing for the stall limit: reset, its body unfinished.
    await logged(server, '"list stalled"', STALL_SECONDS * 3000);
    const rest = await readRest(stalled);
    assert.ok(!rest.endsWith('\r\n0\r\n\r\n'), 'the stalled client got the whole report');
    // Its slot is free again.
    const again = await server.api.raw(url({ ...LARGE, format: 'csv' }).slice(server.url.length));
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('content-length'), null);
  });
});

/** A GET of `target` on a connection of its own that reads nothing until told to. */
async function rawGet(target: URL): Promise<Socket> {
  const client = connect(Number(target.port), target.hostname);
  client.pause();
  client.on('error', () => {}); // the reset is what the test expects
  await once(client, 'connect');
  client.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`);
  return client;
}

/** The first bytes that arrive (the response head); then it reads nothing more. */
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
  const gone = new Promise<void>((resolve) => {
    if (client.closed) resolve();
    else client.once('close', () => resolve());
  });
  client.resume();
  await gone;
  return text;
}

/** Resolves once the server has logged a line holding `text`; fails after `ms`. */
async function logged(server: TestServer, text: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!server.logs.some((line) => line.includes(text))) {
    assert.ok(Date.now() < until, `no log line with ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
