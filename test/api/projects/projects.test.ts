// Projects (SPEC §3 project rows, §4, §4.1, §5, §6) through real HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createApi } from '../../helpers/api';
import {
  authorizationBody,
  badObjectBody,
  badQueryBody,
  foreignKeyBody,
  invalidIdentifierBody,
  notFoundBody,
  requestFailureBody,
} from '../../helpers/errors';
import {
  createActivity,
  createProject,
  createUser,
  type TestUser,
  uniqueSlug,
} from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';

const today = () => new Date().toISOString().slice(0, 10);
const USERS_EXPECTED = 'map of usernames to objects of member, spectator and manager booleans';
const PROJECT_FIELDS = [
  'created_at',
  'default_activity',
  'deleted_at',
  'name',
  'owner',
  'revision',
  'slugs',
  'updated_at',
  'uri',
  'users',
  'uuid',
];

let server: TestServer;
let admin: string;
/** One user per role of SPEC §3; the project roles hold on `shared`. */
let siteManager: TestUser;
let manager: TestUser;
let member: TestUser;
let spectator: TestUser;
let plain: TestUser;
let shared: string;

/** A project where manager/member/spectator hold their roles. */
async function projectWithRoles(): Promise<string> {
  const project = await createProject(server, {
    users: {
      [manager.username]: { manager: true },
      [member.username]: { member: true },
      [spectator.username]: { spectator: true },
    },
  });
  return project.slugs[0] as string;
}

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
  siteManager = await createUser(server, { site_manager: true });
  manager = await createUser(server);
  member = await createUser(server);
  spectator = await createUser(server);
  plain = await createUser(server);
  shared = await projectWithRoles();
});
after(() => server.close());

