// Issue 19 item 6: another process (the CLI, a second server) holds the write lock. A
// write waits for it without freezing the server — /health and reads keep answering —
// and answers 503 with Retry-After when the lock does not come within the wait.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { WAITING_FOR_THE_WRITE_LOCK } from '../../src/db/open';
import { logLines, startTestServer, type TestServer } from '../helpers/server';

/** A second process that holds `BEGIN IMMEDIATE` on the file until release() is called. */
async function holdWriteLock(dbFile: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('better-sqlite3'))(process.argv[1]);
       db.exec('BEGIN IMMEDIATE');
       process.stdout.write('locked\\n');
       process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`,
      dbFile,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [first] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  assert.equal(first.toString(), 'locked\n');
  return {
    async release() {
      child.stdin?.write('go\n');
      await once(child, 'exit');
    },
  };
}

const activity = (slug: string) => ({ name: `Activity ${slug}`, slug });

describe('a write lock held by another process', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { TIMETRACK_LOCK_WAIT: '30' } });
  });
  after(() => server.close());

  it('keeps /health and reads answering while a write waits, then the write succeeds', async () => {
    const { api, adminToken } = server;
    const lock = await holdWriteLock(server.dbFile);
    let settled = false;
    const write = api.post('/activities', adminToken, activity('waited')).finally(() => {
      settled = true;
    });
    try {
      // Today's server froze here for the whole busy_timeout; now the loop is free.
      for (let i = 0; i < 3; i++) {
        const health = await api.raw('/health');
        assert.equal(health.status, 200);
        const list = await api.get('/activities', adminToken);
        assert.equal(list.status, 200);
      }
      assert.equal(settled, false, 'the write waits for the lock');
    } finally {
      await lock.release();
    }
    const res = await write;
    assert.equal(res.status, 200, res.text);
    assert.equal((res.body as { slug: string }).slug, 'waited');
    // The wait is in the log once, with the request's route and id (docs/operations.md).
    const waits = logLines(server).filter((line) => line.msg === WAITING_FOR_THE_WRITE_LOCK);
    assert.equal(waits.length, 1);
    assert.deepEqual(
      [waits[0]?.level, waits[0]?.method, waits[0]?.route, waits[0]?.id],
      ['info', 'POST', '/v0/activities', res.headers.get('x-request-id')],
    );
  });
});

describe('a write lock that does not come in time', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { TIMETRACK_LOCK_WAIT: '1' } });
  });
  after(() => server.close());

  it('answers 503 with Retry-After and writes nothing', async () => {
    const { api, adminToken } = server;
    const lock = await holdWriteLock(server.dbFile);
    try {
      const res = await api.post('/activities', adminToken, activity('refused'));
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, {
        status: 503,
        error: 'Service unavailable',
        text: 'The database is busy; try again shortly',
      });
      assert.equal(res.headers.get('retry-after'), '1');
    } finally {
      await lock.release();
    }
    const gone = await api.get('/activities/refused', adminToken);
    assert.equal(gone.status, 404);
    const later = await api.post('/activities', adminToken, activity('refused'));
    assert.equal(later.status, 200, later.text);
  });
});
