// Activities (SPEC §3 activity rows, §4, §4.2, §5, §6) through real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  authorizationBody,
  badObjectBody,
  badQueryBody,
  invalidIdentifierBody,
  notFoundBody,
  requestFailureBody,
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

const today = () => new Date().toISOString().slice(0, 10);
const ACTIVITY_FIELDS = [
  'created_at',
  'deleted_at',
  'name',
  'revision',
  'slug',
  'updated_at',
  'uuid',
];
const NAME = 'string of 1 to 255 characters';

let server: TestServer;
let admin: string;
let siteManager: TestUser;
/** Holders of project roles: for activities they are plain users. */
let manager: TestUser;
let member: TestUser;
let spectator: TestUser;
let plain: TestUser;

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
  siteManager = await createUser(server, { site_manager: true });
  manager = await createUser(server);
  member = await createUser(server);
  spectator = await createUser(server);
  plain = await createUser(server);
  await createProject(server, {
    name: 'Roles',
    users: {
      [manager.username]: { manager: true },
      [member.username]: { member: true },
      [spectator.username]: { spectator: true },
    },
  });
});
after(() => server.close());

const refused = () => [manager, member, spectator, plain];

describe('creating activities', () => {
  it('returns the full object exactly as GET shows it', async () => {
    const slug = uniqueSlug('dev');
    const res = await server.api.post('/activities', admin, { name: 'Development', slug });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ACTIVITY_FIELDS);
    assert.deepEqual(res.body, {
      name: 'Development',
      slug,
      uuid: res.body.uuid,
      revision: 1,
      created_at: today(),
      updated_at: null,
      deleted_at: null,
    });
    assert.match(
      res.body.uuid,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.deepEqual((await server.api.get(`/activities/${slug}`, plain.token)).body, res.body);
  });

  it('is allowed for admins and site managers only', async () => {
    await createActivity(server, {}, siteManager.token);
    for (const user of refused()) {
      const res = await server.api.post('/activities', user.token, {
        name: 'No',
        slug: uniqueSlug(),
      });
      assert.deepEqual(res.body, authorizationBody(user.username, 'create activities'));
    }
  });

  it('refuses a slug a live activity has, after checking permission', async () => {
    const existing = await createActivity(server);
    const dup = await server.api.post('/activities', admin, { name: 'Dup', slug: existing.slug });
    assert.deepEqual(dup.body, slugExistsBody(existing.slug));
    const byPlain = await server.api.post('/activities', plain.token, {
      name: 'Dup',
      slug: existing.slug,
    });
    assert.deepEqual(byPlain.body, authorizationBody(plain.username, 'create activities'));
  });

  it('lets exactly one of two concurrent creates of one slug win', async () => {
    for (let round = 0; round < 3; round++) {
      const slug = uniqueSlug('race');
      const replies = await Promise.all(
        [1, 2].map((n) => server.api.post('/activities', admin, { name: `Racer ${n}`, slug })),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      assert.deepEqual(replies.find((r) => r.status === 409)?.body, slugExistsBody(slug));
    }
  });
});

describe('validation of activity objects (kind 4, nothing written)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown field', { color: 'red' }, 'activity does not have a color field'],
    [
      'uuid',
      { uuid: '0b5a1a5e-0000-4000-8000-000000000000' },
      'activity does not have a uuid field',
    ],
    ['revision', { revision: 2 }, 'activity does not have a revision field'],
    ['created_at', { created_at: '2024-01-01' }, 'activity does not have a created_at field'],
    ['updated_at', { updated_at: null }, 'activity does not have a updated_at field'],
    ['deleted_at', { deleted_at: null }, 'activity does not have a deleted_at field'],
    ['name = 5', { name: 5 }, `Field name of activity should be ${NAME} but was sent as number`],
    ['name = ""', { name: '' }, `Field name of activity should be ${NAME} but was sent as string`],
    [
      'a long name',
      { name: 'x'.repeat(256) },
      `Field name of activity should be ${NAME} but was sent as string`,
    ],
    [
      'name = null',
      { name: null },
      `Field name of activity should be ${NAME} but was sent as null`,
    ],
    [
      'slug = "Dev Ops"',
      { slug: 'Dev Ops' },
      'Field slug of activity should be slug but was sent as string',
    ],
    [
      'slug = "123"',
      { slug: '123' },
      'Field slug of activity should be slug but was sent as string',
    ],
    [
      'slug = ["dev"]',
      { slug: ['dev'] },
      'Field slug of activity should be slug but was sent as array',
    ],
    ['slug = null', { slug: null }, 'Field slug of activity should be slug but was sent as null'],
  ];
  for (const [what, change, text] of cases) {
    it(`refuses ${what} on create and update`, async () => {
      const slug = uniqueSlug('v');
      const create = await server.api.post('/activities', admin, {
        name: 'Valid',
        slug,
        ...change,
      });
      assert.deepEqual(create.body, badObjectBody(text));
      assert.equal((await server.api.get(`/activities/${slug}`, admin)).status, 404);
      const existing = await createActivity(server);
      const update = await server.api.post(`/activities/${existing.slug}`, admin, change);
      assert.deepEqual(update.body, badObjectBody(text));
      assert.equal((await server.api.get(`/activities/${existing.slug}`, admin)).body.revision, 1);
    });
  }

  it('refuses a missing name or slug', async () => {
    const noName = await server.api.post('/activities', admin, { slug: uniqueSlug() });
    assert.deepEqual(noName.body, badObjectBody('The activity is missing a name'));
    const noSlug = await server.api.post('/activities', admin, { name: 'No slug' });
    assert.deepEqual(noSlug.body, badObjectBody('The activity is missing a slug'));
  });

  it('refuses a body without an object', async () => {
    const res = await server.api.post('/activities', admin, undefined);
    assert.deepEqual(res.body, badObjectBody('The request is missing a object'));
  });
});

