// Nothing cached or stored is ever stale (issues 20, 30): a time's derived rows (time_user_rows), a
// project's (project_json), the verified tokens and their holders. Reads run in a loop while a change is made;
// every read that starts once the change's answer has arrived must show the new state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../../helpers/cli';
import { authenticationBody } from '../../helpers/errors';
import {
  createActivity,
  createProject,
  createUser,
  type TestActivity,
  type TestProject,
  type TestUser,
  uniqueSlug,
} from '../../helpers/factories';
import { bcryptHash, startTestServer, type TestServer } from '../../helpers/server';

interface TimeShown {
  uuid: string;
  project: string[];
  activities: string[];
}

/** One read's answer: its status and body. */
type Seen = { status: number; body: unknown };

/**
 * Runs `read` in 4 loops while `change` is made; answers what every read that started
 * after the change's answer saw (at least 5 per loop), and what those that started
 * before saw: the tests check some of them saw the old state, so the caches were warm
 * when the change came (a read still running when it committed may see either).
 */
async function readsDuring(
  read: () => Promise<Seen>,
  change: () => Promise<void>,
): Promise<{ before: Seen[]; after: Seen[] }> {
  let changed = false;
  let stop = false;
  const seenBefore: Seen[] = [];
  const seenAfter: Seen[] = [];
  const loop = async () => {
    let afterCount = 0;
    while (!stop || afterCount < 5) {
      const startedAfter = changed;
      const seen = await read();
      (startedAfter ? seenAfter : seenBefore).push(seen);
      if (startedAfter) afterCount++;
    }
  };
  const loops = [loop(), loop(), loop(), loop()];
  while (seenBefore.length < 8) await new Promise((r) => setImmediate(r));
  await change();
  changed = true;
  stop = true;
  await Promise.all(loops);
  return { before: seenBefore, after: seenAfter };
}

