// A user's optional IANA time zone (issue 31): `timezone` in the user object, null until
// set, settable by the user and by admins (not by site managers for others), cleared by
// null or '', kind 4 for a name that is no time zone, writing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorizationBody, badObjectBody } from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let admin: string;
let sitemgr: TestUser;

before(async () => {
  server = await startTestServer({ env: { TIMETRACK_WEB: 'false' } });
  admin = server.adminToken;
  sitemgr = await createUser(server, { site_manager: true });
});
after(() => server.close());

const zoneOf = async (username: string) => {
  const res = await server.api.get(`/users/${username}`, admin);
  assert.equal(res.status, 200, res.text);
  return res.body.timezone as string | null;
};
const setZone = (token: string, username: string, timezone: unknown) =>
  server.api.post(`/users/${username}`, token, { timezone });

describe("a user's timezone", () => {
  it('is null on a new user, in GET and in the list', async () => {
    const user = await createUser(server);
    assert.equal(await zoneOf(user.username), null);
    const list = await server.api.get('/users', admin);
    const shown = (list.body as { username: string; timezone: unknown }[]).find(
      (u) => u.username === user.username,
    );
    assert.deepEqual(shown?.timezone, null);
  });

  it('is set by the user themselves, kept as sent, and cleared by null or ""', async () => {
    const user = await createUser(server);
    for (const zone of ['Europe/Berlin', 'America/St_Johns', 'Asia/Kathmandu', 'UTC']) {
      const res = await setZone(user.token, user.username, zone);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.timezone, zone);
      assert.equal(await zoneOf(user.username), zone);
    }
    assert.equal((await setZone(user.token, user.username, null)).body.timezone, null);
    await setZone(user.token, user.username, 'Europe/Lisbon');
    assert.equal((await setZone(user.token, user.username, '')).body.timezone, null);
    assert.equal(await zoneOf(user.username), null);
  });

  it('is set by admins for anyone, on create and on update', async () => {
    const created = await server.api.post('/users', admin, {
      username: `tz-${Date.now()}`,
      timezone: 'Pacific/Auckland',
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.timezone, 'Pacific/Auckland');
    const res = await setZone(admin, created.body.username, 'Africa/Nairobi');
    assert.equal(res.status, 200, res.text);
    assert.equal(await zoneOf(created.body.username), 'Africa/Nairobi');
  });

  it("is not another user's to set for a site manager or a plain user (kind 9)", async () => {
    const target = await createUser(server);
    const plain = await createUser(server);
    const byManager = await setZone(sitemgr.token, target.username, 'Europe/Paris');
    assert.deepEqual(
      [byManager.status, byManager.body],
      [401, authorizationBody(sitemgr.username, `set timezone of user ${target.username}`)],
    );
    const byPlain = await setZone(plain.token, target.username, 'Europe/Paris');
    assert.deepEqual(
      [byPlain.status, byPlain.body],
      [401, authorizationBody(plain.username, `update user ${target.username}`)],
    );
    assert.equal(await zoneOf(target.username), null);
  });

  it('refuses a name that is no time zone with kind 4, on create and update, writing nothing', async () => {
    const user = await createUser(server);
    await setZone(user.token, user.username, 'Europe/Oslo');
    const cases: [unknown, string][] = [
      ['Mars/Olympus_Mons', 'string'],
      ['+01:00', 'string'],
      ['UTC+1', 'string'],
      ['Europe/Berlin ', 'string'],
      ['Europe', 'string'],
      ['x'.repeat(100), 'string'],
      [60, 'number'],
      [true, 'boolean'],
      [['Europe/Berlin'], 'array'],
      [{ zone: 'Europe/Berlin' }, 'object'],
    ];
    for (const [timezone, type] of cases) {
      const expected = badObjectBody(
        `Field timezone of user should be an IANA time zone but was sent as ${type}`,
      );
      const updated = await setZone(user.token, user.username, timezone);
      assert.deepEqual([updated.status, updated.body], [400, expected], String(timezone));
      const username = `tz-bad-${Math.random().toString(36).slice(2, 10)}`;
      const created = await server.api.post('/users', admin, { username, timezone });
      assert.deepEqual([created.status, created.body], [400, expected], String(timezone));
      assert.equal((await server.api.get(`/users/${username}`, admin)).status, 404);
    }
    assert.equal(await zoneOf(user.username), 'Europe/Oslo');
  });
});
