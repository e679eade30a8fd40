// `serve` folds the WAL into the database file from a worker thread of its own
// (src/db/checkpointer.ts), not in the COMMIT of a request: the writer's automatic
// checkpoint is only a backstop, and what is written still reaches the file.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { WRITER_CHECKPOINT_PAGES } from '../../src/db/checkpointer';
import { createActivity } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

describe('WAL checkpoints of a running server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('leaves the writer only a backstop checkpoint once the worker runs', async () => {
    // The worker starts a moment after start-up (CHECKPOINTER_DELAY_MS), not before the
    // first answers.
    await server.running.checkpointsStarted;
    assert.equal(
      server.running.app.db.pragma('wal_autocheckpoint', { simple: true }),
      WRITER_CHECKPOINT_PAGES,
    );
    assert.equal(WRITER_CHECKPOINT_PAGES, 4000);
  });

  it('copies every write into the database file without a request waiting for it', async () => {
    const before = await createActivity(server);
    for (let i = 0; i < 20; i++) await createActivity(server);
    const last = await createActivity(server);
    // The database file alone, without its WAL, holds them once the worker has copied them.
    const copy = join(server.dir, 'file-alone.db');
    const slugsInFile = () => {
      copyFileSync(server.dbFile, copy);
      const db = new Database(copy, { readonly: true });
      try {
        return db.prepare('SELECT slug FROM activities').pluck().all() as string[];
      } catch {
        return []; // not even the schema copied yet, or a copy taken in mid-checkpoint
      } finally {
        db.close();
      }
    };
    let slugs = slugsInFile();
    for (let waited = 0; !slugs.includes(last.slug) && waited < 10_000; waited += 50) {
      await sleep(50);
      slugs = slugsInFile();
    }
    assert.ok(slugs.includes(before.slug) && slugs.includes(last.slug));
    assert.deepEqual(
      server.logs.filter((l) => l.includes('checkpoint')),
      [],
    );
  });
});