describe('creating projects', () => {
  it('returns the full object exactly as GET shows it', async () => {
    const activity = (await createActivity(server)).slug;
    const slug = uniqueSlug('full');
    const res = await server.api.post('/projects', admin, {
      name: 'Full project',
      slugs: [slug, `${slug}-alias`],
      uri: 'https://example.com/full',
      owner: member.username.toUpperCase(),
      default_activity: activity,
      users: { [member.username]: { member: true, manager: true } },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), PROJECT_FIELDS);
    assert.match(
      res.body.uuid,
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.deepEqual(res.body, {
      name: 'Full project',
      slugs: [slug, `${slug}-alias`],
      uri: 'https://example.com/full',
      owner: member.username,
      default_activity: activity,
      users: { [member.username]: { member: true, spectator: false, manager: true } },
      uuid: res.body.uuid,
      revision: 1,
      created_at: today(),
      updated_at: null,
      deleted_at: null,
    });
    const got = await server.api.get(`/projects/${slug}-alias`, plain.token);
    assert.deepEqual(got.body, res.body);
  });

  it('writes any name as JSON.stringify would, in the read, the list and with revisions', async () => {
    const slug = uniqueSlug('odd');
    const name = 'quote " backslash \\ line\nbreak tab\t \u0001 é ☃ \u2028 😀 </script>';
    const created = await server.api.post('/projects', admin, {
      name,
      slugs: [slug],
      users: { [member.username]: { spectator: true } },
    });
    assert.equal(created.status, 200, created.text);
    const got = await server.api.get(`/projects/${slug}`, admin);
    assert.equal(got.body.name, name);
    assert.equal(got.text, JSON.stringify(got.body), 'the bytes JSON.stringify writes');
    const listed = await server.api.get('/projects', admin);
    const text = JSON.stringify(
      (listed.body as { uuid: string }[]).find((p) => p.uuid === got.body.uuid),
    );
    assert.ok(listed.text.includes(text), 'the list carries the same bytes');
    const revisions = await server.api.get(`/projects/${slug}`, admin, { include_revisions: true });
    assert.deepEqual(revisions.body, { ...got.body, parents: [] });
    const history = await server.api.get(`/projects/${got.body.uuid}/history`, admin);
    assert.equal(history.body[0].name, name);
    assert.equal(history.body[0].changed_by, 'admin');
  });

  it('sets optional fields to null and users to {} when not sent', async () => {
    const project = await createProject(server);
    assert.equal(project.uri, null);
    assert.equal(project.owner, null);
    assert.equal(project.default_activity, null);
    assert.deepEqual(project.users, {});
  });

  it('takes an empty string as null for uri, owner and default_activity', async () => {
    const project = await createProject(server, { uri: '', owner: '', default_activity: '' });
    assert.equal(project.uri, null);
    assert.equal(project.owner, null);
    assert.equal(project.default_activity, null);
  });

  it('collapses a slug sent twice', async () => {
    const slug = uniqueSlug('twice');
    const project = await createProject(server, { slugs: [slug, slug] });
    assert.deepEqual(project.slugs, [slug]);
  });

  it('is allowed for admins and site managers only', async () => {
    const ok = await server.api.post('/projects', siteManager.token, {
      name: 'By site manager',
      slugs: [uniqueSlug('sm')],
    });
    assert.equal(ok.status, 200, ok.text);
    for (const user of [manager, member, spectator, plain]) {
      const res = await server.api.post('/projects', user.token, {
        name: 'Refused',
        slugs: [uniqueSlug('no')],
      });
      assert.deepEqual(res.body, authorizationBody(user.username, 'create projects'));
    }
  });
});

describe('validation of project objects (kind 4, nothing written)', () => {
  const valid = () => ({ name: 'Valid', slugs: [uniqueSlug('v')] });
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown field', { color: 'red' }, 'project does not have a color field'],
    [
      'uuid',
      { uuid: '0b5a1a5e-0000-4000-8000-000000000000' },
      'project does not have a uuid field',
    ],
    ['revision', { revision: 1 }, 'project does not have a revision field'],
    ['created_at', { created_at: '2024-01-01' }, 'project does not have a created_at field'],
    ['updated_at', { updated_at: null }, 'project does not have a updated_at field'],
    ['deleted_at', { deleted_at: null }, 'project does not have a deleted_at field'],
    ['parents', { parents: [] }, 'project does not have a parents field'],
    ...(
      [
        ['name', 5, 'string of 1 to 255 characters', 'number'],
        ['name', '', 'string of 1 to 255 characters', 'string'],
        ['name', 'x'.repeat(256), 'string of 1 to 255 characters', 'string'],
        ['name', null, 'string of 1 to 255 characters', 'null'],
        ['slugs', 'gwm', 'array of 1 to 16 slugs', 'string'],
        ['slugs', [], 'array of 1 to 16 slugs', 'array'],
        ['slugs', ['Not-A-Slug'], 'array of 1 to 16 slugs', 'array'],
        ['slugs', ['123'], 'array of 1 to 16 slugs', 'array'],
        ['slugs', [7], 'array of 1 to 16 slugs', 'array'],
        ['slugs', Array.from({ length: 17 }, (_, i) => `s${i}`), 'array of 1 to 16 slugs', 'array'],
        ['slugs', null, 'array of 1 to 16 slugs', 'null'],
        ['uri', 'not a uri', 'URI', 'string'],
        ['uri', 'ftp://example.com/x', 'URI', 'string'],
        ['uri', 42, 'URI', 'number'],
        ['owner', 42, 'username', 'number'],
        ['owner', ['admin'], 'username', 'array'],
        ['default_activity', true, 'activity slug', 'boolean'],
        ['users', ['admin'], USERS_EXPECTED, 'array'],
        ['users', 'admin', USERS_EXPECTED, 'string'],
        ['users', { admin: true }, USERS_EXPECTED, 'object'],
        ['users', { admin: { member: 'yes' } }, USERS_EXPECTED, 'object'],
        ['users', { admin: { owner: true } }, USERS_EXPECTED, 'object'],
      ] as const
    ).map(
      ([field, value, expected, received]) =>
        [
          `${field} = ${JSON.stringify(value).slice(0, 20)}`,
          { [field]: value },
          `Field ${field} of project should be ${expected} but was sent as ${received}`,
        ] as [string, Record<string, unknown>, string],
    ),
  ];
  for (const [what, change, text] of cases) {
    it(`refuses ${what}`, async () => {
      const base = valid();
      const res = await server.api.post('/projects', admin, { ...base, ...change });
      assert.deepEqual(res.body, badObjectBody(text));
      const after = await server.api.get(`/projects/${base.slugs[0]}`, admin);
      assert.equal(after.status, 404); // nothing written
    });
  }

  it('refuses a missing name or slugs', async () => {
    const noName = await server.api.post('/projects', admin, { slugs: [uniqueSlug()] });
    assert.deepEqual(noName.body, badObjectBody('The project is missing a name'));
    const noSlugs = await server.api.post('/projects', admin, { name: 'No slugs' });
    assert.deepEqual(noSlugs.body, badObjectBody('The project is missing a slugs'));
  });

  it('refuses to set a required field to null on update', async () => {
    for (const field of ['name', 'slugs']) {
      const res = await server.api.post(`/projects/${shared}`, admin, { [field]: null });
      const expected =
        field === 'name' ? 'string of 1 to 255 characters' : 'array of 1 to 16 slugs';
      assert.deepEqual(
        res.body,
        badObjectBody(`Field ${field} of project should be ${expected} but was sent as null`),
      );
    }
    assert.equal((await server.api.get(`/projects/${shared}`, admin)).body.revision, 1);
  });

  it('refuses server-managed fields on update too', async () => {
    const res = await server.api.post(`/projects/${shared}`, admin, { revision: 7 });
    assert.deepEqual(res.body, badObjectBody('project does not have a revision field'));
  });
});