describe('reading activities', () => {
  it('lets every authenticated user list and get activities', async () => {
    const activity = await createActivity(server);
    for (const token of [admin, siteManager.token, ...refused().map((u) => u.token)]) {
      assert.equal((await server.api.get(`/activities/${activity.slug}`, token)).status, 200);
      const list = await server.api.get('/activities', token);
      assert.ok(list.body.some((a: { uuid: string }) => a.uuid === activity.uuid));
    }
  });

  it('answers a malformed slug with kind 5 and an unknown one with kind 1', async () => {
    for (const bad of ['Dev', '1234', '-dev-']) {
      const body = invalidIdentifierBody('slug', bad);
      assert.deepEqual((await server.api.get(`/activities/${bad}`, admin)).body, body);
      assert.deepEqual(
        (await server.api.post(`/activities/${bad}`, admin, { name: 'x' })).body,
        body,
      );
      assert.deepEqual((await server.api.del(`/activities/${bad}`, admin)).body, body);
    }
    const missing = notFoundBody('activity');
    assert.deepEqual((await server.api.get('/activities/no-such-activity', admin)).body, missing);
    assert.deepEqual(
      (await server.api.post('/activities/no-such-activity', admin, { x: 1 })).body,
      missing,
    );
    assert.deepEqual((await server.api.del('/activities/no-such-activity', admin)).body, missing);
  });

  it('orders lists by last change and pages them with X-Total-Count and Link', async () => {
    const first = await createActivity(server);
    await createActivity(server);
    await server.api.post(`/activities/${first.slug}`, admin, { name: 'Touched' });
    const all = await server.api.get('/activities', admin);
    const order = all.body.map((a: { uuid: string }) => a.uuid);
    assert.equal(order.at(-1), first.uuid);
    assert.equal(all.headers.get('x-total-count'), String(order.length));
    const page = await server.api.get('/activities', admin, { limit: 1, skip: 0 });
    assert.deepEqual(
      page.body.map((a: { uuid: string }) => a.uuid),
      order.slice(0, 1),
    );
    assert.match(page.headers.get('link') ?? '', /skip=1.*rel="next"/);
  });

  it('refuses a bad boolean parameter with kind 11', async () => {
    const res = await server.api.get('/activities', admin, { include_deleted: 'yes' });
    assert.deepEqual(res.body, badQueryBody('include_deleted', 'yes'));
  });
});

