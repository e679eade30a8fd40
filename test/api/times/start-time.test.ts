// The optional start time of a time entry (issue 31, section 1): `HH:MM:SS` or null,
// accepted on create and update, shown by every read (one entry, the lists over both of
// their paths, revisions, history, CSV), refused with the exact kind 4 text, kept by
// export and import, and null on every entry of a database upgraded from before it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { migrate } from '../../../src/db/migrate';
import { readMigrationsFrom } from '../../../src/embedded';
import type { Query, Reply } from '../../helpers/api';
import { runCli } from '../../helpers/cli';
import { badObjectBody } from '../../helpers/errors';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { ADMIN, bcryptHash, startTestServer, type TestServer, tempDir } from '../../helpers/server';

type Time = Record<string, any> & { uuid: string; start_time: string | null };

let server: TestServer;
let owner: TestUser;
let project: string;
let activity: string;

before(async () => {
  server = await startTestServer({ env: { TIMETRACK_WEB: 'false' } });
  owner = await createUser(server);
  activity = (await createActivity(server)).slug;
  project = (
    await createProject(server, {
      users: { [owner.username]: { member: true } },
      default_activity: activity,
    })
  ).slugs[0] as string;
});
after(() => server.close());

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const create = (object: Record<string, unknown>) =>
  server.api.post<Time>('/times', owner.token, {
    duration: 1800,
    user: owner.username,
    project,
    date_worked: '2026-03-02',
    ...object,
  });
const update = (uuid: string, object: Record<string, unknown>) =>
  server.api.post<Time>(`/times/${uuid}`, owner.token, object);
const get = async (uuid: string, query: Record<string, string> = {}) =>
  ok(await server.api.get<Time>(`/times/${uuid}`, owner.token, query));

/** The entry as each list shows it: by user (time_user_rows) and by project (times). */
async function listed(uuid: string): Promise<Time[]> {
  const shown: Time[] = [];
  for (const query of [{ user: owner.username }, { project }, {}] as Query[]) {
    const list = ok(await server.api.get<Time[]>('/times', owner.token, query));
    const time = list.find((t) => t.uuid === uuid);
    assert.ok(time, JSON.stringify(query));
    shown.push(time);
  }
  return shown;
}

