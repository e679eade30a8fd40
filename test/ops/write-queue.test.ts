// Writes grouped into one transaction (src/db/write-queue.ts): each settles after the
// COMMIT with its own result or error, and a failing write leaves nothing of itself.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, writeTransaction } from '../../src/db/open';
import { createWriteQueue } from '../../src/db/write-queue';
import { tempDir } from '../helpers/server';

function setUp() {
  const file = join(tempDir(), 'queue.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE) STRICT');
  const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
  const texts = () => db.prepare('SELECT text FROM notes ORDER BY id').pluck().all();
  return { file, db, queue: createWriteQueue(db), insert, texts };
}

describe('the write queue', () => {
  it('stores the writes of one turn together; a failing one gets its error and writes nothing', async () => {
    const { db, queue, insert, texts } = setUp();
    const results = await Promise.allSettled([
      queue.run(() => insert.run('a').lastInsertRowid),
      queue.run(() =>
        writeTransaction(db, () => {
          insert.run('half');
          throw new Error('refused after a first row');
        }),
      ),
      queue.run(() => insert.run('a')), // UNIQUE: fails inside SQLite
      queue.run(() => insert.run('b').changes),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.equal((results[1] as PromiseRejectedResult).reason.message, 'refused after a first row');
    assert.match(String((results[2] as PromiseRejectedResult).reason.code), /SQLITE_CONSTRAINT/);
    assert.equal((results[3] as PromiseFulfilledResult<number>).value, 1);
    assert.deepEqual(texts(), ['a', 'b']);
    assert.equal(db.inTransaction, false);
  });

  it('settles a write only once it is committed: another connection already sees it', async () => {
    const { file, queue, insert } = setUp();
    const other = openDatabase(file, { readonly: true });
    const count = other.prepare('SELECT count(*) FROM notes').pluck();
    const seen = await Promise.all(
      ['x', 'y', 'z'].map((t) => queue.run(() => insert.run(t)).then(() => count.get())),
    );
    assert.deepEqual(seen, [3, 3, 3]);
  });

  it('runs no write while held, and every write once released', async () => {
    const { queue, insert, texts } = setUp();
    let release = () => {};
    queue.hold(
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    const written = Promise.all([
      queue.run(() => insert.run('p')),
      queue.run(() => insert.run('q')),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(texts(), []);
    release();
    await written;
    assert.deepEqual(texts(), ['p', 'q']);
  });

  it('runs writes queued in a later turn in a transaction of their own', async () => {
    const { queue, insert, texts } = setUp();
    await queue.run(() => insert.run('first'));
    await assert.rejects(
      queue.run(() => insert.run('first')),
      /UNIQUE/,
    );
    await queue.run(() => insert.run('second'));
    assert.deepEqual(texts(), ['first', 'second']);
  });
});