describe('references (kind 3)', () => {
  it('refuses an unknown owner, default_activity or user, writing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ owner: 'nobody-here' }, 'owner'],
      [{ owner: 'bad name!' }, 'owner'],
      [{ default_activity: 'no-such-activity' }, 'default_activity'],
      [{ users: { 'nobody-here': { member: true } } }, 'user'],
    ];
    for (const [change, key] of cases) {
      const slug = uniqueSlug('fk');
      const res = await server.api.post('/projects', admin, {
        name: 'FK',
        slugs: [slug],
        ...change,
      });
      assert.deepEqual(res.body, foreignKeyBody('project', key));
      assert.equal((await server.api.get(`/projects/${slug}`, admin)).status, 404);
    }
  });

  it('refuses a deleted activity as default_activity', async () => {
    const activity = (await createActivity(server)).slug;
    assert.equal((await server.api.del(`/activities/${activity}`, admin)).status, 200);
    const res = await server.api.post('/projects', admin, {
      name: 'FK',
      slugs: [uniqueSlug()],
      default_activity: activity,
    });
    assert.deepEqual(res.body, foreignKeyBody('project', 'default_activity'));
  });

  it('checks references before permission (a plain user gets kind 3)', async () => {
    const res = await server.api.post('/projects', plain.token, {
      name: 'FK',
      slugs: [uniqueSlug()],
      owner: 'nobody-here',
    });
    assert.deepEqual(res.body, foreignKeyBody('project', 'owner'));
  });

  it('sets, shows in stored case, and clears owner and default_activity', async () => {
    const activity = (await createActivity(server)).slug;
    const project = await createProject(server);
    const slug = project.slugs[0];
    const set = await server.api.post(`/projects/${slug}`, admin, {
      owner: plain.username.toUpperCase(),
      default_activity: activity,
    });
    assert.equal(set.body.owner, plain.username);
    assert.equal(set.body.default_activity, activity);
    const cleared = await server.api.post(`/projects/${slug}`, admin, {
      owner: null,
      default_activity: '',
    });
    assert.equal(cleared.body.owner, null);
    assert.equal(cleared.body.default_activity, null);
  });
});

