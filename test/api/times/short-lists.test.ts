// Short time lists read whole on the list worker threads (src/db/short-lists.ts): the same
// bytes as read on the event loop before a worker started, more lists at once than there
// are slots (which starts a second worker, and then the same bytes from both), two lists
// at a time on each worker with the rest waiting on the event loop's queue, a body
// larger than a slot, a write seen by the very next list, a worker that exits when no
// list comes and starts again with the next, and lists still waiting when the workers stop.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  LISTS_IN_FLIGHT,
  type ShortListEvent,
  SLOT_BYTES,
  SLOTS,
} from '../../../src/db/short-lists';
import type { Reply } from '../../helpers/api';
import { insertTimes } from '../../helpers/bulk';
import { createAdminProject } from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';

const ENTRIES = 1000; // one a day from 2020-01-01: the whole list is as long as a short one gets
const MONTHS = Array.from({ length: 32 }, (_, i) => {
  const first = new Date(Date.UTC(2020, i, 1));
  const last = new Date(Date.UTC(2020, i + 1, 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
});

/** The admin's `count` entries, one a day from 2020-01-01, in a project of their own. */
async function seed(server: TestServer, count = ENTRIES): Promise<void> {
  const { project, activity } = await createAdminProject(server);
  insertTimes(server.dbFile, {
    username: ADMIN.username,
    project,
    activity,
    count,
    duration: (i) => 60 * (1 + (i % 40)),
    createdAt: (i) => Date.UTC(2024, 0, 1) + ((i * 7919) % ENTRIES) * 1000, // not date order
    notes: (i) => `Entry ${i}: ${'ü'.repeat(60)}`, // beyond ASCII, and a body over a slot
  });
}

/**
 * `until(done)` resolves once `done()` holds, checked again after each `wake()` (called on
 * the workers' events and held answers): no polling, no sleeps.
 */
function conditions() {
  const waiters: (() => void)[] = [];
  return {
    wake: () => {
      for (const wake of waiters.splice(0)) wake();
    },
    until: async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/**
 * Holds the workers' answers (the `holdAnswers` option) from `hold()` until the function
 * it returns is called, their lists still in flight on their worker meanwhile. `count()`
 * is how many answers were held since `hold()`; each one held calls `wake`.
 */
function answerHolds(wake: () => void = () => {}) {
  let held: Promise<void> | undefined;
  let release = () => {};
  let count = 0;
  return {
    option: (): Promise<void> => {
      if (!held) return Promise.resolve();
      count += 1;
      wake();
      return held;
    },
    hold: () => {
      held = new Promise((resolve) => {
        release = resolve;
      });
      count = 0;
      return () => {
        held = undefined;
        release();
      };
    },
    count: () => count,
  };
}

describe('short lists on the list worker threads', { timeout: 60_000 }, () => {
  let server: TestServer;
  const events: ShortListEvent[] = [];
  const { wake: wakeAll, until } = conditions();
  const readies = () => events.filter((e) => e === 'ready').length;
  const ok = (res: Reply) => assert.equal(res.status, 200, res.text);
  const month = (m: { start: string; end: string }) =>
    server.api.get('/times', server.adminToken, { user: ADMIN.username, ...m });
  /** Months' lists as the event loop read them, before the worker was ready. */
  const before_: { month: (typeof MONTHS)[number]; reply: Reply }[] = [];

  const holds = answerHolds(wakeAll);
  const holdAnswers = holds.hold;

  before(async () => {
    server = await startTestServer({
      shortLists: {
        workers: 2,
        onEvent: (event: ShortListEvent) => {
          events.push(event);
          wakeAll();
        },
        holdAnswers: holds.option,
      },
    });
    await seed(server);
    // The first list starts the worker and is read on the event loop, as is every list
    // answered before the worker is ready.
    assert.equal(server.running.shortLists.state(), 'none');
    for (const m of MONTHS.slice(0, 4)) {
      const reply = await month(m);
      if (server.running.shortLists.state() !== 'running') before_.push({ month: m, reply });
    }
    assert.ok(before_.length > 0);
    await server.running.shortLists.warmUp();
    assert.equal(server.running.shortLists.state(), 'running');
  });
  after(() => server.close());

  it('answers the same bytes the event loop read', async () => {
    for (const { month: m, reply } of before_) {
      const now = await month(m);
      ok(now);
      assert.equal(now.text, reply.text);
      assert.equal(now.headers.get('x-total-count'), reply.headers.get('x-total-count'));
      assert.equal(Number(now.headers.get('x-total-count')), (now.body as unknown[]).length);
    }
  });

  it('answers more lists at once than it has slots, each whole and its own', async () => {
    assert.ok(MONTHS.length > SLOTS);
    const alone = [];
    for (const m of MONTHS) alone.push((await month(m)).text);
    // The worker's answers are held (its lists stay in flight) whatever the machine's pace:
    // a list asked meanwhile starts a second worker.
    let release = holdAnswers();
    const asked = Promise.all(MONTHS.map(month));
    await until(() => readies() === 2);
    release();
    const together = await asked;
    assert.deepEqual(
      together.map((r) => r.text),
      alone,
    );
    // With both ready, the first list goes to one and the next (the first still in flight)
    // to the other: both answer alike.
    release = holdAnswers();
    const askedOfBoth = Promise.all(MONTHS.map(month));
    await until(() => holds.count() >= 2);
    release();
    const onBoth = await askedOfBoth;
    assert.deepEqual(
      onBoth.map((r) => r.text),
      alone,
    );
    assert.ok(!events.includes('exited'), 'both still running');
    // Each is that month's entries, in list order (last change, then uuid).
    for (const [i, r] of together.entries()) {
      const times = r.body as { date_worked: string; created_at: string; uuid: string }[];
      for (const t of times)
        assert.ok(t.date_worked.startsWith(MONTHS[i]?.start.slice(0, 7) ?? ''));
    }
  });

  it('gives each worker two lists at a time; the rest wait for the first with room', async () => {
    const lists = MONTHS.slice(0, 6);
    const alone = [];
    for (const m of lists) alone.push((await month(m)).text);
    const shortLists = server.running.shortLists;
    const before = shortLists.counts();
    const release = holdAnswers();
    const asked = Promise.all(lists.map(month));
    // Two workers (a second starts if the first is alone and busy), each with its two
    // lists read and their answers held: the other two lists wait, on no worker yet.
    const inFlight = 2 * LISTS_IN_FLIGHT;
    await until(
      () => holds.count() >= inFlight && shortLists.waiting() === lists.length - inFlight,
    );
    assert.equal(shortLists.counts().worker - before.worker, inFlight);
    release();
    const answers = await asked;
    assert.deepEqual(
      answers.map((r) => r.text),
      alone,
    );
    assert.equal(shortLists.waiting(), 0);
    const after_ = shortLists.counts();
    assert.deepEqual(
      { worker: after_.worker - before.worker, eventLoop: after_.eventLoop - before.eventLoop },
      { worker: lists.length, eventLoop: 0 },
    );
  });

  it('answers a list whose body is larger than a slot, the same as its pages', async () => {
    const whole = await server.api.get('/times', server.adminToken, { user: ADMIN.username });
    ok(whole);
    assert.ok(Buffer.byteLength(whole.text) > SLOT_BYTES, `${Buffer.byteLength(whole.text)} bytes`);
    assert.equal(whole.headers.get('x-total-count'), String(ENTRIES));
    const pages = [];
    for (const skip of [0, 400, 800]) {
      const page = await server.api.get('/times', server.adminToken, {
        user: ADMIN.username,
        limit: 400,
        skip,
      });
      ok(page);
      pages.push(...(page.body as unknown[]));
    }
    assert.deepEqual(whole.body, pages);
  });

  it('shows a change in the very next list', async () => {
    const [first] = (await month(MONTHS[0] as { start: string; end: string })).body as {
      uuid: string;
    }[];
    assert.ok(first);
    const notes = `changed ${Date.now()}`;
    ok(await server.api.post(`/times/${first.uuid}`, server.adminToken, { notes }));
    const after_ = (await month(MONTHS[0] as { start: string; end: string })).body as {
      uuid: string;
      notes: string;
    }[];
    // Changed last: at the end of the list, with its new notes.
    assert.deepEqual(after_.at(-1), { ...after_.at(-1), uuid: first.uuid, notes });
  });

  it('was read on the worker, which never fell back', () => {
    assert.ok(!server.logs.some((line) => line.includes('short lists are read on the event loop')));
  });
});

// A guard against a hang if an awaited event never comes, not a timing assertion.
describe('the list worker thread with no lists to read', { timeout: 60_000 }, () => {
  it('exits, and the next short list starts it again', async (t) => {
    const counts: Record<ShortListEvent, number> = { ready: 0, exited: 0, waiting: 0 };
    const { wake, until } = conditions();
    const server = await startTestServer({
      shortLists: {
        idleExitMs: 50,
        onEvent: (event: ShortListEvent) => {
          counts[event] += 1;
          wake();
        },
      },
    });
    t.after(() => server.close());
    await seed(server, ENTRIES + 1);
    const list = () =>
      server.api.get('/times', server.adminToken, { user: ADMIN.username, ...MONTHS[0] });
    // A long list (more than 1,000 rows: paged and streamed) does not start it.
    const long = await server.api.get('/times', server.adminToken, { user: ADMIN.username });
    assert.equal(long.headers.get('x-total-count'), String(ENTRIES + 1));
    assert.equal(server.running.shortLists.state(), 'none', 'not started by a long list');
    const first = await list();
    assert.equal(first.status, 200, first.text);
    await until(() => counts.ready === 1);
    assert.equal(server.running.shortLists.state(), 'running');
    await until(() => counts.exited === 1);
    assert.equal(server.running.shortLists.state(), 'none', 'gone once idle');
    // The next list is answered (on the event loop) and starts the worker again.
    const second = await list();
    assert.equal(second.text, first.text);
    await until(() => counts.ready === 2);
    assert.equal((await list()).text, first.text);
    assert.ok(!server.logs.some((line) => line.includes('short lists are read on the event loop')));
  });
});

describe('short lists whose clients hung up before the answer', { timeout: 60_000 }, () => {
  let server: TestServer;
  const holds = answerHolds();
  const month = (m: { start: string; end: string }) =>
    server.api.get('/times', server.adminToken, { user: ADMIN.username, ...m });

  before(async () => {
    server = await startTestServer({
      // Every list in flight on the one worker at once, so that their slots are all held.
      shortLists: { workers: 1, inFlight: SLOTS, holdAnswers: holds.option },
    });
    await seed(server, 100);
    await month(MONTHS[0] as { start: string; end: string }); // starts the worker
    await server.running.shortLists.warmUp();
  });
  after(() => server.close());

  it('frees their slots: the lists after them are still read on the worker', async () => {
    // Each request is sent whole; its answer is held until its client has hung up. Such
    // answers' slots used to be kept for good (the response's close had come before them),
    // and once every slot was kept each list was read on the event loop.
    const release = holds.hold();
    const { hostname: host, port } = new URL(server.url);
    const token = encodeURIComponent(server.adminToken);
    const before_ = server.running.shortLists.counts();
    const sockets = await Promise.all(
      MONTHS.slice(0, SLOTS).map((m) => {
        const path = `/v0/times?user=${ADMIN.username}&start=${m.start}&end=${m.end}&token=${token}`;
        return new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), host, () => {
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
            resolve(socket);
          });
          socket.on('error', reject);
        });
      }),
    );
    const sent = () => server.running.shortLists.counts().worker - before_.worker;
    while (sent() < SLOTS) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(server.running.shortLists.counts().eventLoop, before_.eventLoop);
    for (const socket of sockets) socket.destroy();
    // The server has seen every client go before the answers come.
    const open = () =>
      new Promise<number>((resolve, reject) =>
        server.running.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
    while ((await open()) > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const settled = server.running.shortLists.counts();
    for (const m of MONTHS.slice(0, SLOTS)) {
      const res = await month(m);
      assert.equal(res.status, 200, res.text);
    }
    const now = server.running.shortLists.counts();
    assert.equal(now.eventLoop, settled.eventLoop, 'no list read on the event loop');
    assert.equal(now.worker - settled.worker, SLOTS);
  });
});

describe('short lists waiting for a worker when the workers stop', { timeout: 60_000 }, () => {
  it('are read on the event loop instead, each answered whole', async (t) => {
    let release = () => {};
    const { wake, until } = conditions();
    const holds = answerHolds(wake);
    const server = await startTestServer({
      shortLists: { workers: 1, onEvent: wake, holdAnswers: holds.option },
    });
    t.after(() => {
      release();
      return server.close();
    });
    await seed(server, 200);
    const month = (m: { start: string; end: string }) =>
      server.api.get('/times', server.adminToken, { user: ADMIN.username, ...m });
    const lists = MONTHS.slice(0, 5);
    const alone = [];
    for (const m of lists) alone.push((await month(m)).text);
    const shortLists = server.running.shortLists;
    await shortLists.warmUp();
    release = holds.hold();
    const asked = Promise.all(lists.map(month));
    const queued = lists.length - LISTS_IN_FLIGHT;
    await until(() => holds.count() >= LISTS_IN_FLIGHT && shortLists.waiting() === queued);
    const before_ = shortLists.counts();
    // The worker's answers are still held: the stop reads its lists and the queued ones.
    await shortLists.stop();
    const answers = await asked;
    assert.deepEqual(
      answers.map((r) => r.text),
      alone,
    );
    assert.equal(shortLists.waiting(), 0);
    assert.equal(shortLists.counts().eventLoop - before_.eventLoop, queued);
    assert.ok(!server.logs.some((line) => line.includes('short lists are read on the event loop')));
  });
});
