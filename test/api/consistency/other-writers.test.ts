// Writes that are not this server's (issue 30): the sqlite3 shell on the live file, while
// the server runs. SPEC §8 lets other processes write the same file; the derived rows of
// sql/009 are kept by triggers in the writer's own transaction, so the very next read of
// the API shows the change — no restart, no `admin` command. `admin check` agrees.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../helpers/cli';
import {
  createActivity,
  createProject,
  createUser,
  type TestActivity,
  type TestProject,
  type TestUser,
  uniqueSlug,
} from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

interface TimeShown {
  uuid: string;
  duration: number;
  user: string;
  project: string[];
  activities: string[];
  date_worked: string;
}

/** Runs SQL through the real sqlite3 shell, as an operator would on the live file. */
const sqlite3 = (file: string, sql: string) =>
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', file, sql], { encoding: 'utf8' });

/** Debian's sqlite3 (apt install sqlite3; .ci/run installs it): required under CI=true. */
const noShell =
  spawnSync('sqlite3', ['--version']).status === 0 || process.env.CI === 'true'
    ? false
    : 'the sqlite3 shell is not installed (apt install sqlite3)';

describe("another process's writes show in the very next read", { skip: noShell }, () => {
  let server: TestServer;
  let owner: TestUser;
  let project: TestProject;
  let activity: TestActivity;
  let uuid: string;
  before(async () => {
    server = await startTestServer();
    owner = await createUser(server);
    activity = await createActivity(server);
    project = await createProject(server, { users: { [owner.username]: { member: true } } });
    for (const date of ['2024-03-20', '2024-03-21']) {
      const res = await server.api.post('/times', owner.token, {
        duration: 3600,
        user: owner.username,
        project: project.slugs[0],
        activities: [activity.slug],
        date_worked: date,
      });
      assert.equal(res.status, 200, res.text);
      uuid ??= (res.body as TimeShown).uuid;
    }
  });
  after(() => server.close());

  const one = async () => {
    const res = await server.api.get(`/times/${uuid}`, owner.token);
    assert.equal(res.status, 200, res.text);
    return res.body as TimeShown;
  };
  const list = async (query: Record<string, string>) => {
    const res = await server.api.get('/times', server.adminToken, query);
    assert.equal(res.status, 200, res.text);
    return res.body as TimeShown[];
  };

  it("shows an entry's new duration and day in single reads, lists and reports", async () => {
    // Read first, so that nothing read below could come from before the write.
    assert.equal((await one()).duration, 3600);
    sqlite3(
      server.dbFile,
      `UPDATE times SET duration = duration + 1000, date_worked = '2024-04-15' WHERE uuid = '${uuid}'`,
    );
    const shown = await one();
    assert.equal(shown.duration, 4600);
    assert.equal(shown.date_worked, '2024-04-15');
    // The list of that day has it, with that day; the list of its old month no longer does.
    const day = await list({ user: owner.username, start: '2024-04-15', end: '2024-04-15' });
    assert.deepEqual(
      day.map((t) => [t.uuid, t.date_worked, t.duration]),
      [[uuid, '2024-04-15', 4600]],
    );
    const march = await list({ user: owner.username, start: '2024-03-01', end: '2024-03-31' });
    assert.ok(!march.some((t) => t.uuid === uuid));
    // Lists without a user filter (read through `times`) and reports agree with them.
    const all = await list({ project: project.slugs[0] as string });
    assert.equal(all.find((t) => t.uuid === uuid)?.duration, 4600);
    const report = await server.api.get('/reports', server.adminToken, {
      start: '2024-01-01',
      end: '2024-12-31',
      user: owner.username,
      group_by: 'month',
    });
    assert.equal(report.status, 200, report.text);
    const listed = all.reduce((sum, t) => sum + t.duration, 0);
    const reported = (report.body as { total: { duration: number } }).total.duration;
    assert.equal(reported, listed);
  });

  it("shows a project's slug changed by hand on its entries", async () => {
    const slug = uniqueSlug('by-hand');
    // A month's list read whole remembers the names it looked up (json_rows, for as long
    // as nothing is written to the file): read it first, so that the write must end that.
    const march = { user: owner.username, start: '2024-03-01', end: '2024-03-31' };
    for (let i = 0; i < 3; i++) {
      for (const t of await list(march)) assert.deepEqual(t.project, project.slugs);
    }
    sqlite3(
      server.dbFile,
      `UPDATE project_slugs SET slug = '${slug}' WHERE slug = '${project.slugs[0]}'`,
    );
    assert.deepEqual((await one()).project, [slug]);
    for (const t of await list({ user: owner.username })) assert.deepEqual(t.project, [slug]);
    for (const t of await list({ project: slug })) assert.deepEqual(t.project, [slug]);
    const listed = await list(march);
    assert.ok(listed.length > 0);
    for (const t of listed) assert.deepEqual(t.project, [slug]);
    project = { ...project, slugs: [slug] };
  });

  it("shows an activity's slug changed by hand, and an activity added by hand", async () => {
    const slug = uniqueSlug('act-by-hand');
    sqlite3(
      server.dbFile,
      `UPDATE activities SET slug = '${slug}' WHERE slug = '${activity.slug}'`,
    );
    assert.deepEqual((await one()).activities, [slug]);
    const second = await createActivity(server);
    sqlite3(
      server.dbFile,
      `INSERT INTO time_activities (time_id, activity_id)
        SELECT t.id, a.id FROM times t, activities a
        WHERE t.uuid = '${uuid}' AND a.slug = '${second.slug}'`,
    );
    assert.deepEqual((await one()).activities, [slug, second.slug].sort());
    const listed = await list({ user: owner.username });
    assert.deepEqual(listed.find((t) => t.uuid === uuid)?.activities, [slug, second.slug].sort());
    activity = { ...activity, slug };
  });

  it("shows a user's new username on their entries", async () => {
    const username = uniqueSlug('renamed');
    sqlite3(
      server.dbFile,
      `UPDATE users SET username = '${username}' WHERE username = '${owner.username}'`,
    );
    const res = await server.api.get(`/times/${uuid}`, server.adminToken);
    assert.equal((res.body as TimeShown).user, username);
    for (const t of await list({ user: username })) assert.equal(t.user, username);
  });

  it('leaves nothing for `admin check` to report', async () => {
    assert.deepEqual(await runCli(['admin', 'check', '--db', server.dbFile]), {
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
  });
});