describe('the users map', () => {
  it('fills missing flags with false, drops all-false entries, keys in stored case', async () => {
    const mixed = await createUser(server, { username: `MiXed${process.pid % 1000}` });
    const project = await createProject(server, {
      users: {
        [mixed.username.toLowerCase()]: { spectator: true },
        [plain.username]: { member: false, spectator: false, manager: false },
        [member.username]: {},
      },
    });
    assert.deepEqual(project.users, {
      [mixed.username]: { member: false, spectator: true, manager: false },
    });
  });

  it('replaces the whole map on update; null and {} clear it; omitted keeps it', async () => {
    const project = await createProject(server, { users: { [member.username]: { member: true } } });
    const slug = project.slugs[0];
    const replaced = await server.api.post(`/projects/${slug}`, admin, {
      users: { [spectator.username]: { spectator: true } },
    });
    assert.deepEqual(replaced.body.users, {
      [spectator.username]: { member: false, spectator: true, manager: false },
    });
    const kept = await server.api.post(`/projects/${slug}`, admin, { name: 'Renamed' });
    assert.deepEqual(kept.body.users, replaced.body.users);
    const cleared = await server.api.post(`/projects/${slug}`, admin, { users: null });
    assert.deepEqual(cleared.body.users, {});
    await server.api.post(`/projects/${slug}`, admin, {
      users: { [member.username]: { member: true } },
    });
    const emptied = await server.api.post(`/projects/${slug}`, admin, { users: {} });
    assert.deepEqual(emptied.body.users, {});
  });

  it('refuses an unknown username and keeps the old map', async () => {
    const project = await createProject(server, { users: { [member.username]: { member: true } } });
    const slug = project.slugs[0];
    const res = await server.api.post(`/projects/${slug}`, admin, {
      users: { [member.username]: { manager: true }, 'ghost-user': { member: true } },
    });
    assert.deepEqual(res.body, foreignKeyBody('project', 'user'));
    const after = await server.api.get(`/projects/${slug}`, admin);
    assert.deepEqual(after.body.users, project.users);
    assert.equal(after.body.revision, 1);
  });

  it('lets a project manager change the map, and the new manager then manage', async () => {
    const slug = await projectWithRoles();
    const res = await server.api.post(`/projects/${slug}`, manager.token, {
      users: { [manager.username]: { manager: true }, [plain.username]: { manager: true } },
    });
    assert.equal(res.status, 200, res.text);
    const again = await server.api.post(`/projects/${slug}`, plain.token, { name: 'Managed' });
    assert.equal(again.status, 200, again.text);
  });
});

describe('reading projects', () => {
  it('lets every authenticated user list and get projects', async () => {
    for (const token of [
      admin,
      siteManager.token,
      manager.token,
      member.token,
      spectator.token,
      plain.token,
    ]) {
      const one = await server.api.get(`/projects/${shared}`, token);
      assert.equal(one.status, 200, one.text);
      const list = await server.api.get('/projects', token);
      assert.equal(list.status, 200);
      assert.ok(list.body.some((p: { slugs: string[] }) => p.slugs.includes(shared)));
    }
  });

  it('answers a malformed slug with kind 5 on every method', async () => {
    for (const bad of ['Not_A_Slug', '123', 'a--b']) {
      const body = invalidIdentifierBody('slug', bad);
      assert.deepEqual((await server.api.get(`/projects/${bad}`, admin)).body, body);
      assert.deepEqual(
        (await server.api.post(`/projects/${bad}`, admin, { name: 'x' })).body,
        body,
      );
      assert.deepEqual((await server.api.del(`/projects/${bad}`, admin)).body, body);
    }
  });

  it('answers an unknown slug with kind 1 before looking at the body', async () => {
    assert.deepEqual(
      (await server.api.get('/projects/no-such-project', admin)).body,
      notFoundBody('project'),
    );
    const res = await server.api.post('/projects/no-such-project', admin, { bogus: 1 });
    assert.deepEqual(res.body, notFoundBody('project'));
    assert.deepEqual(
      (await server.api.del('/projects/no-such-project', admin)).body,
      notFoundBody('project'),
    );
  });

  it('filters by user: any permission, repeatable as OR', async () => {
    const onlySpectator = await createUser(server);
    const onlyMember = await createUser(server);
    const a = await createProject(server, {
      users: { [onlySpectator.username]: { spectator: true } },
    });
    const b = await createProject(server, {
      users: { [onlyMember.username.toUpperCase()]: { member: true } },
    });
    await createProject(server);
    const slugsOf = (res: { body: { slugs: string[] }[] }) => res.body.map((p) => p.slugs[0]);
    const one = await server.api.get('/projects', admin, { user: onlySpectator.username });
    assert.deepEqual(slugsOf(one), [a.slugs[0]]);
    const both = await server.api.get('/projects', admin, {
      user: [onlySpectator.username, onlyMember.username.toLowerCase()],
    });
    assert.deepEqual(slugsOf(both), [a.slugs[0], b.slugs[0]]);
    assert.equal(both.headers.get('x-total-count'), '2');
  });

  it('refuses a malformed or unknown user filter with kind 11', async () => {
    for (const value of ['no-such-user', 'bad name!', '']) {
      const res = await server.api.get('/projects', admin, { user: value });
      assert.deepEqual(res.body, badQueryBody('user', value));
    }
    const res = await server.api.get('/projects', admin, { include_revisions: 'maybe' });
    assert.deepEqual(res.body, badQueryBody('include_revisions', 'maybe'));
  });

  it('orders lists by last change, then uuid, and pages them', async () => {
    const first = await createProject(server);
    const second = await createProject(server);
    await server.api.post(`/projects/${first.slugs[0]}`, admin, { name: 'Touched' });
    const all = await server.api.get('/projects', admin);
    const order = all.body.map((p: { uuid: string }) => p.uuid);
    assert.ok(order.indexOf(second.uuid) < order.indexOf(first.uuid));
    assert.equal(order.at(-1), first.uuid);
    const page = await server.api.get('/projects', admin, { skip: 1, limit: 2 });
    assert.deepEqual(
      page.body.map((p: { uuid: string }) => p.uuid),
      order.slice(1, 3),
    );
    assert.equal(page.headers.get('x-total-count'), String(order.length));
  });
});

