// `timetrack admin export` / `admin import` (SPEC §8.1): the whole instance as JSON
// lines; import into an empty database only; export → import → export is identical.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config';
import { migrations } from '../../src/embedded';
import { createLogger } from '../../src/log';
import { type RunningServer, startServer } from '../../src/server';
import { createApi } from '../helpers/api';
import { assertUserError, runCli } from '../helpers/cli';
import { bcryptHash, tempDir } from '../helpers/server';
import { createTimesyncNodeDatabase } from '../helpers/timesync-node';

/** A server on an existing database whose signing key lives in the database. */
async function serveFile(db: string): Promise<RunningServer> {
  const config = loadConfig({ port: 0, host: '127.0.0.1', db }, {});
  return startServer(config, { log: createLogger('error', () => {}), announce: () => {} });
}

/** The newest migration in sql/: the schema version an export says it is from. */
const SCHEMA = Math.max(...migrations().map((m) => m.version));

const TABLE_ORDER = [
  'settings',
  'users',
  'org_roles',
  'user_org_roles',
  'activities',
  'activity_revisions',
  'projects',
  'project_slugs',
  'project_revisions',
  'project_users',
  'times',
  'time_activities',
  'time_revisions',
];

describe('timetrack admin export and import', () => {
  const dir = tempDir();
  const source = join(dir, 'source.db');
  const exported = join(dir, 'export.jsonl');
  let token: string;
  let timesBefore: unknown;

  before(async () => {
    // Every kind of row: migrated history and deleted objects, plus writes through the
    // API (changed_by set, org roles, a new revision, a restore).
    const res = await runCli([
      'migrate-from-timesync-node',
      createTimesyncNodeDatabase(dir),
      '--db',
      source,
    ]);
    assert.equal(res.code, 0, res.stderr);
    const running = await serveFile(source);
    try {
      const api = createApi(running.url);
      token = await api.login('oldadmin', 'old-admin-pass');
      const ok = async (p: Promise<{ status: number; text: string }>) => {
        const r = await p;
        assert.equal(r.status, 200, r.text);
      };
      await ok(api.post('/users/org-roles', token, { name: 'Engineering', slug: 'eng' }));
      await ok(
        api.post('/users', token, {
          username: 'newbie',
          password: bcryptHash('newbie-pass'),
          'org-roles': ['eng'],
        }),
      );
      await ok(api.post('/activities/docs', token, { name: 'Docs' }));
      await ok(
        api.post('/projects/pgd', token, {
          users: {
            oldadmin: { member: true },
            newbie: { member: true },
            dev2: { member: true, manager: true },
          },
        }),
      );
      const time = await api.post('/times', token, {
        duration: 120,
        user: 'oldadmin',
        project: 'pgd',
        activities: ['docs'],
        date_worked: '2024-02-29',
        notes: 'ünïcödé "quoted" \\ line\nbreak',
      });
      await ok(Promise.resolve(time));
      await ok(api.post(`/times/${time.body.uuid}`, token, { duration: 180 }));
      timesBefore = (
        await api.get('/times', token, { include_deleted: true, include_revisions: true })
      ).body;
    } finally {
      await running.close();
    }
  });

  it('writes a header, then every table in a fixed order with raw stored values', async () => {
    const res = await runCli(['admin', 'export', '--db', source, '--output', exported]);
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    assert.deepEqual(res, {
      code: 0,
      stdout: `Exported ${lines.length - 1} rows to ${exported}\n`,
      stderr: '',
    });
    assert.equal(lines[0], `{"format":"timetrack-export","version":1,"schema":${SCHEMA}}`);
    const rows = lines.slice(1).map((l) => JSON.parse(l) as { table: string; row: any });
    const tables = [...new Set(rows.map((r) => r.table))];
    assert.deepEqual(tables, TABLE_ORDER, 'every table, in dependency order');
    const user = rows.find((r) => r.table === 'users' && r.row.username === 'Dev1')?.row;
    assert.deepEqual(Object.keys(user), [
      'id',
      'username',
      'display_name',
      'password_hash',
      'email',
      'meta',
      'site_spectator',
      'site_manager',
      'site_admin',
      'active',
      'created_at',
      'updated_at',
      'deleted_at',
      'tokens_valid_after',
      'kept_token_iat',
      'timezone',
    ]);
    assert.equal(
      user.password_hash,
      '$2a$10$EX5YLvB8RXkq7TYbNHrFwuhjHYrKYcV34BrBOyfkkUfQOpfmRDkxC',
    );
    assert.equal(user.created_at, 1451898000000, 'dates to the millisecond');
    const revised = rows.find((r) => r.table === 'time_revisions' && r.row.duration === 120)?.row;
    assert.equal(typeof revised.changed_by, 'number', 'who made each revision');
    assert.ok(rows.some((r) => r.table === 'settings' && r.row.key === 'secret_key'));
  });

  it('imports into an empty database; the result exports byte for byte the same', async () => {
    const target = join(dir, 'restored.db');
    const res = await runCli(['admin', 'import', exported, '--db', target]);
    const rows = readFileSync(exported, 'utf8').trimEnd().split('\n').length - 1;
    assert.deepEqual(res, {
      code: 0,
      stdout: `Imported ${rows} rows from ${exported} into ${target}\n`,
      stderr: '',
    });
    const again = await runCli(['admin', 'export', '--db', target]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, readFileSync(exported, 'utf8'));

    // The imported instance serves the same data and accepts the old tokens.
    const running = await serveFile(target);
    try {
      const api = createApi(running.url);
      const times = await api.get('/times', token, {
        include_deleted: true,
        include_revisions: true,
      });
      assert.equal(times.status, 200, times.text);
      assert.deepEqual(times.body, timesBefore);
      await api.login('newbie', 'newbie-pass');
    } finally {
      await running.close();
    }
  });

  it('leaves out a URI the API would refuse, naming each one, and imports the rest', async () => {
    const EVIL = 'javascript:alert(document.domain)';
    const why = 'is not an http or https URI of at most 2048 characters';
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    const edits: string[] = [];
    /** Sets a column of the first row of `table` that has it set (or any row); answers its line. */
    const set = (table: string, column: string, value: string) => {
      const rows = lines.map((l, i) => [i, JSON.parse(l)] as const);
      const found =
        rows.find(([, l]) => l.table === table && l.row[column]) ??
        rows.find(([, l]) => l.table === table);
      const [i, line] = found as readonly [number, { row: Record<string, unknown> }];
      line.row[column] = value;
      lines[i] = JSON.stringify(line);
      edits.push(`line ${i + 1} (${table}${line.row.uuid ? ` ${line.row.uuid}` : ''})`);
    };
    set('projects', 'uri', EVIL);
    set('project_revisions', 'uri', 'data:text/html,<b>x</b>');
    set('times', 'issue_uri', EVIL);
    set('time_revisions', 'issue_uri', '/relative/path');
    lines.push(
      JSON.stringify({
        table: 'timers',
        row: {
          user_id: 1,
          project_id: 1,
          activity_ids: '[]',
          notes: null,
          issue_uri: 'vbscript:x',
          date_worked: '2024-01-01',
          started_at: 0,
        },
      }),
    );
    edits.push(`line ${lines.length} (timers)`);
    const file = join(dir, 'with-links.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const target = join(dir, 'with-links.db');
    const res = await runCli(['admin', 'import', file, '--db', target]);
    assert.deepEqual(res, {
      code: 0,
      stdout: [
        `Imported ${lines.length - 1} rows from ${file} into ${target}`,
        'Left out (set to null) 5 URIs the API would refuse:',
        `  - ${edits[0]}: uri "${EVIL}" ${why}`,
        `  - ${edits[1]}: uri "data:text/html,<b>x</b>" ${why}`,
        `  - ${edits[2]}: issue_uri "${EVIL}" ${why}`,
        `  - ${edits[3]}: issue_uri "/relative/path" ${why}`,
        `  - ${edits[4]}: issue_uri "vbscript:x" ${why}`,
        '',
      ].join('\n'),
      stderr: '',
    });
    // Every other value as it was; the five are null; admin check is satisfied.
    const again = (await runCli(['admin', 'export', '--db', target])).stdout.trimEnd().split('\n');
    const differing = again.filter((l, i) => l !== lines[i]).map((l) => JSON.parse(l).row);
    assert.equal(differing.length, 5);
    for (const row of differing) assert.equal('uri' in row ? row.uri : row.issue_uri, null);
    assert.deepEqual(await runCli(['admin', 'check', '--db', target]), {
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });

  it('refuses a database that is not empty, writing nothing', async () => {
    const target = join(dir, 'restored.db'); // filled by the previous test
    const res = await runCli(['admin', 'import', exported, '--db', target]);
    assertUserError(
      res,
      /^timetrack: .*restored\.db is not empty \(table settings has rows\); use a new database file\n$/,
    );
    assert.equal(
      (await runCli(['admin', 'export', '--db', target])).stdout,
      readFileSync(exported, 'utf8'),
    );
  });

  it('refuses a file that is not an export or is from a newer timetrack, and rolls back a bad row', async () => {
    const notExport = join(dir, 'not-export.jsonl');
    writeFileSync(notExport, '{"hello":"world"}\n');
    assertUserError(
      await runCli(['admin', 'import', notExport, '--db', join(dir, 'never.db')]),
      /is not a timetrack export \(no timetrack-export header line\)\n$/,
    );

    const newer = join(dir, 'newer.jsonl');
    writeFileSync(newer, '{"format":"timetrack-export","version":1,"schema":999}\n');
    assertUserError(
      await runCli(['admin', 'import', newer, '--db', join(dir, 'never.db')]),
      new RegExp(
        `newer\\.jsonl is from schema version 999, newer than this timetrack knows \\(${SCHEMA}\\); use a newer timetrack\\n$`,
      ),
    );
    assert.equal(existsSync(join(dir, 'never.db')), false, 'a refused file creates no database');

    const lines = readFileSync(exported, 'utf8').split('\n');
    lines.splice(5, 0, '{"table":"users","row":{"id":999,"username":"x","shoe_size":44}}');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, lines.join('\n'));
    const target = join(dir, 'rolled-back.db');
    assertUserError(
      await runCli(['admin', 'import', bad, '--db', target]),
      /bad\.jsonl line 6: table users has no column shoe_size\n$/,
    );
    const empty = await runCli(['admin', 'export', '--db', target]);
    assert.equal(empty.stdout, `${lines[0]}\n`, 'nothing was written');
  });

  it('refuses to overwrite an existing output file', async () => {
    assertUserError(
      await runCli(['admin', 'export', '--db', source, '--output', exported]),
      /export\.jsonl already exists; choose a new file\n$/,
    );
  });
});