describe('updating activities', () => {
  it('changes only the fields sent, as a new revision', async () => {
    const activity = await createActivity(server);
    const res = await server.api.post(`/activities/${activity.slug}`, admin, { name: 'Renamed' });
    assert.deepEqual(res.body, {
      ...activity,
      name: 'Renamed',
      revision: 2,
      updated_at: today(),
    });
  });

  it('moves to a new slug and frees the old one', async () => {
    const activity = await createActivity(server);
    const next = uniqueSlug('moved');
    const res = await server.api.post(`/activities/${activity.slug}`, admin, { slug: next });
    assert.equal(res.body.slug, next);
    assert.equal((await server.api.get(`/activities/${activity.slug}`, admin)).status, 404);
    await createActivity(server, { slug: activity.slug });
  });

  it('refuses a slug another live activity has, but accepts its own', async () => {
    const a = await createActivity(server);
    const b = await createActivity(server);
    const clash = await server.api.post(`/activities/${b.slug}`, admin, { slug: a.slug });
    assert.deepEqual(clash.body, slugExistsBody(a.slug));
    const own = await server.api.post(`/activities/${a.slug}`, admin, {
      slug: a.slug,
      name: 'Same',
    });
    assert.equal(own.status, 200, own.text);
  });

  it('is allowed for admins and site managers only', async () => {
    const activity = await createActivity(server);
    for (const token of [admin, siteManager.token]) {
      const res = await server.api.post(`/activities/${activity.slug}`, token, { name: 'Ok' });
      assert.equal(res.status, 200, res.text);
    }
    for (const user of refused()) {
      const res = await server.api.post(`/activities/${activity.slug}`, user.token, { name: 'No' });
      assert.deepEqual(
        res.body,
        authorizationBody(user.username, `update activity ${activity.slug}`),
      );
    }
  });
});

describe('revisions', () => {
  it('keeps every earlier revision, newest first', async () => {
    const activity = await createActivity(server, { name: 'One' });
    const s2 = uniqueSlug('rev');
    await server.api.post(`/activities/${activity.slug}`, admin, { name: 'Two' });
    await server.api.post(`/activities/${activity.slug}`, siteManager.token, { slug: s2 });
    const last = await server.api.post(`/activities/${s2}`, admin, { name: 'Four' });
    assert.equal(last.body.revision, 4);
    const res = await server.api.get(`/activities/${s2}`, plain.token, {
      include_revisions: 'true',
    });
    const base = { uuid: activity.uuid, created_at: today(), deleted_at: null };
    assert.deepEqual(res.body, {
      ...last.body,
      parents: [
        { ...base, name: 'Two', slug: s2, revision: 3, updated_at: today() },
        { ...base, name: 'Two', slug: activity.slug, revision: 2, updated_at: today() },
        { ...base, name: 'One', slug: activity.slug, revision: 1, updated_at: null },
      ],
    });
    const list = await server.api.get('/activities', admin, { include_revisions: true });
    assert.deepEqual(
      list.body.find((a: { uuid: string }) => a.uuid === activity.uuid),
      res.body,
    );
    const fresh = await createActivity(server);
    const none = await server.api.get(`/activities/${fresh.slug}`, admin, {
      include_revisions: true,
    });
    assert.deepEqual(none.body.parents, []);
  });

  it('answers the history: every revision as served, with who made it and when', async () => {
    const activity = await createActivity(server, { name: 'One' }, siteManager.token);
    const second = await server.api.post(`/activities/${activity.slug}`, admin, { name: 'Two' });
    const path = `/activities/${activity.uuid}/history`;
    const res = await server.api.get(path, plain.token);
    assert.equal(res.status, 200, res.text);
    const strip = ({ changed_by, changed_at, ...rest }: Record<string, unknown>) => rest;
    assert.deepEqual(res.body.map(strip), [second.body, activity]);
    assert.deepEqual(
      res.body.map((r: { changed_by: string }) => r.changed_by),
      ['admin', siteManager.username],
    );
    for (const r of res.body as { changed_at: string }[]) {
      assert.match(r.changed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(r.changed_at) - Date.now()) < 60_000, r.changed_at);
    }
    // include_revisions keeps TimeSync's shape: no changed_by anywhere.
    const revisions = await server.api.get(`/activities/${activity.slug}`, plain.token, {
      include_revisions: true,
    });
    assert.deepEqual(revisions.body, { ...second.body, parents: [activity] });
    // Deleted: only with include_deleted; unknown: kind 1; a slug for a uuid: kind 5.
    assert.equal((await server.api.del(`/activities/${activity.slug}`, admin)).status, 200);
    assert.deepEqual((await server.api.get(path, plain.token)).body, notFoundBody('activity'));
    const deleted = await server.api.get(path, plain.token, { include_deleted: true });
    assert.deepEqual(deleted.body.map(strip), [{ ...second.body, deleted_at: today() }, activity]);
    assert.deepEqual(
      (await server.api.get('/activities/0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b/history', admin))
        .body,
      notFoundBody('activity'),
    );
    assert.deepEqual(
      (await server.api.get(`/activities/${activity.slug}/history`, admin)).body,
      invalidIdentifierBody('uuid', activity.slug),
    );
  });

  it('records who made every revision (changed_by) in the database', async () => {
    const activity = await createActivity(server, {}, siteManager.token);
    await server.api.post(`/activities/${activity.slug}`, admin, { name: 'By admin' });
    const db = new Database(server.dbFile, { readonly: true });
    try {
      const history = db
        .prepare(`SELECT u.username FROM activity_revisions r JOIN activities a ON a.id = r.activity_id
          JOIN users u ON u.id = r.changed_by WHERE a.uuid = ? ORDER BY r.revision`)
        .pluck()
        .all(activity.uuid);
      assert.deepEqual(history, [siteManager.username]);
      const current = db
        .prepare(
          'SELECT u.username FROM activities a JOIN users u ON u.id = a.changed_by WHERE a.uuid = ?',
        )
        .pluck()
        .get(activity.uuid);
      assert.equal(current, 'admin');
    } finally {
      db.close();
    }
  });
});