describe('updating projects', () => {
  it('changes only the fields sent and null clears an optional field', async () => {
    const project = await createProject(server, { uri: 'https://example.com/a' });
    const slug = project.slugs[0];
    const res = await server.api.post(`/projects/${slug}`, admin, { name: 'Only name' });
    assert.equal(res.body.name, 'Only name');
    assert.equal(res.body.uri, 'https://example.com/a');
    assert.deepEqual(res.body.slugs, project.slugs);
    assert.equal(res.body.revision, 2);
    assert.equal(res.body.updated_at, today());
    const cleared = await server.api.post(`/projects/${slug}`, admin, { uri: null });
    assert.equal(cleared.body.uri, null);
    assert.equal(cleared.body.name, 'Only name');
  });

  it('replaces the slug set; old slugs stop working, new ones work', async () => {
    const project = await createProject(server);
    const old = project.slugs[0];
    const fresh = [uniqueSlug('new'), uniqueSlug('new')];
    const res = await server.api.post(`/projects/${old}`, admin, { slugs: fresh });
    assert.deepEqual(res.body.slugs, fresh);
    assert.equal((await server.api.get(`/projects/${old}`, admin)).status, 404);
    assert.equal((await server.api.get(`/projects/${fresh[1]}`, admin)).body.uuid, project.uuid);
    // the old slug is free for another project
    await createProject(server, { slugs: [old] });
  });

  it('is allowed for admins, site managers and the project managers only', async () => {
    const slug = await projectWithRoles();
    for (const [who, token] of [
      ['admin', admin],
      ['site manager', siteManager.token],
      ['manager', manager.token],
    ] as const) {
      const res = await server.api.post(`/projects/${slug}`, token, { name: `By ${who}` });
      assert.equal(res.status, 200, `${who}: ${res.text}`);
    }
    for (const user of [member, spectator, plain]) {
      const res = await server.api.post(`/projects/${slug}`, user.token, { name: 'Refused' });
      assert.deepEqual(res.body, authorizationBody(user.username, `update project ${slug}`));
    }
    assert.equal((await server.api.get(`/projects/${slug}`, admin)).body.revision, 4);
  });

  it('keeps a manager of one project from updating another', async () => {
    const other = await createProject(server);
    const res = await server.api.post(`/projects/${other.slugs[0]}`, manager.token, { name: 'No' });
    assert.deepEqual(
      res.body,
      authorizationBody(manager.username, `update project ${other.slugs[0]}`),
    );
  });
});

