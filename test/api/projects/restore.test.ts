// Restoring a deleted project or activity (issue 17): POST /v0/projects/:uuid/restore and
// POST /v0/activities/:uuid/restore, through real HTTP. Deleting released the slugs
// (SPEC §5), so the object is named by uuid and takes its old slugs back or new ones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  authorizationBody,
  badObjectBody,
  invalidIdentifierBody,
  notFoundBody,
  slugExistsBody,
} from '../../helpers/errors';
import {
  createActivity,
  createProject,
  createUser,
  type TestUser,
  uniqueSlug,
} from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let admin: string;
let siteManager: TestUser;
let manager: TestUser;
let member: TestUser;
let plain: TestUser;

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
  siteManager = await createUser(server, { site_manager: true });
  manager = await createUser(server);
  member = await createUser(server);
  plain = await createUser(server);
});
after(() => server.close());

const today = () => new Date().toISOString().slice(0, 10);

/** A project with a second slug, a users map and one time entry, then deleted. */
async function deletedProject() {
  const activity = await createActivity(server);
  const project = await createProject(server, {
    users: {
      [manager.username]: { manager: true },
      [member.username]: { member: true },
      admin: { member: true },
    },
    default_activity: activity.slug,
  });
  const [s1] = project.slugs as [string];
  const s2 = uniqueSlug('second');
  assert.equal((await server.api.post(`/projects/${s1}`, admin, { slugs: [s1, s2] })).status, 200);
  const time = await server.api.post('/times', admin, {
    duration: 600,
    user: 'admin',
    project: s1,
    activities: [activity.slug],
    date_worked: '2026-03-02',
  });
  assert.equal(time.status, 200, time.text);
  // A project may only be deleted once no live entry uses it: the entry goes first.
  assert.equal((await server.api.del(`/times/${time.body.uuid}`, admin)).status, 200);
  assert.equal((await server.api.del(`/projects/${s1}`, admin)).status, 200);
  return { uuid: project.uuid, slugs: [s1, s2], time: time.body.uuid as string, activity };
}

const restoreProject = (uuid: string, token: string, object?: unknown) =>
  server.api.post(`/projects/${uuid}/restore`, token, object);
const restoreActivity = (uuid: string, token: string, object?: unknown) =>
  server.api.post(`/activities/${uuid}/restore`, token, object);

/** The project as a list with include_deleted shows it (it has no slug to GET it by). */
async function listedProject(uuid: string) {
  const list = await server.api.get('/projects', admin, { include_deleted: true });
  return list.body.find((p: { uuid: string }) => p.uuid === uuid);
}

describe('restoring a deleted project', () => {
  it('makes it live again with its old slugs and users map, as a new revision', async () => {
    const gone = await deletedProject();
    const res = await restoreProject(gone.uuid, admin);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.slugs, gone.slugs);
    assert.equal(res.body.deleted_at, null);
    assert.equal(res.body.revision, 3); // created, slugs added, restored (deleting is none)
    assert.equal(res.body.updated_at, today());
    assert.deepEqual(res.body.users[member.username], {
      member: true,
      spectator: false,
      manager: false,
    });
    assert.equal(res.body.default_activity, gone.activity.slug);

    // Reachable by every slug again, the same object as the answer.
    for (const slug of gone.slugs) {
      assert.deepEqual((await server.api.get(`/projects/${slug}`, admin)).body, res.body);
    }
    // History keeps the deleted state, and who restored it.
    const history = await server.api.get(`/projects/${gone.slugs[0]}`, admin, {
      include_revisions: true,
    });
    assert.equal(history.body.parents[0].revision, 2);
    assert.equal(history.body.parents[0].deleted_at, today());
    const changes = await server.api.get(`/projects/${res.body.uuid}/history`, admin);
    assert.equal(changes.body[0].changed_by, 'admin');
    // Its members can book time on it again at once.
    const time = await server.api.post('/times', member.token, {
      duration: 60,
      user: member.username,
      project: gone.slugs[1],
      activities: [gone.activity.slug],
      date_worked: '2026-03-03',
    });
    assert.equal(time.status, 200, time.text);
  });

  it('takes new slugs when sent; its entries show them', async () => {
    const gone = await deletedProject();
    const fresh = [uniqueSlug('back'), uniqueSlug('again')];
    const res = await restoreProject(gone.uuid, admin, { slugs: [fresh[0], fresh[1], fresh[0]] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.slugs, fresh); // a slug sent twice counts once
    for (const slug of gone.slugs) {
      assert.deepEqual(
        (await server.api.get(`/projects/${slug}`, admin)).body,
        notFoundBody('project'),
      );
    }
    // The project's (deleted) entry shows the project's slugs as they are now.
    const time = await server.api.get(`/times/${gone.time}`, admin, { include_deleted: true });
    assert.deepEqual(time.body.project, fresh);
  });

  it('refuses slugs another project took meanwhile (kind 8), writing nothing', async () => {
    const gone = await deletedProject();
    const taker = await createProject(server, { slugs: [gone.slugs[1] as string] });
    const before = await listedProject(gone.uuid);
    const res = await restoreProject(gone.uuid, admin);
    assert.deepEqual(res.body, slugExistsBody(gone.slugs[1] as string));
    assert.deepEqual(await listedProject(gone.uuid), before);
    assert.equal((await server.api.get(`/projects/${gone.slugs[1]}`, admin)).body.uuid, taker.uuid);

    const other = uniqueSlug('other');
    const ok = await restoreProject(gone.uuid, admin, { slugs: [gone.slugs[0], other] });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.slugs, [gone.slugs[0], other]);
  });

  it('is for admins, site managers and the managers of the project only', async () => {
    const gone = await deletedProject();
    for (const user of [member, plain]) {
      const res = await restoreProject(gone.uuid, user.token);
      assert.deepEqual(res.body, authorizationBody(user.username, `restore project ${gone.uuid}`));
    }
    assert.notEqual((await listedProject(gone.uuid)).deleted_at, null);
    for (const token of [manager.token, siteManager.token]) {
      const again = await deletedProject();
      const res = await restoreProject(again.uuid, token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.deleted_at, null);
    }
  });

  it('answers a live project as it is (a retried restore succeeds)', async () => {
    const gone = await deletedProject();
    const first = await restoreProject(gone.uuid, admin);
    const second = await restoreProject(gone.uuid, admin);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body, first.body);
  });

  it('answers bad input with the exact error and writes nothing', async () => {
    const gone = await deletedProject();
    const before = await listedProject(gone.uuid);
    const cases: [unknown, object][] = [
      [
        { slugs: [] },
        badObjectBody(
          'Field slugs of project should be array of 1 to 16 slugs but was sent as array',
        ),
      ],
      [
        { slugs: ['Not A Slug'] },
        badObjectBody(
          'Field slugs of project should be array of 1 to 16 slugs but was sent as array',
        ),
      ],
      [{ name: 'x' }, badObjectBody('project does not have a name field')],
    ];
    for (const [object, body] of cases) {
      assert.deepEqual(
        (await restoreProject(gone.uuid, admin, object)).body,
        body,
        JSON.stringify(object),
      );
    }
    assert.deepEqual(await listedProject(gone.uuid), before);
    const unknown = '7d4c6a3e-1f2b-4c5d-8e9f-0a1b2c3d4e5f';
    assert.deepEqual((await restoreProject(unknown, admin)).body, notFoundBody('project'));
    assert.deepEqual(
      (await restoreProject('not-a-uuid', admin)).body,
      invalidIdentifierBody('uuid', 'not-a-uuid'),
    );
  });
});

