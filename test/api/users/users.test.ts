// Users (SPEC §4.4, §3 rows for users, §5 soft delete and restore) through real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  authenticationBody,
  authorizationBody,
  badObjectBody,
  badQueryBody,
  foreignKeyBody,
  invalidIdentifierBody,
  invalidUsernameBody,
  notFoundBody,
  usernameExistsBody,
} from '../../helpers/errors';
import { createRole, createUser, type TestUser } from '../../helpers/factories';
import { bcryptHash, startTestServer, type TestServer } from '../../helpers/server';

const USER_FIELDS = [
  'active',
  'created_at',
  'deleted_at',
  'display_name',
  'email',
  'meta',
  'org-roles',
  'site_admin',
  'site_manager',
  'site_spectator',
  'timezone',
  'updated_at',
  'username',
];
const today = () => new Date().toISOString().slice(0, 10);

let server: TestServer;
let admin: string;
let counter = 0;
const name = (prefix = 'u') => `${prefix}${++counter}x${process.pid % 1000}`;

before(async () => {
  server = await startTestServer();
  admin = server.adminToken;
});
after(() => server.close());

describe('creating users', () => {
  it('returns the full object, exactly as GET shows it, without the password', async () => {
    const role = (await createRole(server)).slug;
    const username = name('Full');
    const res = await server.api.post('/users', admin, {
      username,
      display_name: 'Full Name',
      password: bcryptHash('pw-full'),
      email: 'full@example.com',
      'org-roles': [role],
      site_spectator: true,
      meta: 'notes about them',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      username,
      display_name: 'Full Name',
      email: 'full@example.com',
      'org-roles': [role],
      site_spectator: true,
      site_manager: false,
      site_admin: false,
      active: true,
      meta: 'notes about them',
      timezone: null,
      created_at: today(),
      updated_at: null,
      deleted_at: null,
    });
    assert.ok(!res.text.includes('$2a$'), 'the hash is never echoed');
    const got = await server.api.get(`/users/${username}`, admin);
    assert.deepEqual(got.body, res.body);
  });

  it('fills every field with its default (null, false, [], active) when only a username is sent', async () => {
    const username = name();
    const res = await server.api.post('/users', admin, { username });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), USER_FIELDS);
    assert.equal(res.body.display_name, null);
    assert.equal(res.body.email, null);
    assert.equal(res.body.meta, null);
    assert.deepEqual(res.body['org-roles'], []);
    assert.equal(res.body.active, true);
    assert.equal(res.body.site_admin, false);
  });

  it('accepts `displayname` on create and answers with display_name', async () => {
    const res = await server.api.post('/users', admin, {
      username: name(),
      displayname: 'Spelled The Interface Way',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.display_name, 'Spelled The Interface Way');
    assert.ok(!('displayname' in res.body));
  });

  it('keeps the created case and matches usernames case-insensitively', async () => {
    const username = name('MiXeD');
    await server.api.post('/users', admin, { username, password: bcryptHash('pw-mixed') });
    const got = await server.api.get(`/users/${username.toUpperCase()}`, admin);
    assert.equal(got.status, 200);
    assert.equal(got.body.username, username);
    const token = await server.api.login(username.toLowerCase(), 'pw-mixed');
    const updated = await server.api.post(`/users/${username.toLowerCase()}`, token, {
      display_name: 'me',
    });
    assert.equal(updated.body.username, username);
  });

  it('refuses a username that exists in any case, even a deleted one (kind 12)', async () => {
    const username = name('Taken');
    await server.api.post('/users', admin, { username });
    const again = await server.api.post('/users', admin, { username: username.toLowerCase() });
    assert.deepEqual(again.body, usernameExistsBody(username.toLowerCase()));

    const gone = name('Gone');
    await server.api.post('/users', admin, { username: gone });
    assert.equal((await server.api.del(`/users/${gone}`, admin)).status, 200);
    const reuse = await server.api.post('/users', admin, { username: gone.toUpperCase() });
    assert.deepEqual(reuse.body, usernameExistsBody(gone.toUpperCase()));
  });

  it('refuses invalid usernames and `org-roles` with kind 6', async () => {
    for (const bad of [
      'has space',
      'a'.repeat(65),
      'sl/ash',
      'ümlaut',
      '',
      'org-roles',
      'Org-Roles',
    ]) {
      const res = await server.api.post('/users', admin, { username: bad });
      assert.deepEqual(res.body, invalidUsernameBody(bad), bad);
    }
    const longest = 'a.b_c~d-'.repeat(8);
    assert.equal((await server.api.post('/users', admin, { username: longest })).status, 200);
  });

  it('accepts a bcrypt-shaped password and refuses anything else', async () => {
    for (const hash of [
      bcryptHash('shape'),
      bcryptHash('shape').replace('$2a$', '$2b$'),
      bcryptHash('shape').replace('$2a$', '$2y$'),
    ]) {
      assert.equal(
        (await server.api.post('/users', admin, { username: name(), password: hash })).status,
        200,
      );
    }
    const text = 'Field password of user should be bcrypt hash but was sent as';
    for (const [password, type] of [
      ['plain-text-password', 'string'],
      [bcryptHash('shape').replace('$04$', '$03$'), 'string'],
      [`${bcryptHash('shape')}x`, 'string'],
      [42, 'number'],
      [true, 'boolean'],
    ] as const) {
      const res = await server.api.post('/users', admin, { username: name(), password });
      assert.deepEqual(res.body, badObjectBody(`${text} ${type}`), String(password));
    }
  });

  it('logs in with the password whose hash the client sent', async () => {
    const user = await createUser(server);
    assert.match(user.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('refuses unknown fields, server-made fields and wrong types (kind 4)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: name(), colour: 'red' }, 'user does not have a colour field'],
      [{ username: name(), created_at: '2020-01-01' }, 'user does not have a created_at field'],
      [{ username: name(), deleted_at: null }, 'user does not have a deleted_at field'],
      [{ display_name: 'no name' }, 'The user is missing a username'],
      [{ username: 7 }, 'Field username of user should be username but was sent as number'],
      [
        { username: name(), site_admin: 'yes' },
        'Field site_admin of user should be boolean but was sent as string',
      ],
      [
        { username: name(), email: 'not-an-email' },
        'Field email of user should be email address but was sent as string',
      ],
      [
        { username: name(), display_name: 12 },
        'Field display_name of user should be string of at most 255 characters but was sent as number',
      ],
      [
        { username: name(), display_name: 'x'.repeat(256) },
        'Field display_name of user should be string of at most 255 characters but was sent as string',
      ],
      [
        { username: name(), 'org-roles': 'admins' },
        'Field org-roles of user should be array of org-role slugs but was sent as string',
      ],
      [
        { username: name(), 'org-roles': ['Not A Slug'] },
        'Field org-roles of user should be array of org-role slugs but was sent as array',
      ],
    ];
    for (const [object, text] of cases) {
      const res = await server.api.post('/users', admin, object);
      assert.deepEqual(res.body, badObjectBody(text), text);
    }
    const noObject = await server.api.raw('/v0/users', {
      method: 'POST',
      body: JSON.stringify({ auth: { type: 'token', token: admin } }),
    });
    assert.deepEqual(noObject.body, badObjectBody('The request is missing a object'));
  });

  it('refuses an org-role that does not exist (kind 3) and writes nothing', async () => {
    const username = name();
    const res = await server.api.post('/users', admin, { username, 'org-roles': ['no-such-role'] });
    assert.deepEqual(res.body, foreignKeyBody('user', 'org-role'));
    assert.deepEqual(
      (await server.api.get(`/users/${username}`, admin)).body,
      notFoundBody('user'),
    );
  });
});

