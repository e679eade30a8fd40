// Crash safety: `kill -9` the server in the middle of a write load, start it again:
// the database passes `PRAGMA integrity_check` and holds every write that was answered
// 200 before the kill (WAL + one transaction per write, SPEC §8).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Api } from '../helpers/api';
import { runCli, startServe } from '../helpers/cli';
import { ADMIN, tempDir } from '../helpers/server';

const ENV = {
  TIMETRACK_SECRET_KEY: 'crash-secret-key-that-is-long-enough-0123456789',
  TIMETRACK_ADMIN_PASSWORD: ADMIN.password,
};

interface Acknowledged {
  times: Map<string, number>; // uuid → duration
  revisions: Map<number, string>; // project revision → name
  roles: Set<string>;
}

/** Writes until `stop` is set; records every write answered 200. */
async function writeLoad(api: Api, token: string, ack: Acknowledged, stop: { now: boolean }) {
  let n = 0;
  const one = async (worker: number) => {
    while (!stop.now) {
      const i = n++;
      try {
        if (i % 3 === 0) {
          const res = await api.post('/times', token, {
            duration: 1000 + i,
            user: ADMIN.username,
            project: 'crash',
            activities: ['work'],
            date_worked: '2026-03-01',
            notes: `write ${i} by ${worker}`,
          });
          if (res.status === 200) ack.times.set(res.body.uuid, res.body.duration);
          else assert.fail(`time ${i}: ${res.status} ${res.text}`);
        } else if (i % 3 === 1) {
          const res = await api.post('/projects/crash', token, { name: `name ${i}` });
          if (res.status === 200) ack.revisions.set(res.body.revision, res.body.name);
          else assert.fail(`project ${i}: ${res.status} ${res.text}`);
        } else {
          const slug = `role-${i}`;
          const res = await api.post('/users/org-roles', token, { name: slug, slug });
          if (res.status === 200) ack.roles.add(slug);
          else assert.fail(`role ${i}: ${res.status} ${res.text}`);
        }
      } catch (err) {
        if (stop.now) return; // the connection died with the server: not acknowledged
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => one(w)));
}

describe('crash safety', () => {
  it('keeps every acknowledged write and a sound file after kill -9 during writes', async () => {
    const dbFile = join(tempDir(), 'crash.db');
    const first = await startServe(dbFile, ENV);
    const token = await first.api.login(ADMIN.username, ADMIN.password);
    assert.equal(
      (await first.api.post('/activities', token, { name: 'Work', slug: 'work' })).status,
      200,
    );
    const project = await first.api.post('/projects', token, {
      name: 'Crash',
      slugs: ['crash'],
      users: { [ADMIN.username]: { member: true } },
    });
    assert.equal(project.status, 200, project.text);

    const ack: Acknowledged = { times: new Map(), revisions: new Map(), roles: new Set() };
    const stop = { now: false };
    const load = writeLoad(first.api, token, ack, stop);
    const count = () => ack.times.size + ack.revisions.size + ack.roles.size;
    // Killed once more than 30 writes are acknowledged, however long they take (the load
    // keeps 8 more in flight); a load that fails first is reported by `await load`.
    let loadEnded = false;
    load.then(
      () => {
        loadEnded = true;
      },
      () => {
        loadEnded = true;
      },
    );
    const giveUp = Date.now() + 60_000;
    while (count() <= 30 && !loadEnded && Date.now() < giveUp) await sleep(10);
    const exited = new Promise((resolve) => first.child.once('close', resolve));
    first.child.kill('SIGKILL');
    stop.now = true;
    await exited;
    await load;
    const acknowledged = count();
    assert.ok(acknowledged > 30, `only ${acknowledged} writes before the kill`);

    const db = new Database(dbFile);
    try {
      assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }

    const second = await startServe(dbFile, ENV);
    try {
      const again = await second.api.login(ADMIN.username, ADMIN.password);
      for (const [uuid, duration] of ack.times) {
        const res = await second.api.get(`/times/${uuid}`, again);
        assert.equal(res.status, 200, `time ${uuid} lost: ${res.text}`);
        assert.equal(res.body.duration, duration);
      }
      const res = await second.api.get('/projects/crash', again, { include_revisions: true });
      const names = new Map<number, string>([
        [res.body.revision, res.body.name],
        ...res.body.parents.map((p: { revision: number; name: string }) => [p.revision, p.name]),
      ]);
      assert.deepEqual(
        [...names.keys()].sort((x, y) => x - y),
        Array.from({ length: names.size }, (_, i) => i + 1),
        'revisions without gaps',
      );
      for (const [revision, name] of ack.revisions) assert.equal(names.get(revision), name);
      for (const slug of ack.roles) {
        assert.equal((await second.api.get(`/users/org-roles/${slug}`, again)).status, 200, slug);
      }
    } finally {
      await second.stop();
    }
    const check = await runCli(['admin', 'check', '--db', dbFile]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });
});