describe('deleting activities', () => {
  it('is allowed for admins and site managers only', async () => {
    for (const token of [admin, siteManager.token]) {
      const activity = await createActivity(server);
      const res = await server.api.del(`/activities/${activity.slug}`, token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.text, '');
    }
    const activity = await createActivity(server);
    for (const user of refused()) {
      const res = await server.api.del(`/activities/${activity.slug}`, user.token);
      assert.deepEqual(
        res.body,
        authorizationBody(user.username, `delete activity ${activity.slug}`),
      );
    }
  });

  it('releases the slug: 404 by slug even with include_deleted, listed only with it', async () => {
    const activity = await createActivity(server);
    await server.api.post(`/activities/${activity.slug}`, admin, { name: 'Second' });
    assert.equal((await server.api.del(`/activities/${activity.slug}`, admin)).status, 200);
    const missing = notFoundBody('activity');
    assert.deepEqual((await server.api.get(`/activities/${activity.slug}`, admin)).body, missing);
    const withDeleted = { include_deleted: true };
    assert.deepEqual(
      (await server.api.get(`/activities/${activity.slug}`, admin, withDeleted)).body,
      missing,
    );
    assert.deepEqual(
      (await server.api.post(`/activities/${activity.slug}`, admin, { name: 'x' })).body,
      missing,
    );
    assert.deepEqual((await server.api.del(`/activities/${activity.slug}`, admin)).body, missing);

    const live = await server.api.get('/activities', admin);
    assert.equal(
      live.body.some((a: { uuid: string }) => a.uuid === activity.uuid),
      false,
    );
    const all = await server.api.get('/activities', admin, withDeleted);
    const shown = all.body.find((a: { uuid: string }) => a.uuid === activity.uuid);
    assert.deepEqual(shown, {
      ...activity,
      name: 'Second',
      revision: 2,
      updated_at: today(),
      deleted_at: today(),
    });

    const reused = await createActivity(server, { slug: activity.slug });
    assert.notEqual(reused.uuid, activity.uuid);
  });

  it('shows a deleted default_activity of a project as null', async () => {
    const activity = await createActivity(server);
    const project = await server.api.post('/projects', admin, {
      name: 'Default',
      slugs: [uniqueSlug('dflt')],
      default_activity: activity.slug,
    });
    assert.equal(project.body.default_activity, activity.slug);
    await server.api.del(`/activities/${activity.slug}`, admin);
    const after = await server.api.get(`/projects/${project.body.slugs[0]}`, admin);
    assert.equal(after.body.default_activity, null);
  });
});

describe('deleting an activity that time entries use', () => {
  it('is refused with kind 10 while a live time uses it, allowed once that time is deleted', async () => {
    const activity = await createActivity(server);
    const project = await server.api.post('/projects', admin, {
      name: 'Uses activity',
      slugs: [uniqueSlug('uses')],
      users: { admin: { member: true } },
    });
    const time = await server.api.post('/times', admin, {
      duration: 900,
      user: 'admin',
      project: project.body.slugs[0],
      activities: [activity.slug],
      date_worked: '2024-01-02',
    });
    assert.equal(time.status, 200, time.text);
    const refusedDelete = await server.api.del(`/activities/${activity.slug}`, admin);
    assert.equal(refusedDelete.status, 405);
    assert.equal(refusedDelete.headers.get('allow'), 'GET, POST');
    assert.deepEqual(refusedDelete.body, requestFailureBody('activity'));
    assert.equal((await server.api.get(`/activities/${activity.slug}`, admin)).status, 200);

    assert.equal((await server.api.del(`/times/${time.body.uuid}`, admin)).status, 200);
    assert.equal((await server.api.del(`/activities/${activity.slug}`, admin)).status, 200);
  });
});