describe('reading users', () => {
  it('lists users ordered by last change and shows every field', async () => {
    const res = await server.api.get('/users', admin);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    assert.equal(res.headers.get('x-total-count'), String(res.body.length));
    for (const u of res.body) {
      assert.deepEqual(Object.keys(u).sort(), USER_FIELDS);
      assert.equal(u.deleted_at, null);
    }
    assert.equal(res.body[0].username, 'admin');
    assert.ok(!res.text.includes('password'));
  });

  it('moves a user to the end of the list when it changes', async () => {
    const first = (await server.api.get('/users', admin)).body[0].username as string;
    await server.api.post(`/users/${first}`, admin, { meta: 'touched' });
    const after = (await server.api.get('/users', admin)).body as { username: string }[];
    assert.equal(after.at(-1)?.username, first);
  });

  it('answers any authenticated user, not only admins', async () => {
    const plain = await createUser(server);
    assert.equal((await server.api.get('/users', plain.token)).status, 200);
    assert.equal((await server.api.get(`/users/${plain.username}`, plain.token)).status, 200);
    assert.equal((await server.api.get('/users/admin', plain.token)).status, 200);
  });

  it('answers 404 for an unknown user and kind 5 for a malformed username', async () => {
    assert.deepEqual(
      (await server.api.get('/users/nobody-here', admin)).body,
      notFoundBody('user'),
    );
    const bad = await server.api.get('/users/bad%20name', admin);
    assert.deepEqual(bad.body, invalidIdentifierBody('username', 'bad name'));
  });

  it('filters by org role, repeatable as OR', async () => {
    const [r1, r2, r3] = [
      (await createRole(server)).slug,
      (await createRole(server)).slug,
      (await createRole(server)).slug,
    ];
    const a = (await createUser(server, { 'org-roles': [r1] })).username;
    const b = (await createUser(server, { 'org-roles': [r2, r1] })).username;
    const c = (await createUser(server, { 'org-roles': [r3] })).username;
    const names = async (roles: string[]) =>
      ((await server.api.get('/users', admin, { role: roles })).body as { username: string }[])
        .map((u) => u.username)
        .sort();
    assert.deepEqual(await names([r1]), [a, b].sort());
    assert.deepEqual(await names([r2]), [b]);
    assert.deepEqual(await names([r2, r3]), [b, c].sort());
    const one = await server.api.get(`/users/${b}`, admin);
    assert.deepEqual(one.body['org-roles'], [r1, r2].sort(), 'held roles listed by slug');
  });

  it('answers kind 11 for an unknown or malformed role and a bad include_deleted', async () => {
    assert.deepEqual(
      (await server.api.get('/users', admin, { role: 'no-such-role' })).body,
      badQueryBody('role', 'no-such-role'),
    );
    assert.deepEqual(
      (await server.api.get('/users', admin, { role: 'Not_A_Slug' })).body,
      badQueryBody('role', 'Not_A_Slug'),
    );
    assert.deepEqual(
      (await server.api.get('/users', admin, { include_deleted: 'maybe' })).body,
      badQueryBody('include_deleted', 'maybe'),
    );
    assert.deepEqual(
      (await server.api.get('/users/admin', admin, { include_deleted: 'yes' })).body,
      badQueryBody('include_deleted', 'yes'),
    );
  });
});

