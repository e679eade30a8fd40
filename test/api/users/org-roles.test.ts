// Organization roles (SPEC §4.5): /v0/users/org-roles[/:slug], hard delete, 405 while held.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  authenticationBody,
  authorizationBody,
  badObjectBody,
  invalidIdentifierBody,
  notFoundBody,
  requestFailureBody,
  slugExistsBody,
} from '../../helpers/errors';
import { createRole, createUser, type TestUser, uniqueSlug } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let admin: string;

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
});
after(() => server.close());

describe('org roles', () => {
  it('creates a role and answers with exactly what was sent', async () => {
    const object = { name: 'Developers', slug: 'developers' };
    const res = await server.api.post('/users/org-roles', admin, object);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, object);
    assert.deepEqual((await server.api.get('/users/org-roles/developers', admin)).body, object);
  });

  it('lists roles ordered by slug, to any authenticated user', async () => {
    const plain = await createUser(server);
    for (const slug of ['zeta-role', 'alpha-role', 'mid-role']) await createRole(server, { slug });
    const res = await server.api.get('/users/org-roles', plain.token);
    assert.equal(res.status, 200);
    const slugs = (res.body as { slug: string }[]).map((r) => r.slug);
    assert.deepEqual(slugs, [...slugs].sort());
    assert.ok(slugs.includes('alpha-role') && slugs.includes('zeta-role'));
    assert.equal(res.headers.get('x-total-count'), String(slugs.length));
    const page = await server.api.get('/users/org-roles', plain.token, { limit: 1, skip: 1 });
    assert.deepEqual(
      (page.body as { slug: string }[]).map((r) => r.slug),
      [slugs[1]],
    );
    assert.equal((await server.api.get('/users/org-roles/alpha-role', plain.token)).status, 200);
  });

  it('answers 404 for an unknown role and kind 5 for a malformed slug', async () => {
    assert.deepEqual(
      (await server.api.get('/users/org-roles/no-such-role', admin)).body,
      notFoundBody('org-role'),
    );
    for (const bad of ['Upper', '123', 'a--b']) {
      assert.deepEqual(
        (await server.api.get(`/users/org-roles/${bad}`, admin)).body,
        invalidIdentifierBody('slug', bad),
      );
      assert.deepEqual(
        (await server.api.post(`/users/org-roles/${bad}`, admin, { name: 'x' })).body,
        invalidIdentifierBody('slug', bad),
      );
      assert.deepEqual(
        (await server.api.del(`/users/org-roles/${bad}`, admin)).body,
        invalidIdentifierBody('slug', bad),
      );
    }
    assert.deepEqual(
      (await server.api.post('/users/org-roles/no-such-role', admin, { name: 'x' })).body,
      notFoundBody('org-role'),
    );
    assert.deepEqual(
      (await server.api.del('/users/org-roles/no-such-role', admin)).body,
      notFoundBody('org-role'),
    );
  });

  it('requires a token', async () => {
    assert.deepEqual(
      (await server.api.get('/users/org-roles')).body,
      authenticationBody('Missing credentials'),
    );
  });

  it('renames slug and name; holders report the new slug at once', async () => {
    const role = await createRole(server);
    const holder = await createUser(server, { 'org-roles': [role.slug] });
    const renamed = uniqueSlug('renamed');
    const res = await server.api.post(`/users/org-roles/${role.slug}`, admin, {
      slug: renamed,
      name: `Renamed ${renamed}`,
    });
    assert.deepEqual(res.body, { name: `Renamed ${renamed}`, slug: renamed });
    assert.deepEqual((await server.api.get(`/users/${holder.username}`, admin)).body['org-roles'], [
      renamed,
    ]);
    const filtered = await server.api.get('/users', admin, { role: renamed });
    assert.deepEqual(
      (filtered.body as { username: string }[]).map((u) => u.username),
      [holder.username],
    );
    assert.deepEqual(
      (await server.api.get(`/users/org-roles/${role.slug}`, admin)).body,
      notFoundBody('org-role'),
    );
    const nameOnly = await server.api.post(`/users/org-roles/${renamed}`, admin, { name: 'N2' });
    assert.deepEqual(nameOnly.body, { name: 'N2', slug: renamed });
    const same = await server.api.post(`/users/org-roles/${renamed}`, admin, {
      name: 'N2',
      slug: renamed,
    });
    assert.equal(same.status, 200, 'sending its own name and slug back is not a duplicate');
  });

  it('hard-deletes a role nobody holds; its name and slug are free again', async () => {
    const role = await createRole(server);
    const res = await server.api.del(`/users/org-roles/${role.slug}`, admin);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.deepEqual(
      (await server.api.get(`/users/org-roles/${role.slug}`, admin)).body,
      notFoundBody('org-role'),
    );
    const again = await server.api.post('/users/org-roles', admin, role);
    assert.deepEqual(again.body, role);
  });

  it('refuses to delete a role still held, also by a deleted user (405, Allow)', async () => {
    const role = await createRole(server);
    const holder = await createUser(server, { 'org-roles': [role.slug] });
    const held = await server.api.del(`/users/org-roles/${role.slug}`, admin);
    assert.equal(held.status, 405);
    assert.equal(held.headers.get('allow'), 'GET, POST');
    assert.deepEqual(held.body, requestFailureBody('org-role'));

    await server.api.del(`/users/${holder.username}`, admin);
    const byDeleted = await server.api.del(`/users/org-roles/${role.slug}`, admin);
    assert.deepEqual(byDeleted.body, requestFailureBody('org-role'));

    await server.api.post(`/users/${holder.username}`, admin, { 'org-roles': [] });
    assert.equal((await server.api.del(`/users/org-roles/${role.slug}`, admin)).status, 200);
  });

  it('refuses a duplicate slug (kind 8) and a duplicate name (kind 4)', async () => {
    const a = await createRole(server);
    const b = await createRole(server);
    assert.deepEqual(
      (await server.api.post('/users/org-roles', admin, { name: 'Fresh Name', slug: a.slug })).body,
      slugExistsBody(a.slug),
    );
    assert.deepEqual(
      (await server.api.post('/users/org-roles', admin, { name: a.name, slug: uniqueSlug() })).body,
      badObjectBody(`Org-role name ${a.name} already exists`),
    );
    assert.deepEqual(
      (await server.api.post(`/users/org-roles/${b.slug}`, admin, { slug: a.slug })).body,
      slugExistsBody(a.slug),
    );
    assert.deepEqual(
      (await server.api.post(`/users/org-roles/${b.slug}`, admin, { name: a.name })).body,
      badObjectBody(`Org-role name ${a.name} already exists`),
    );
    assert.deepEqual((await server.api.get(`/users/org-roles/${b.slug}`, admin)).body, b);
  });

  it('refuses malformed objects (kind 4)', async () => {
    const cases: [unknown, string][] = [
      [{ slug: uniqueSlug() }, 'The org-role is missing a name'],
      [{ name: 'No Slug' }, 'The org-role is missing a slug'],
      [
        { name: 'x', slug: 'Bad_Slug' },
        'Field slug of org-role should be slug but was sent as string',
      ],
      [{ name: 'x', slug: 5 }, 'Field slug of org-role should be slug but was sent as number'],
      [
        { name: '', slug: uniqueSlug() },
        'Field name of org-role should be string of 1 to 255 characters but was sent as string',
      ],
      [
        { name: 'x'.repeat(256), slug: uniqueSlug() },
        'Field name of org-role should be string of 1 to 255 characters but was sent as string',
      ],
      [{ name: 'x', slug: uniqueSlug(), id: 3 }, 'org-role does not have a id field'],
    ];
    for (const [object, text] of cases) {
      const res = await server.api.post('/users/org-roles', admin, object);
      assert.deepEqual(res.body, badObjectBody(text), text);
    }
    const role = await createRole(server);
    assert.deepEqual(
      (await server.api.post(`/users/org-roles/${role.slug}`, admin, { name: null })).body,
      badObjectBody(
        'Field name of org-role should be string of 1 to 255 characters but was sent as null',
      ),
    );
  });

  describe('permissions', () => {
    let manager: TestUser;
    let plain: TestUser;
    let spectator: TestUser;
    before(async () => {
      manager = await createUser(server, { site_manager: true });
      plain = await createUser(server);
      spectator = await createUser(server, { site_spectator: true });
    });

    it('site managers create, update and delete roles', async () => {
      const role = await createRole(server, {}, manager.token);
      const res = await server.api.post(`/users/org-roles/${role.slug}`, manager.token, {
        name: `${role.name} 2`,
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(
        (await server.api.del(`/users/org-roles/${role.slug}`, manager.token)).status,
        200,
      );
    });

    it('plain users and site spectators get kind 9', async () => {
      const role = await createRole(server);
      for (const actor of [plain, spectator]) {
        assert.deepEqual(
          (
            await server.api.post('/users/org-roles', actor.token, {
              name: 'N',
              slug: uniqueSlug(),
            })
          ).body,
          authorizationBody(actor.username, 'create org-roles'),
        );
        assert.deepEqual(
          (await server.api.post(`/users/org-roles/${role.slug}`, actor.token, { name: 'N' })).body,
          authorizationBody(actor.username, `update org-role ${role.slug}`),
        );
        assert.deepEqual(
          (await server.api.del(`/users/org-roles/${role.slug}`, actor.token)).body,
          authorizationBody(actor.username, `delete org-role ${role.slug}`),
        );
      }
      assert.deepEqual((await server.api.get(`/users/org-roles/${role.slug}`, admin)).body, role);
    });

    it('a refused caller learns nothing about duplicates (kind 9 before kind 8)', async () => {
      const role = await createRole(server);
      assert.deepEqual(
        (await server.api.post('/users/org-roles', plain.token, role)).body,
        authorizationBody(plain.username, 'create org-roles'),
      );
    });
  });
});
