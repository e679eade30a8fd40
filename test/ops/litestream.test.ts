// Continuous replication with the real Litestream (issue 18): `litestream replicate` to a
// file:// replica beside a real `timetrack serve` under write load. After kill -9 and the
// loss of the database, `litestream restore` gives back every entry acknowledged before
// the last sync, healthy and accepting the old tokens; `-timestamp` gives the state of a
// moment; server restarts under a running Litestream lose nothing and start no new
// generation. The figures (entries and time lost) are printed as test diagnostics and
// quoted in docs/operations.md.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import { runCli, type ServeProcess, startServe } from '../helpers/cli';
import { litestreamBinary, type Replication, startLitestream } from '../helpers/litestream';
import { startInstance, timeUuids, waitFor, writeTimes } from '../helpers/load';
import { tempDir } from '../helpers/server';

/** What an operator running Litestream sets (docs/operations.md). */
const WITH_LITESTREAM = { TIMETRACK_CHECKPOINT: 'litestream' };

const missing = litestreamBinary() === undefined;
if (missing && process.env.CI === 'true') {
  test('the Litestream binary is installed by npm ci in CI', () => {
    assert.fail('node_modules/@flydotio/litestream-linux-x64/litestream is missing');
  });
}

/** `admin check` is clean; on failure Litestream's log is shown too (litestream#582). */
const assertHealthy = async (dbFile: string, litestream?: Replication) => {
  const check = await runCli(['admin', 'check', '--db', dbFile]);
  assert.deepEqual(
    [check.code, check.stdout],
    [0, 'ok\n'],
    `${check.stderr}\n${litestream?.log() ?? ''}`,
  );
};

const killed = (server: ServeProcess) =>
  new Promise<void>((resolve) => {
    server.child.once('close', () => resolve());
    server.child.kill('SIGKILL');
  });

describe('Litestream beside timetrack serve', { skip: missing && 'no Litestream binary' }, () => {
  it('restores every entry acknowledged before the last sync after kill -9 and the loss of the database', async (t) => {
    const dir = tempDir();
    const dbFile = join(dir, 'live.db');
    const { server, token } = await startInstance(dbFile, WITH_LITESTREAM);
    const litestream = startLitestream(dbFile, join(dir, 'replica'));
    let restored: ServeProcess | undefined;
    try {
      const acked: { uuid: string; at: number }[] = [];
      const writer = writeTimes(
        server.api,
        token,
        () => false, // until the server is killed
        (uuid) => acked.push({ uuid, at: Date.now() }),
      );
      // Enough writes for several of Litestream's own checkpoints (every 1,000 WAL pages):
      // its write lock must not turn into errors. And a backup taken meanwhile is whole.
      await waitFor(() => acked.length >= 400);
      const copy = join(dir, 'copy.db');
      const backup = await runCli(['admin', 'backup', copy, '--db', dbFile]);
      assert.equal(backup.code, 0, backup.stderr);
      await assertHealthy(copy);
      await waitFor(() => acked.length >= 800);

      const since = Date.now();
      const ackedBeforeSync = acked.filter((a) => a.at < since).map((a) => a.uuid);
      await litestream.synced(since);
      // The crash comes some writes after that sync, not right at it.
      const synced = acked.length;
      await waitFor(() => acked.length >= synced + 200);
      // The machine dies: the server and Litestream at once, the database with them.
      await Promise.all([killed(server), litestream.kill()]);
      const killedAt = Date.now();
      await writer;
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });
      rmSync(join(dir, '.live.db-litestream'), { recursive: true, force: true });

      await litestream.restore(dbFile);
      await assertHealthy(dbFile, litestream);
      const saved = new Set(timeUuids(dbFile));
      assert.deepEqual(
        ackedBeforeSync.filter((uuid) => !saved.has(uuid)),
        [],
        'every entry acknowledged before the last sync is restored',
      );
      const lost = acked.filter((a) => !saved.has(a.uuid));
      const oldestLost = lost.length > 0 ? killedAt - Math.min(...lost.map((a) => a.at)) : 0;
      t.diagnostic(
        `RPO: ${acked.length} acknowledged, ${saved.size} restored, ${lost.length} lost; the oldest lost entry was acknowledged ${oldestLost} ms before the kill`,
      );

      // A server on the restored file accepts the token issued before, and serves it all.
      restored = await startServe(dbFile, WITH_LITESTREAM);
      const times = await restored.api.get('/times', token);
      assert.equal(times.status, 200, times.text);
      assert.equal((times.body as unknown[]).length, saved.size);
    } finally {
      await restored?.stop();
      await litestream.stop();
      server.child.kill('SIGKILL');
    }
  });

  it('restores the state of a moment with -timestamp', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'live.db');
    const { server, token } = await startInstance(dbFile, WITH_LITESTREAM);
    const litestream = startLitestream(dbFile, join(dir, 'replica'));
    try {
      const batch = async () => {
        const uuids: string[] = [];
        await writeTimes(
          server.api,
          token,
          () => uuids.length >= 50,
          (uuid) => uuids.push(uuid),
        );
        await litestream.synced(Date.now());
        return uuids;
      };
      const before = await batch();
      const moment = new Date().toISOString();
      const after = await batch();

      const asOfMoment = join(dir, 'moment.db');
      await litestream.restore(asOfMoment, moment);
      await assertHealthy(asOfMoment, litestream);
      assert.deepEqual(new Set(timeUuids(asOfMoment)), new Set(before));

      const latest = join(dir, 'latest.db');
      await litestream.restore(latest);
      assert.deepEqual(new Set(timeUuids(latest)), new Set([...before, ...after]));
    } finally {
      await litestream.stop();
      await server.stop();
    }
  });

  for (const checkpoint of ['auto', 'litestream']) {
    it(`keeps one generation and loses nothing while the server restarts (TIMETRACK_CHECKPOINT=${checkpoint})`, async () => {
      const dir = tempDir();
      const dbFile = join(dir, 'live.db');
      const env = { TIMETRACK_CHECKPOINT: checkpoint };
      const started = await startInstance(dbFile, env);
      let server = started.server;
      const litestream: Replication = startLitestream(dbFile, join(dir, 'replica'));
      try {
        const acked: string[] = [];
        for (let round = 0; round < 3; round++) {
          const target = acked.length + 150;
          await writeTimes(
            server.api,
            started.token,
            () => acked.length >= target,
            (uuid) => acked.push(uuid),
          );
          assert.equal(await server.stop(), 0, server.stderr());
          server = await startServe(dbFile, env);
        }
        await litestream.synced(Date.now());

        const restored = join(dir, 'restored.db');
        await litestream.restore(restored);
        await assertHealthy(restored, litestream);
        const saved = new Set(timeUuids(restored));
        assert.deepEqual(
          acked.filter((uuid) => !saved.has(uuid)),
          [],
        );
        assert.equal((await litestream.generations()).length, 1, litestream.log());
        assert.equal(litestream.log().match(/new generation/g)?.length, 1, litestream.log());
      } finally {
        await server.stop();
        await litestream.stop();
      }
    });
  }
});