describe('reads after a change show the change (issue 20)', () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let project: TestProject;
  let activity: TestActivity;
  let uuids: string[];
  before(async () => {
    server = await startTestServer();
    owner = await createUser(server);
    other = await createUser(server);
    activity = await createActivity(server);
    project = await createProject(server, {
      users: { [owner.username]: { member: true } },
    });
    uuids = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.api.post('/times', owner.token, {
        duration: 600 * (i + 1),
        user: owner.username,
        project: project.slugs[0],
        activities: [activity.slug],
        date_worked: `2026-11-0${i + 1}`,
      });
      assert.equal(res.status, 200, res.text);
      uuids.push((res.body as TimeShown).uuid);
    }
  });
  after(() => server.close());

  /** The owner's list and one of the times, alternately. */
  let turn = 0;
  const readOwnTimes = async (token = owner.token): Promise<Seen> => {
    turn++;
    const res =
      turn % 2 === 0
        ? await server.api.get('/times', token, { user: owner.username })
        : await server.api.get(`/times/${uuids[turn % uuids.length]}`, token);
    return { status: res.status, body: res.body };
  };
  const timesOf = (seen: Seen): TimeShown[] =>
    Array.isArray(seen.body) ? (seen.body as TimeShown[]) : [seen.body as TimeShown];

  it("shows a project's new slugs in every list and single read", async () => {
    const slugs = [uniqueSlug('renamed'), uniqueSlug('second')];
    const { before, after } = await readsDuring(readOwnTimes, async () => {
      const res = await server.api.post(`/projects/${project.slugs[0]}`, server.adminToken, {
        slugs,
      });
      assert.equal(res.status, 200, res.text);
    });
    assert.ok(before.some((s) => timesOf(s).every((t) => t.project[0] === project.slugs[0])));
    for (const seen of after) {
      assert.equal(seen.status, 200);
      for (const t of timesOf(seen)) assert.deepEqual(t.project, slugs);
    }
    project = { ...project, slugs };
  });

  it("shows an activity's new slug in every list and single read", async () => {
    const slug = uniqueSlug('act-renamed');
    const { before, after } = await readsDuring(readOwnTimes, async () => {
      const res = await server.api.post(`/activities/${activity.slug}`, server.adminToken, {
        slug,
      });
      assert.equal(res.status, 200, res.text);
    });
    assert.ok(before.some((s) => timesOf(s).every((t) => t.activities[0] === activity.slug)));
    for (const seen of after) {
      assert.equal(seen.status, 200);
      for (const t of timesOf(seen)) assert.deepEqual(t.activities, [slug]);
    }
    activity = { ...activity, slug };
  });

  describe("a project's stored JSON (sql/008)", () => {
    interface ProjectShown {
      uuid: string;
      name: string;
      slugs: string[];
      default_activity: string | null;
      users: Record<string, { member: boolean; spectator: boolean; manager: boolean }>;
    }
    let shown: TestProject;
    let defaultActivity: TestActivity;
    before(async () => {
      defaultActivity = await createActivity(server);
      shown = await createProject(server, {
        default_activity: defaultActivity.slug,
        users: { [owner.username]: { member: true } },
      });
    });

    /** The project read alone and in the list, alternately, as the owner. */
    let projectTurn = 0;
    const readProject = async (): Promise<Seen> => {
      projectTurn++;
      if (projectTurn % 2 === 0) {
        const res = await server.api.get(`/projects/${shown.slugs[0]}`, owner.token);
        return { status: res.status, body: res.body };
      }
      const res = await server.api.get('/projects', owner.token);
      const listed = (res.body as ProjectShown[]).find((p) => p.uuid === shown.uuid);
      return { status: listed ? res.status : 404, body: listed };
    };
    const projectOf = (seen: Seen): ProjectShown => {
      assert.equal(seen.status, 200);
      return seen.body as ProjectShown;
    };

    it('shows its new name, users map and default activity in every read', async () => {
      const next = await createActivity(server);
      const { before, after } = await readsDuring(readProject, async () => {
        const res = await server.api.post(`/projects/${shown.slugs[0]}`, server.adminToken, {
          name: 'Renamed while read',
          default_activity: next.slug,
          users: { [owner.username]: { member: true }, [other.username]: { spectator: true } },
        });
        assert.equal(res.status, 200, res.text);
      });
      assert.ok(before.some((s) => projectOf(s).name === shown.name));
      for (const seen of after) {
        const p = projectOf(seen);
        assert.equal(p.name, 'Renamed while read');
        assert.equal(p.default_activity, next.slug);
        assert.deepEqual(p.users, {
          [owner.username]: { member: true, spectator: false, manager: false },
          [other.username]: { member: false, spectator: true, manager: false },
        });
      }
      defaultActivity = next;
    });

    it("shows its default activity's new slug, and null once that is deleted", async () => {
      const slug = uniqueSlug('default-renamed');
      const renamed = await readsDuring(readProject, async () => {
        const res = await server.api.post(
          `/activities/${defaultActivity.slug}`,
          server.adminToken,
          {
            slug,
          },
        );
        assert.equal(res.status, 200, res.text);
      });
      assert.ok(renamed.before.some((s) => projectOf(s).default_activity === defaultActivity.slug));
      for (const seen of renamed.after) assert.equal(projectOf(seen).default_activity, slug);
      const deleted = await readsDuring(readProject, async () => {
        const res = await server.api.del(`/activities/${slug}`, server.adminToken);
        assert.equal(res.status, 200, res.text);
      });
      assert.ok(deleted.before.some((s) => projectOf(s).default_activity === slug));
      for (const seen of deleted.after) assert.equal(projectOf(seen).default_activity, null);
    });

    it("shows another process's change at once, and stores it soon after", async () => {
      const { before, after } = await readsDuring(readProject, async () => {
        // A writer that is not this server (another timetrack, sqlite3 by hand): only
        // sql/008's triggers can tell the server its stored JSON is stale.
        const elsewhere = new Database(server.dbFile);
        elsewhere.pragma('busy_timeout = 5000');
        elsewhere
          .prepare('UPDATE projects SET name = ? WHERE uuid = ?')
          .run('Renamed elsewhere', shown.uuid);
        elsewhere.close();
      });
      assert.ok(before.some((s) => projectOf(s).name === 'Renamed while read'));
      for (const seen of after) assert.equal(projectOf(seen).name, 'Renamed elsewhere');
      // The background filler computes it again (an idle server looks once a second).
      const stored = new Database(server.dbFile, { readonly: true });
      const storedJson = stored
        .prepare(`SELECT j.json FROM project_json j JOIN projects p ON p.id = j.project_id
          WHERE p.uuid = ?`)
        .pluck();
      try {
        const deadline = Date.now() + 10_000;
        while (storedJson.get(shown.uuid) === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const res = await server.api.get(`/projects/${shown.slugs[0]}`, owner.token);
        assert.equal(storedJson.get(shown.uuid), res.text);
      } finally {
        stored.close();
      }
    });
  });

  it("moves an entry between users' and days' lists, and drops a deleted one", async () => {
    const uuid = uuids[0] as string;
    const listOf = async (user: string, start: string, end: string) => {
      const res = await server.api.get('/times', server.adminToken, { user, start, end });
      assert.equal(res.status, 200, res.text);
      return (res.body as (TimeShown & { notes: string })[]).map((t) => `${t.uuid} ${t.notes}`);
    };
    const member = await createUser(server);
    const res = await server.api.post(`/projects/${project.slugs[0]}`, server.adminToken, {
      users: { [owner.username]: { member: true }, [member.username]: { member: true } },
    });
    assert.equal(res.status, 200, res.text);
    const { after } = await readsDuring(
      async () => ({
        status: 200,
        body: [
          await listOf(owner.username, '2026-11-01', '2026-11-30'),
          await listOf(member.username, '2026-10-01', '2026-10-31'),
        ],
      }),
      async () => {
        const moved = await server.api.post(`/times/${uuid}`, server.adminToken, {
          user: member.username,
          date_worked: '2026-10-15',
          notes: 'moved',
        });
        assert.equal(moved.status, 200, moved.text);
      },
    );
    for (const seen of after) {
      const [ownMonth, memberMonth] = seen.body as string[][];
      assert.ok(!ownMonth?.some((t) => t.startsWith(uuid)));
      assert.deepEqual(memberMonth, [`${uuid} moved`]);
    }
    const gone = await server.api.del(`/times/${uuid}`, server.adminToken);
    assert.equal(gone.status, 200, gone.text);
    assert.deepEqual(await listOf(member.username, '2026-10-01', '2026-10-31'), []);
    // Given back to its owner, so that the tests after this one find three entries.
    const back = await server.api.post(`/times/${uuid}`, server.adminToken, {
      user: owner.username,
      date_worked: '2026-11-01',
    });
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(
      (await listOf(owner.username, '2026-11-01', '2026-11-01')).map((t) => t.slice(0, 36)),
      [uuid],
    );
  });

  it("applies a user's new flags to the very next request, both ways", async () => {
    const readAsOther = () => readOwnTimes(other.token);
    const grant = await readsDuring(readAsOther, async () => {
      const res = await server.api.post(`/users/${other.username}`, server.adminToken, {
        site_spectator: true,
      });
      assert.equal(res.status, 200, res.text);
    });
    // Before: the single reads were refused and the lists empty; after: the owner's times.
    assert.ok(grant.before.some((s) => s.status !== 200));
    for (const seen of grant.after) {
      assert.equal(seen.status, 200);
      assert.ok(timesOf(seen).length > 0);
    }
    const revoke = await readsDuring(readAsOther, async () => {
      const res = await server.api.post(`/users/${other.username}`, server.adminToken, {
        site_spectator: false,
      });
      assert.equal(res.status, 200, res.text);
    });
    assert.ok(revoke.before.some((s) => s.status === 200));
    for (const seen of revoke.after) {
      if (Array.isArray(seen.body)) assert.deepEqual(seen.body, []);
      else assert.notEqual(seen.status, 200);
    }
  });

  const REVOKED = { status: 401, body: authenticationBody('Token has been revoked') };
  const INVALID = { status: 401, body: authenticationBody('Invalid token') };
  const succeeds = async (res: Promise<{ status: number; text: string }>) => {
    const r = await res;
    assert.equal(r.status, 200, r.text);
  };

  const revocations: [string, (username: string) => Promise<void>, Seen][] = [
    [
      "its user's password is changed",
      (u) =>
        succeeds(
          server.api.post(`/users/${u}`, server.adminToken, { password: bcryptHash('new') }),
        ),
      REVOKED,
    ],
    [
      '`admin set-password` in another process',
      async (u) => {
        const res = await runCli(
          ['admin', 'set-password', u, '--db', server.dbFile, '--password-stdin'],
          { input: 'set on the command line\n' },
        );
        assert.equal(res.code, 0, res.stderr);
      },
      REVOKED,
    ],
    [
      'a deactivation',
      (u) => succeeds(server.api.post(`/users/${u}`, server.adminToken, { active: false })),
      INVALID,
    ],
    ['a deletion', (u) => succeeds(server.api.del(`/users/${u}`, server.adminToken)), INVALID],
  ];
  for (const [what, change, refusal] of revocations) {
    it(`refuses a token at once after ${what}`, async () => {
      const user = await createUser(server);
      const read = async () => {
        const res = await server.api.get('/users', user.token);
        return { status: res.status, body: res.status === 200 ? null : res.body };
      };
      const { before, after } = await readsDuring(read, () => change(user.username));
      assert.ok(before.some((s) => s.status === 200));
      for (const seen of after) assert.deepEqual(seen, refusal);
    });
  }
});