describe('start_time on time entries', () => {
  it('is null unless sent, so a TimeSync client sees the field it never sends as null', async () => {
    const time = ok(await create({}));
    assert.equal(time.start_time, null);
    assert.deepEqual(await get(time.uuid), time);
    for (const shown of await listed(time.uuid)) assert.deepEqual(shown, time);
  });

  it('is kept as sent on create and shown by GET and every list alike', async () => {
    for (const start_time of ['00:00:00', '09:30:15', '23:59:59']) {
      const time = ok(await create({ start_time }));
      assert.equal(time.start_time, start_time);
      assert.deepEqual(await get(time.uuid), time);
      for (const shown of await listed(time.uuid)) assert.deepEqual(shown, time);
    }
    const cleared = ok(await create({ start_time: '' }));
    assert.equal(cleared.start_time, null, "'' is null, as web forms send an empty field");
  });

  it('changes on update, is kept when not sent, and is cleared by null or ""', async () => {
    const time = ok(await create({ start_time: '08:00:00' }));
    const moved = ok(await update(time.uuid, { start_time: '13:45:00' }));
    assert.deepEqual([moved.revision, moved.start_time], [2, '13:45:00']);
    const kept = ok(await update(time.uuid, { notes: 'after lunch' }));
    assert.deepEqual([kept.revision, kept.start_time], [3, '13:45:00']);
    const cleared = ok(await update(time.uuid, { start_time: null }));
    assert.deepEqual([cleared.revision, cleared.start_time], [4, null]);
    const again = ok(await update(time.uuid, { start_time: '07:00:00' }));
    const emptied = ok(await update(time.uuid, { start_time: '' }));
    assert.deepEqual([again.start_time, emptied.start_time], ['07:00:00', null]);
    for (const shown of await listed(time.uuid)) assert.deepEqual(shown, emptied);
  });

  it('is kept in each revision: include_revisions and the history show it as it was', async () => {
    const time = ok(await create({ start_time: '10:00:00' }));
    ok(await update(time.uuid, { start_time: '11:00:00' }));
    ok(await update(time.uuid, { start_time: null, duration: 60 }));
    const withParents = await get(time.uuid, { include_revisions: 'true' });
    assert.equal(withParents.start_time, null);
    assert.deepEqual(
      (withParents.parents as Time[]).map((p) => [p.revision, p.start_time]),
      [
        [2, '11:00:00'],
        [1, '10:00:00'],
      ],
    );
    const history = ok(await server.api.get<Time[]>(`/times/${time.uuid}/history`, owner.token));
    assert.deepEqual(
      history.map((r) => [r.revision, r.start_time]),
      [
        [3, null],
        [2, '11:00:00'],
        [1, '10:00:00'],
      ],
    );
  });

  it('refuses anything but HH:MM:SS with kind 4, on create and update, writing nothing', async () => {
    const time = ok(await create({ start_time: '06:00:00' }));
    const countBefore = ok(await server.api.get<Time[]>('/times', owner.token)).length;
    const cases: [unknown, string][] = [
      ['9:30:00', 'string'],
      ['09:30', 'string'],
      ['09:30:00.000', 'string'],
      ['24:00:00', 'string'],
      ['23:60:00', 'string'],
      ['12:00:60', 'string'],
      [' 09:30:00', 'string'],
      ['2026-03-02T09:30:00Z', 'string'],
      [930, 'number'],
      [true, 'boolean'],
      [['09:30:00'], 'array'],
      [{ h: 9 }, 'object'],
    ];
    for (const [start_time, type] of cases) {
      const expected = badObjectBody(
        `Field start_time of time should be a time of day but was sent as ${type}`,
      );
      const created = await create({ start_time });
      assert.deepEqual([created.status, created.body], [400, expected], String(start_time));
      const updated = await update(time.uuid, { start_time });
      assert.deepEqual([updated.status, updated.body], [400, expected], String(start_time));
    }
    assert.equal(ok(await server.api.get<Time[]>('/times', owner.token)).length, countBefore);
    const unchanged = await get(time.uuid);
    assert.deepEqual([unchanged.revision, unchanged.start_time], [1, '06:00:00']);
  });

  it('is the last column of the CSV list', async () => {
    const time = ok(await create({ start_time: '14:05:00', date_worked: '2026-04-07' }));
    const other = ok(await create({ date_worked: '2026-04-07' }));
    const res = await server.api.get('/times', owner.token, {
      user: owner.username,
      start: '2026-04-07',
      end: '2026-04-07',
      format: 'csv',
    });
    assert.equal(res.status, 200, res.text);
    const [header, ...rows] = parse(res.text, { record_delimiter: '\r\n' }) as string[][];
    assert.equal(header?.at(-1), 'start_time');
    const cells = new Map(rows.map((r) => [r[0], r.at(-1)]));
    assert.deepEqual([cells.get(time.uuid), cells.get(other.uuid)], ['14:05:00', '']);
  });

  it('leaves `admin check` clean after all these writes', async () => {
    const res = await runCli(['admin', 'check', '--db', server.dbFile]);
    assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('is kept by admin export and import, revisions included', async () => {
    const time = ok(await create({ start_time: '16:20:00' }));
    ok(await update(time.uuid, { start_time: '16:25:00' }));
    const before = ok(
      await server.api.get('/times', owner.token, {
        user: owner.username,
        include_revisions: 'true',
      }),
    );
    const dir = tempDir();
    const exported = join(dir, 'export.jsonl');
    const target = join(dir, 'restored.db');
    const out = await runCli(['admin', 'export', '--db', server.dbFile, '--output', exported]);
    assert.equal(out.code, 0, out.stderr);
    const back = await runCli(['admin', 'import', exported, '--db', target]);
    assert.equal(back.code, 0, back.stderr);
    // The same signing key (the test servers' setting), so owner's token still works.
    const restored = await startTestServer({ dbFile: target, env: { TIMETRACK_WEB: 'false' } });
    try {
      const res = await restored.api.get('/times', owner.token, {
        user: owner.username,
        include_revisions: 'true',
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, before);
      const mine = (res.body as Time[]).find((t) => t.uuid === time.uuid);
      assert.deepEqual(
        [mine?.start_time, mine?.parents?.[0]?.start_time],
        ['16:25:00', '16:20:00'],
      );
    } finally {
      await restored.close();
    }
    const check = await runCli(['admin', 'check', '--db', target]);
    assert.deepEqual(check, { code: 0, stdout: 'ok\n', stderr: '' });
  });
});

describe('a database upgraded from the schema before start_time', () => {
  const MIGRATIONS = readMigrationsFrom(join(__dirname, '..', '..', '..', 'sql'));
  const START_TIME = MIGRATIONS.find((m) => m.name.endsWith('_time_start_and_user_timezone'));
  const previous = Math.max(
    ...MIGRATIONS.filter((m) => m.version < (START_TIME?.version ?? 0)).map((m) => m.version),
  );
  const UUID = 'c0000031-0000-4000-8000-000000000001';
  let upgraded: TestServer;

  before(async () => {
    assert.ok(START_TIME, 'the migration of start_time is in sql/');
    const dbFile = join(tempDir(), 'before-start-time.db');
    const db = new Database(dbFile);
    try {
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= previous),
      );
      const at = Date.parse('2025-06-02T10:00:00.000Z');
      db.exec(`
        INSERT INTO users (id, username, password_hash, site_admin, created_at)
          VALUES (1, '${ADMIN.username}', '${bcryptHash(ADMIN.password)}', 1, ${at}),
            (7, 'olga', NULL, 0, ${at});
        INSERT INTO activities (id, uuid, revision, name, slug, created_at)
          VALUES (1, 'a0000031-0000-4000-8000-000000000001', 1, 'Dev', 'dev', ${at});
        INSERT INTO projects (id, uuid, revision, name, created_at)
          VALUES (1, 'b0000031-0000-4000-8000-000000000001', 1, 'Old', ${at});
        INSERT INTO project_slugs (project_id, position, slug) VALUES (1, 0, 'old');
        INSERT INTO times (id, uuid, revision, duration, user_id, project_id, date_worked,
          notes, created_at, updated_at)
          VALUES (1, '${UUID}', 2, 600, 7, 1, '2025-06-02', 'from before', ${at}, ${at + 1000});
        INSERT INTO time_activities (time_id, activity_id) VALUES (1, 1);
        INSERT INTO time_revisions (time_id, revision, duration, user_id, project_id,
          date_worked, activity_ids, created_at) VALUES (1, 1, 300, 7, 1, '2025-06-01', '[1]', ${at});
      `);
    } finally {
      db.close();
    }
    upgraded = await startTestServer({ dbFile, env: { TIMETRACK_WEB: 'false' } });
  });
  after(() => upgraded?.close());

  it('shows every existing entry and revision with start_time null, and `admin check` is clean', async () => {
    const admin = upgraded.adminToken;
    const one = ok(
      await upgraded.api.get<Time>(`/times/${UUID}`, admin, { include_revisions: 'true' }),
    );
    assert.deepEqual(
      [one.start_time, one.notes, (one.parents as Time[]).map((p) => p.start_time)],
      [null, 'from before', [null]],
    );
    const { parents: _parents, ...current } = one;
    for (const query of [{ user: 'olga' }, { project: 'old' }] as Query[]) {
      assert.deepEqual(ok(await upgraded.api.get<Time[]>('/times', admin, query)), [current]);
    }
    const res = await runCli(['admin', 'check', '--db', upgraded.dbFile]);
    assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
  });

  it('takes a start time on an existing entry, and stays clean', async () => {
    const admin = upgraded.adminToken;
    const changed = ok(
      await upgraded.api.post<Time>(`/times/${UUID}`, admin, { start_time: '08:15:00' }),
    );
    assert.deepEqual([changed.revision, changed.start_time], [3, '08:15:00']);
    const listed = ok(await upgraded.api.get<Time[]>('/times', admin, { user: 'olga' }));
    assert.deepEqual(listed, [changed]);
    const res = await runCli(['admin', 'check', '--db', upgraded.dbFile]);
    assert.deepEqual(res, { code: 0, stdout: 'ok\n', stderr: '' });
  });
});