describe('slug uniqueness (kind 8)', () => {
  it('reports every conflicting slug, in the order sent', async () => {
    const a = await createProject(server);
    const b = await createProject(server);
    const fresh = uniqueSlug('free');
    const res = await server.api.post('/projects', admin, {
      name: 'Clash',
      slugs: [b.slugs[0], fresh, a.slugs[0]],
    });
    assert.deepEqual(res.body, {
      status: 409,
      error: 'Slugs already exist',
      text: `Slugs ${b.slugs[0]}, ${a.slugs[0]} already exist on another object`,
      values: [b.slugs[0], a.slugs[0]],
    });
    assert.equal((await server.api.get(`/projects/${fresh}`, admin)).status, 404);
  });

  it('refuses an update to another project slug but allows keeping its own', async () => {
    const a = await createProject(server);
    const b = await createProject(server);
    const clash = await server.api.post(`/projects/${b.slugs[0]}`, admin, { slugs: a.slugs });
    assert.deepEqual(clash.body, {
      status: 409,
      error: 'Slug already exists',
      text: `Slug ${a.slugs[0]} already exists on another object`,
      values: a.slugs,
    });
    const own = await server.api.post(`/projects/${a.slugs[0]}`, admin, {
      slugs: [...a.slugs, uniqueSlug('more')],
    });
    assert.equal(own.status, 200, own.text);
  });

  it('checks permission before uniqueness', async () => {
    const res = await server.api.post('/projects', plain.token, { name: 'x', slugs: [shared] });
    assert.deepEqual(res.body, authorizationBody(plain.username, 'create projects'));
  });

  it('lets exactly one of two concurrent creates of one slug win', async () => {
    for (let round = 0; round < 3; round++) {
      const slug = uniqueSlug('race');
      const replies = await Promise.all(
        [1, 2].map((n) =>
          server.api.post('/projects', admin, { name: `Racer ${n}`, slugs: [slug] }),
        ),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      const loser = replies.find((r) => r.status === 409);
      assert.deepEqual(loser?.body.values, [slug]);
      const list = await server.api.get('/projects', admin);
      assert.equal(list.body.filter((p: { slugs: string[] }) => p.slugs.includes(slug)).length, 1);
    }
  });
});

describe('revisions', () => {
  it('keeps every earlier revision, newest first, without users', async () => {
    const project = await createProject(server, {
      uri: 'https://example.com/r1',
      users: { [member.username]: { member: true } },
    });
    const s1 = project.slugs[0] as string;
    const s2 = uniqueSlug('rev');
    const second = await server.api.post(`/projects/${s1}`, admin, { name: 'Second' });
    const third = await server.api.post(`/projects/${s1}`, siteManager.token, { slugs: [s2, s1] });
    const last = await server.api.post(`/projects/${s2}`, admin, {
      uri: null,
      owner: plain.username,
    });
    assert.equal(last.body.revision, 4);

    const res = await server.api.get(`/projects/${s2}`, spectator.token, {
      include_revisions: true,
    });
    const base = {
      uuid: project.uuid,
      created_at: today(),
      deleted_at: null,
      default_activity: null,
    };
    assert.deepEqual(res.body, { ...last.body, parents: res.body.parents });
    assert.deepEqual(res.body.parents, [
      {
        ...base,
        name: 'Second',
        slugs: [s2, s1],
        uri: 'https://example.com/r1',
        owner: null,
        revision: 3,
        updated_at: today(),
      },
      {
        ...base,
        name: 'Second',
        slugs: [s1],
        uri: 'https://example.com/r1',
        owner: null,
        revision: 2,
        updated_at: today(),
      },
      {
        ...base,
        name: project.name,
        slugs: [s1],
        uri: 'https://example.com/r1',
        owner: null,
        revision: 1,
        updated_at: null,
      },
    ]);
    // Each parent is the answer its revision once was, less the users map (SPEC §4.1).
    const served = [third.body, second.body, project].map(({ users, ...rest }) => rest);
    assert.equal(JSON.stringify(res.body.parents), JSON.stringify(served));

    const list = await server.api.get('/projects', admin, { include_revisions: '' });
    const inList = list.body.find((p: { uuid: string }) => p.uuid === project.uuid);
    assert.deepEqual(inList, res.body);

    // Who made each revision and when: the history (issue 29), to anyone, like GET.
    const history = await server.api.get(`/projects/${project.uuid}/history`, plain.token);
    assert.equal(history.status, 200, history.text);
    const strip = ({ changed_by, changed_at, ...rest }: Record<string, unknown>) => rest;
    // Each revision as it was served, its users map included (kept since issue 34).
    assert.deepEqual(history.body.map(strip), [last.body, third.body, second.body, project]);
    assert.deepEqual(
      history.body.map((r: { changed_by: string }) => r.changed_by),
      [ADMIN.username, siteManager.username, ADMIN.username, ADMIN.username],
    );
    for (const r of history.body as { changed_at: string }[]) {
      assert.match(r.changed_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(r.changed_at) - Date.now()) < 60_000, r.changed_at);
    }
  });

  it('shows parents: [] for a project without history, and no parents unless asked', async () => {
    const project = await createProject(server);
    const res = await server.api.get(`/projects/${project.slugs[0]}`, admin, {
      include_revisions: 1,
    });
    assert.deepEqual(res.body.parents, []);
    assert.ok(!('changed_by' in res.body), 'TimeSync shape: no changed_by');
    const plainGet = await server.api.get(`/projects/${project.slugs[0]}`, admin);
    assert.ok(!('changed_by' in plainGet.body), 'no changed_by');
    assert.equal('parents' in plainGet.body, false);
  });

  it('answers a deleted project’s history only with include_deleted', async () => {
    const project = await createProject(server);
    const slug = project.slugs[0] as string;
    assert.equal((await server.api.del(`/projects/${slug}`, admin)).status, 200);
    const path = `/projects/${project.uuid}/history`;
    assert.deepEqual((await server.api.get(path, plain.token)).body, notFoundBody('project'));
    const res = await server.api.get(path, plain.token, { include_deleted: true });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.map((r: Record<string, unknown>) => [r.revision, r.deleted_at, r.changed_by]),
      [[1, today(), ADMIN.username]],
    );
    const unknown = '0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b';
    assert.deepEqual(
      (await server.api.get(`/projects/${unknown}/history`, plain.token)).body,
      notFoundBody('project'),
    );
    assert.deepEqual(
      (await server.api.get(`/projects/${slug}/history`, plain.token)).body,
      invalidIdentifierBody('uuid', slug),
    );
  });

  it('records who made every revision (changed_by) in the database', async () => {
    const project = await createProject(server);
    const slug = project.slugs[0];
    await server.api.post(`/projects/${slug}`, siteManager.token, { name: 'By site manager' });
    await server.api.post(`/projects/${slug}`, admin, { name: 'By admin' });
    const db = new Database(server.dbFile, { readonly: true });
    try {
      const who = (sql: string) =>
        (db.prepare(sql).all(project.uuid) as { revision: number; username: string }[]).map(
          (r) => `${r.revision}:${r.username}`,
        );
      assert.deepEqual(
        who(`SELECT r.revision, u.username FROM project_revisions r JOIN projects p ON p.id = r.project_id
          JOIN users u ON u.id = r.changed_by WHERE p.uuid = ? ORDER BY r.revision`),
        ['1:admin', `2:${siteManager.username}`],
      );
      assert.deepEqual(
        who(
          'SELECT p.revision, u.username FROM projects p JOIN users u ON u.id = p.changed_by WHERE p.uuid = ?',
        ),
        ['3:admin'],
      );
    } finally {
      db.close();
    }
  });
});