describe('updating users', () => {
  it('changes only the fields sent; null clears, an empty email is null', async () => {
    const role = (await createRole(server)).slug;
    const { username } = await createUser(server, {
      display_name: 'Before',
      email: 'before@example.com',
      meta: 'm',
      'org-roles': [role],
    });
    const res = await server.api.post(`/users/${username}`, admin, { display_name: 'After' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.display_name, 'After');
    assert.equal(res.body.email, 'before@example.com');
    assert.equal(res.body.meta, 'm');
    assert.deepEqual(res.body['org-roles'], [role]);
    assert.equal(res.body.updated_at, today());
    assert.deepEqual((await server.api.get(`/users/${username}`, admin)).body, res.body);

    const cleared = await server.api.post(`/users/${username}`, admin, {
      email: '',
      meta: null,
      display_name: '',
    });
    assert.equal(cleared.body.email, null);
    assert.equal(cleared.body.meta, null);
    assert.equal(cleared.body.display_name, '');
  });

  it('replaces org-roles; [] and null clear them, omitting keeps them', async () => {
    const [r1, r2] = [(await createRole(server)).slug, (await createRole(server)).slug];
    const { username } = await createUser(server, { 'org-roles': [r1] });
    const path = `/users/${username}`;
    assert.deepEqual(
      (await server.api.post(path, admin, { 'org-roles': [r2] })).body['org-roles'],
      [r2],
    );
    assert.deepEqual((await server.api.post(path, admin, { meta: 'x' })).body['org-roles'], [r2]);
    assert.deepEqual(
      (await server.api.post(path, admin, { 'org-roles': [] })).body['org-roles'],
      [],
    );
    await server.api.post(path, admin, { 'org-roles': [r1, r2] });
    assert.deepEqual(
      (await server.api.post(path, admin, { 'org-roles': null })).body['org-roles'],
      [],
    );
  });

  it('refuses username, unknown fields and wrong types on update (kind 4)', async () => {
    const { username } = await createUser(server);
    const path = `/users/${username}`;
    assert.deepEqual(
      (await server.api.post(path, admin, { username: 'other' })).body,
      badObjectBody('user does not have a username field'),
    );
    assert.deepEqual(
      (await server.api.post(path, admin, { displayname: 'x' })).body,
      badObjectBody('user does not have a displayname field'),
    );
    assert.deepEqual(
      (await server.api.post(path, admin, { active: 1 })).body,
      badObjectBody('Field active of user should be boolean but was sent as number'),
    );
    assert.deepEqual(
      (await server.api.post(path, admin, { password: 'plain' })).body,
      badObjectBody('Field password of user should be bcrypt hash but was sent as string'),
    );
    assert.deepEqual(
      (await server.api.post(path, admin, { 'org-roles': ['nope-role'] })).body,
      foreignKeyBody('user', 'org-role'),
    );
  });

  it('answers 404 for an unknown user and kind 5 for a malformed one', async () => {
    assert.deepEqual(
      (await server.api.post('/users/nobody-at-all', admin, { meta: 'x' })).body,
      notFoundBody('user'),
    );
    assert.deepEqual(
      (await server.api.post('/users/a%2Fb', admin, { meta: 'x' })).body,
      invalidIdentifierBody('username', 'a/b'),
    );
  });

  it('lets users change their own password, and the new one logs in', async () => {
    const user = await createUser(server);
    const res = await server.api.post(`/users/${user.username}`, user.token, {
      password: bcryptHash('a-new-password'),
    });
    assert.equal(res.status, 200, res.text);
    assert.ok(!res.text.includes('$2a$'));
    await server.api.login(user.username, 'a-new-password');
    await assert.rejects(server.api.login(user.username, user.password));
  });
});

describe('deleting and restoring users', () => {
  it('soft-deletes: 200 empty, hidden unless include_deleted, inactive', async () => {
    const { username } = await createUser(server);
    const res = await server.api.del(`/users/${username}`, admin);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.deepEqual(
      (await server.api.get(`/users/${username}`, admin)).body,
      notFoundBody('user'),
    );
    const shown = await server.api.get(`/users/${username}`, admin, { include_deleted: true });
    assert.equal(shown.body.deleted_at, today());
    assert.equal(shown.body.active, false);
    const live = (await server.api.get('/users', admin)).body as { username: string }[];
    assert.ok(!live.some((u) => u.username === username));
    const all = (await server.api.get('/users', admin, { include_deleted: '' })).body as {
      username: string;
    }[];
    assert.ok(all.some((u) => u.username === username));
    assert.deepEqual(
      (await server.api.del(`/users/${username}`, admin)).body,
      notFoundBody('user'),
    );
  });

  it('shuts a deleted user out: no login, and their token stops working', async () => {
    const user = await createUser(server);
    await server.api.del(`/users/${user.username}`, admin);
    const login = await server.api.raw('/v0/login', {
      method: 'POST',
      body: JSON.stringify({
        auth: { type: 'password', username: user.username, password: user.password },
      }),
    });
    assert.deepEqual(login.body, authenticationBody('Invalid username or password'));
    const res = await server.api.get('/users', user.token);
    assert.deepEqual(res.body, authenticationBody('Invalid token'));
  });

  it("restores a deleted user on an admin's update, with the changes sent", async () => {
    const user = await createUser(server);
    await server.api.del(`/users/${user.username}`, admin);
    const res = await server.api.post(`/users/${user.username}`, admin, { meta: 'back' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.deleted_at, null);
    assert.equal(res.body.active, true);
    assert.equal(res.body.meta, 'back');
    await server.api.login(user.username, user.password);
  });

  it('does not let a site manager see or restore a deleted user by update', async () => {
    const manager = await createUser(server, { site_manager: true });
    const { username } = await createUser(server);
    await server.api.del(`/users/${username}`, admin);
    const res = await server.api.post(`/users/${username}`, manager.token, { meta: 'x' });
    assert.deepEqual(res.body, notFoundBody('user'));
  });

  it('inactive users (active false) cannot log in; reactivating lets them', async () => {
    const user = await createUser(server);
    await server.api.post(`/users/${user.username}`, admin, { active: false });
    await assert.rejects(server.api.login(user.username, user.password));
    assert.deepEqual(
      (await server.api.get('/users', user.token)).body,
      authenticationBody('Invalid token'),
    );
    await server.api.post(`/users/${user.username}`, admin, { active: true });
    await server.api.login(user.username, user.password);
  });
});

describe('who may write users (SPEC §3)', () => {
  let manager: TestUser;
  let plain: TestUser;
  before(async () => {
    manager = await createUser(server, { site_manager: true });
    plain = await createUser(server);
  });

  it('admins may set every field and flag, their own included', async () => {
    const other = await createUser(server, { site_admin: true });
    const res = await server.api.post('/users', admin, {
      username: name(),
      site_admin: true,
      site_manager: true,
      site_spectator: true,
      active: false,
    });
    assert.equal(res.status, 200, res.text);
    const self = await server.api.post(`/users/${other.username}`, other.token, {
      site_manager: true,
      site_spectator: true,
      site_admin: false,
    });
    assert.equal(self.status, 200, self.text);
    assert.equal(self.body.site_admin, false);
  });

  it('site managers create users with a password and site_spectator, not other flags', async () => {
    const ok = await server.api.post('/users', manager.token, {
      username: name(),
      password: bcryptHash('by-manager'),
      site_spectator: true,
      site_manager: false,
    });
    assert.equal(ok.status, 200, ok.text);
    for (const flag of ['site_manager', 'site_admin'] as const) {
      const res = await server.api.post('/users', manager.token, {
        username: name(),
        [flag]: true,
      });
      assert.deepEqual(res.body, authorizationBody(manager.username, `set ${flag} of new users`));
    }
    const inactive = await server.api.post('/users', manager.token, {
      username: name(),
      active: false,
    });
    assert.deepEqual(inactive.body, authorizationBody(manager.username, 'set active of new users'));
  });

  it("site managers set others' profile and site_spectator, never their password or other flags", async () => {
    const role = (await createRole(server)).slug;
    const target = await createUser(server);
    const path = `/users/${target.username}`;
    const ok = await server.api.post(path, manager.token, {
      site_spectator: true,
      display_name: 'Set By Manager',
      email: 'm@example.com',
      meta: 'meta',
      'org-roles': [role],
    });
    assert.equal(ok.status, 200, ok.text);
    const who = `user ${target.username}`;
    for (const [object, field] of [
      [{ password: bcryptHash('stolen') }, 'password'],
      [{ site_manager: true }, 'site_manager'],
      [{ site_admin: true }, 'site_admin'],
      [{ active: false }, 'active'],
    ] as const) {
      const res = await server.api.post(path, manager.token, object);
      assert.deepEqual(res.body, authorizationBody(manager.username, `set ${field} of ${who}`));
    }
    await server.api.login(target.username, target.password); // password unchanged
  });

  it('site managers may not change their own flags but may edit their profile', async () => {
    const path = `/users/${manager.username}`;
    const res = await server.api.post(path, manager.token, { site_spectator: true });
    assert.deepEqual(
      res.body,
      authorizationBody(manager.username, `set site_spectator of user ${manager.username}`),
    );
    const demote = await server.api.post(path, manager.token, { site_manager: false });
    assert.deepEqual(
      demote.body,
      authorizationBody(manager.username, `set site_manager of user ${manager.username}`),
    );
    const echo = await server.api.post(path, manager.token, { site_manager: true, meta: 'me' });
    assert.equal(echo.status, 200, 'sending an unchanged flag back is not a change');
  });

  it('plain users update only their own profile and password', async () => {
    const self = await server.api.post(`/users/${plain.username}`, plain.token, {
      display_name: 'Me Myself',
      email: 'me@example.com',
      meta: 'about me',
    });
    assert.equal(self.status, 200, self.text);
    for (const flag of ['site_spectator', 'site_manager', 'site_admin', 'active'] as const) {
      const res = await server.api.post(`/users/${plain.username}`, plain.token, {
        [flag]: flag !== 'active',
      });
      assert.deepEqual(
        res.body,
        authorizationBody(plain.username, `set ${flag} of user ${plain.username}`),
      );
    }
    const other = await server.api.post(`/users/${manager.username}`, plain.token, { meta: 'x' });
    assert.deepEqual(
      other.body,
      authorizationBody(plain.username, `update user ${manager.username}`),
    );
    const create = await server.api.post('/users', plain.token, { username: name() });
    assert.deepEqual(create.body, authorizationBody(plain.username, 'create users'));
  });

  it('only admins delete users', async () => {
    const target = await createUser(server);
    for (const actor of [plain, manager]) {
      const res = await server.api.del(`/users/${target.username}`, actor.token);
      assert.deepEqual(
        res.body,
        authorizationBody(actor.username, `delete user ${target.username}`),
      );
    }
    assert.equal((await server.api.get(`/users/${target.username}`, admin)).body.deleted_at, null);
  });

  it('checks the body (kind 4) and foreign keys (kind 3) before permission (kind 9)', async () => {
    const unknown = await server.api.post(`/users/${manager.username}`, plain.token, { bogus: 1 });
    assert.deepEqual(unknown.body, badObjectBody('user does not have a bogus field'));
    const role = await server.api.post('/users', plain.token, {
      username: name(),
      'org-roles': ['missing-role'],
    });
    assert.deepEqual(role.body, foreignKeyBody('user', 'org-role'));
    const dup = await server.api.post('/users', plain.token, { username: 'admin' });
    assert.deepEqual(dup.body, authorizationBody(plain.username, 'create users'));
  });
});