describe('restoring a deleted activity', () => {
  /** An activity on a (deleted) time entry, then deleted. */
  async function deletedActivity() {
    const activity = await createActivity(server);
    const project = await createProject(server, { users: { admin: { member: true } } });
    const time = await server.api.post('/times', admin, {
      duration: 600,
      user: 'admin',
      project: project.slugs[0],
      activities: [activity.slug],
      date_worked: '2026-03-02',
    });
    assert.equal(time.status, 200, time.text);
    assert.equal((await server.api.del(`/times/${time.body.uuid}`, admin)).status, 200);
    assert.equal((await server.api.del(`/activities/${activity.slug}`, admin)).status, 200);
    return { ...activity, time: time.body.uuid as string };
  }
  const listedActivity = async (uuid: string) =>
    (await server.api.get('/activities', admin, { include_deleted: true })).body.find(
      (a: { uuid: string }) => a.uuid === uuid,
    );

  it('makes it live again with its old slug, as a new revision', async () => {
    const gone = await deletedActivity();
    const res = await restoreActivity(gone.uuid, siteManager.token);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.slug, gone.slug);
    assert.equal(res.body.deleted_at, null);
    assert.equal(res.body.revision, 2);
    const got = await server.api.get(`/activities/${gone.slug}`, admin, {
      include_revisions: true,
    });
    assert.equal(got.body.parents[0].deleted_at, today());
  });

  it('refuses a slug taken meanwhile (kind 8); takes a new one; entries show it', async () => {
    const gone = await deletedActivity();
    await createActivity(server, { slug: gone.slug });
    const before = await listedActivity(gone.uuid);
    assert.deepEqual((await restoreActivity(gone.uuid, admin)).body, slugExistsBody(gone.slug));
    assert.deepEqual(await listedActivity(gone.uuid), before);

    const slug = uniqueSlug('renamed');
    const res = await restoreActivity(gone.uuid, admin, { slug });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.slug, slug);
    const time = await server.api.get(`/times/${gone.time}`, admin, { include_deleted: true });
    assert.deepEqual(time.body.activities, [slug]);
  });

  it('is for admins and site managers only; bad input writes nothing', async () => {
    const gone = await deletedActivity();
    const before = await listedActivity(gone.uuid);
    for (const user of [manager, plain]) {
      const res = await restoreActivity(gone.uuid, user.token);
      assert.deepEqual(res.body, authorizationBody(user.username, `restore activity ${gone.uuid}`));
    }
    assert.deepEqual(
      (await restoreActivity(gone.uuid, admin, { slug: 'No Slug' })).body.error,
      'Bad object',
    );
    assert.deepEqual(
      (await restoreActivity(gone.uuid, admin, { name: 'x' })).body,
      badObjectBody('activity does not have a name field'),
    );
    assert.deepEqual(await listedActivity(gone.uuid), before);
    const unknown = '7d4c6a3e-1f2b-4c5d-8e9f-0a1b2c3d4e5f';
    assert.deepEqual((await restoreActivity(unknown, admin)).body, notFoundBody('activity'));
  });

  it('needs a slug for an activity migrated without one (the old server cleared it)', async () => {
    const gone = await deletedActivity();
    // As `migrate-from-timesync-node` stores such an activity: the empty slug (NO_SLUG).
    const db = new Database(server.dbFile);
    db.prepare("UPDATE activities SET slug = '' WHERE uuid = ?").run(gone.uuid);
    db.close();
    assert.equal((await listedActivity(gone.uuid)).slug, null);
    assert.deepEqual(
      (await restoreActivity(gone.uuid, admin)).body,
      badObjectBody('The activity is missing a slug'),
    );
    const slug = uniqueSlug('named');
    const res = await restoreActivity(gone.uuid, admin, { slug });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.slug, slug);
  });
});