describe('deleting projects', () => {
  it('is allowed for admins, site managers and the project managers only', async () => {
    for (const [who, token] of [
      ['admin', admin],
      ['site manager', siteManager.token],
      ['manager', manager.token],
    ] as const) {
      const slug = await projectWithRoles();
      const res = await server.api.del(`/projects/${slug}`, token);
      assert.equal(res.status, 200, `${who}: ${res.text}`);
      assert.equal(res.text, '');
    }
    const slug = await projectWithRoles();
    for (const user of [member, spectator, plain]) {
      const res = await server.api.del(`/projects/${slug}`, user.token);
      assert.deepEqual(res.body, authorizationBody(user.username, `delete project ${slug}`));
    }
    assert.equal((await server.api.get(`/projects/${slug}`, admin)).status, 200);
  });

  it('releases the slugs: 404 by slug even with include_deleted, listed only with it', async () => {
    const project = await createProject(server, { users: { [member.username]: { member: true } } });
    const [s1] = project.slugs as [string];
    const s2 = uniqueSlug('second');
    await server.api.post(`/projects/${s1}`, admin, { slugs: [s1, s2] });
    assert.equal((await server.api.del(`/projects/${s1}`, admin)).status, 200);

    for (const slug of [s1, s2]) {
      assert.deepEqual(
        (await server.api.get(`/projects/${slug}`, admin)).body,
        notFoundBody('project'),
      );
      const deleted = await server.api.get(`/projects/${slug}`, admin, { include_deleted: true });
      assert.deepEqual(deleted.body, notFoundBody('project'));
      const update = await server.api.post(`/projects/${slug}`, admin, { name: 'Back' });
      assert.deepEqual(update.body, notFoundBody('project'));
    }
    assert.deepEqual(
      (await server.api.del(`/projects/${s1}`, admin)).body,
      notFoundBody('project'),
    );

    const live = await server.api.get('/projects', admin);
    assert.equal(
      live.body.some((p: { uuid: string }) => p.uuid === project.uuid),
      false,
    );
    const withDeleted = await server.api.get('/projects', admin, { include_deleted: true });
    const shown = withDeleted.body.find((p: { uuid: string }) => p.uuid === project.uuid);
    assert.deepEqual(shown.slugs, [s1, s2]);
    assert.equal(shown.deleted_at, today());
    assert.equal(shown.revision, 2); // deleting is not a revision

    const reused = await createProject(server, { slugs: [s2, s1] });
    assert.notEqual(reused.uuid, project.uuid);
    assert.equal((await server.api.get(`/projects/${s1}`, admin)).body.uuid, reused.uuid);
  });
});

