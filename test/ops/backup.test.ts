// Backups (SPEC §8): `timetrack admin backup` copies a live database while a server
// keeps writing; the copy is healthy, holds a prefix of the writes, and a server on it
// accepts tokens issued before the backup. A server stopped with SIGTERM during writes
// leaves every acknowledged write in the .db file alone.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertUserError, runCli, type ServeProcess, startServe } from '../helpers/cli';
import { startInstance, timeUuids, waitFor, writeTimes } from '../helpers/load';
import { tempDir } from '../helpers/server';

describe('timetrack admin backup', () => {
  it('copies a database while a server writes: healthy, a prefix, same data and tokens', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'live.db');
    const copy = join(dir, 'copy.db');
    const { server, token } = await startInstance(dbFile);
    let restored: ServeProcess | undefined;
    try {
      const acked: string[] = [];
      // ~2,000 creates, and always some after the backup has finished.
      let ackedWhenBackedUp = Number.POSITIVE_INFINITY;
      const writer = writeTimes(
        server.api,
        token,
        () => acked.length >= Math.max(2000, ackedWhenBackedUp + 20),
        (uuid) => acked.push(uuid),
      );
      await waitFor(() => acked.length >= 100);
      const ackedBefore = [...acked];
      const backup = await runCli(['admin', 'backup', copy, '--db', dbFile]);
      ackedWhenBackedUp = acked.length;
      await writer;
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /^Backed up .*live\.db to .*copy\.db \(\d+ bytes\)\n$/);
      assert.equal(existsSync(`${copy}-wal`), false, 'the copy is one self-contained file');

      const check = await runCli(['admin', 'check', '--db', copy]);
      assert.deepEqual([check.code, check.stdout], [0, 'ok\n']);

      const all = timeUuids(dbFile);
      const saved = timeUuids(copy);
      assert.equal(all.length, acked.length);
      assert.ok(saved.length < all.length, 'writes went on during the backup');
      assert.deepEqual(saved, all.slice(0, saved.length), 'the copy holds a prefix of the writes');
      const savedSet = new Set(saved);
      assert.ok(
        ackedBefore.every((uuid) => savedSet.has(uuid)),
        'every write acknowledged before the backup started is in it',
      );

      // A server on the copy answers with the same objects and accepts the old token.
      const listed = await server.api.get('/times', token);
      const expected = (listed.body as { uuid: string }[]).filter((t) => savedSet.has(t.uuid));
      restored = await startServe(copy);
      const fromCopy = await restored.api.get('/times', token);
      assert.equal(fromCopy.status, 200, fromCopy.text);
      assert.deepEqual(fromCopy.body, expected);
    } finally {
      await restored?.stop();
      await server.stop();
    }
  });

  it('refuses a target file that exists', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'a.db');
    const init = await runCli(['admin', 'create-user', 'someone', '--db', dbFile], {
      env: { TIMETRACK_ADMIN_PASSWORD: 'someone-password' },
    });
    assert.equal(init.code, 0, init.stderr);
    const first = await runCli(['admin', 'backup', join(dir, 'b.db'), '--db', dbFile]);
    assert.equal(first.code, 0, first.stderr);
    const size = statSync(join(dir, 'b.db')).size;
    assertUserError(
      await runCli(['admin', 'backup', join(dir, 'b.db'), '--db', dbFile]),
      /^timetrack: .*b\.db already exists; choose a new file\n$/,
    );
    assert.equal(statSync(join(dir, 'b.db')).size, size);
    assertUserError(
      await runCli(['admin', 'backup', join(dir, 'c.db'), '--db', join(dir, 'missing.db')]),
      /^timetrack: no database at .*missing\.db\n$/,
    );
    assert.equal(existsSync(join(dir, 'missing.db')), false, 'nothing created');
  });
});

describe('timetrack serve stopped with SIGTERM during writes', () => {
  it('leaves every acknowledged write in the .db file alone', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'live.db');
    const { server, token } = await startInstance(dbFile);
    const acked: string[] = [];
    let stopped: Promise<number | null> | undefined;
    const writer = writeTimes(
      server.api,
      token,
      () => false, // until the server goes away
      (uuid) => {
        acked.push(uuid);
        if (acked.length === 300) stopped = server.stop();
      },
    );
    await writer;
    assert.equal(await stopped, 0, server.stderr());
    assert.ok(acked.length >= 300);
    assert.ok(!existsSync(`${dbFile}-wal`) || statSync(`${dbFile}-wal`).size === 0, 'WAL folded');

    const alone = join(tempDir(), 'alone.db'); // no -wal or -shm beside it
    copyFileSync(dbFile, alone);
    const saved = new Set(timeUuids(alone));
    const missing = acked.filter((uuid) => !saved.has(uuid));
    assert.deepEqual(missing, []);
  });
});
