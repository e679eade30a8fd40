// A `timetrack serve` process with an activity and a project to write time entries to,
// and a write load of parallel clients that records what the server acknowledged: for
// the suites that stop, kill, back up or replicate a server under load.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { Api, Reply } from './api';
import { startServe } from './cli';

export const ADMIN_PASSWORD = 'backup-admin-password';

/** A server on a new database; its signing key is generated into the database. */
export async function startInstance(dbFile: string, env: Record<string, string> = {}) {
  const server = await startServe(dbFile, { TIMETRACK_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env });
  const token = await server.api.login('admin', ADMIN_PASSWORD);
  const ok = async (p: Promise<{ status: number; text: string }>) => {
    const r = await p;
    assert.equal(r.status, 200, r.text);
  };
  await ok(server.api.post('/activities', token, { name: 'Work', slug: 'work' }));
  await ok(
    server.api.post('/projects', token, {
      name: 'Load',
      slugs: ['load'],
      default_activity: 'work',
      users: { admin: { member: true } },
    }),
  );
  return { server, token };
}

/**
 * Creates time entries from `concurrency` parallel clients until `stop()` says so or the
 * server goes away; every uuid the server acknowledged (200) is passed to `acked`.
 */
export async function writeTimes(
  api: Api,
  token: string,
  stop: () => boolean,
  acked: (uuid: string) => void,
  concurrency = 8,
): Promise<void> {
  let n = 0;
  const client = async () => {
    while (!stop()) {
      let res: Reply<{ uuid: string }>;
      try {
        res = await api.post('/times', token, {
          duration: ++n,
          user: 'admin',
          project: 'load',
          date_worked: '2024-03-01',
        });
      } catch {
        return; // the server stopped listening
      }
      if (res.status !== 200) return;
      acked(res.body.uuid);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
}

/** Time uuids in the order they were committed (ids are assigned in commit order). */
export function timeUuids(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT uuid FROM times ORDER BY id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

export const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
};