describe('deleting a project that time entries use', () => {
  it('is refused with kind 10 while a live time uses it, allowed once that time is deleted', async () => {
    const project = await createProject(server, { users: { admin: { member: true } } });
    const slug = project.slugs[0];
    const time = await server.api.post('/times', admin, {
      duration: 3600,
      user: 'admin',
      project: slug,
      activities: [(await createActivity(server)).slug],
      date_worked: '2024-01-02',
    });
    assert.equal(time.status, 200, time.text);
    const refusedDelete = await server.api.del(`/projects/${slug}`, admin);
    assert.equal(refusedDelete.status, 405);
    assert.equal(refusedDelete.headers.get('allow'), 'GET, POST');
    assert.deepEqual(refusedDelete.body, requestFailureBody('project'));
    assert.equal((await server.api.get(`/projects/${slug}`, admin)).body.deleted_at, null);

    assert.equal((await server.api.del(`/times/${time.body.uuid}`, admin)).status, 200);
    assert.equal((await server.api.del(`/projects/${slug}`, admin)).status, 200);
  });
});

describe('two server processes on one database file', () => {
  it('let exactly one of two simultaneous creates of a slug win across processes', async () => {
    // A second process serving the same file, with the same key and instance name, so the
    // admin token works on both (SPEC §2.3: one instance).
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'serve', '--port', '0', '--db', server.dbFile],
      {
        cwd: join(__dirname, '../../..'),
        env: {
          ...process.env,
          TIMETRACK_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
          TIMETRACK_INSTANCE_NAME: 'timesync',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.on('close', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          const match = /"url":"([^"]+)"/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.on('close', () => reject(new Error(`second server exited: ${out}`)));
        setTimeout(() => reject(new Error(`second server did not start: ${out}`)), 20_000).unref();
      });
      const other = createApi(url);
      for (let round = 0; round < 10; round++) {
        const slug = uniqueSlug('xproc');
        const replies = await Promise.all([
          server.api.post('/projects', admin, { name: 'Here', slugs: [slug] }),
          other.post('/projects', admin, { name: 'There', slugs: [slug] }),
          server.api.post('/activities', admin, { name: 'Here', slug }),
          other.post('/activities', admin, { name: 'There', slug }),
        ]);
        const statuses = replies.map((r) => r.status);
        assert.deepEqual(statuses.slice(0, 2).sort(), [200, 409], JSON.stringify(replies[0]?.body));
        assert.deepEqual(statuses.slice(2).sort(), [200, 409]);
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
