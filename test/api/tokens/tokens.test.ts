// Personal API tokens (issue 33) through real HTTP: making, listing and revoking them,
// every way a TimeSync token is presented, expiry, revocation, the owner's state, what a
// personal token may never do, last_used_at, and the secret kept out of the database
// file and the log. The read scope on every write route is in
// test/api/permissions/authz-matrix.test.ts, which has a request for each.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  authenticationBody,
  authorizationBody,
  badObjectBody,
  invalidIdentifierBody,
  notFoundBody,
} from '../../helpers/errors';
import { createUser, type TestUser } from '../../helpers/factories';
import { bcryptHash, startTestServer, type TestServer } from '../../helpers/server';
import { clearOfMidnight } from '../../helpers/timer-clock';

interface NewToken {
  id: number;
  name: string;
  scope: 'read' | 'write';
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  token: string;
}

const today = () => new Date().toISOString().slice(0, 10);
const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('personal API tokens', () => {
  let server: TestServer;
  let alice: TestUser;
  let seq = 0;
  const fresh = (prefix = 'tok') => `${prefix}-${++seq}`;

  before(async () => {
    server = await startTestServer();
    alice = await createUser(server);
  });
  after(() => server.close());

  /** A new token of `owner`'s (made with the owner's login token). */
  async function makeToken(
    owner: TestUser,
    object: Record<string, unknown> = {},
  ): Promise<NewToken> {
    const res = await server.api.post('/tokens', owner.token, {
      name: fresh(),
      scope: 'write',
      ...object,
    });
    assert.equal(res.status, 200, res.text);
    return res.body as NewToken;
  }

  /** Runs `fn` on the server's database file through a connection of its own. */
  function onDb<T>(fn: (db: Database.Database) => T): T {
    const db = new Database(server.dbFile);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  describe('POST /v0/tokens', () => {
    it('answers the new token with its secret, once: GET never shows it', async () => {
      await clearOfMidnight(); // today and 30 days on, here and on the server alike
      const made = await makeToken(alice, {
        name: 'ci',
        scope: 'read',
        expires_at: daysFromNow(30),
      });
      assert.match(made.token, /^tt_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(
        { ...made, id: 0, token: '' },
        {
          id: 0,
          name: 'ci',
          scope: 'read',
          created_at: today(),
          expires_at: daysFromNow(30),
          last_used_at: null,
          token: '',
        },
      );
      const listed = (await server.api.get('/tokens', alice.token)).body as NewToken[];
      const again = listed.find((t) => t.id === made.id);
      assert.ok(again);
      assert.equal('token' in again, false);
      assert.equal(JSON.stringify(listed).includes(made.token), false);
    });

    it('takes expires_at null or left out as never', async () => {
      assert.equal((await makeToken(alice, { expires_at: null })).expires_at, null);
      assert.equal((await makeToken(alice)).expires_at, null);
    });

    it('refuses a bad object with the SPEC §7 texts, writing nothing', async () => {
      const before = (await server.api.get('/tokens', alice.token)).body as unknown[];
      const cases: [unknown, string][] = [
        [{ scope: 'read' }, 'The token is missing a name'],
        [{ name: 'x' }, 'The token is missing a scope'],
        [
          { name: '', scope: 'read' },
          'Field name of token should be string of 1 to 100 characters but was sent as string',
        ],
        [
          { name: 'x', scope: 'admin' },
          'Field scope of token should be read or write but was sent as string',
        ],
        [{ name: 'x', scope: 'read', token: 'tt_x' }, 'token does not have a token field'],
        ...[today(), daysFromNow(-3), '2030-02-30', 'tomorrow', 5].map((d): [unknown, string] => [
          { name: 'x', scope: 'read', expires_at: d },
          `Field expires_at of token should be date after today (YYYY-MM-DD) or null but was sent as ${typeof d}`,
        ]),
      ];
      for (const [object, text] of cases) {
        const res = await server.api.post('/tokens', alice.token, object);
        assert.deepEqual(res.body, badObjectBody(text), JSON.stringify(object));
      }
      assert.deepEqual((await server.api.get('/tokens', alice.token)).body, before);
    });

    it('keeps names unique per user, in any letter case, until revoked (409)', async () => {
      const bob = await createUser(server);
      const first = await makeToken(alice, { name: 'Deploy' });
      const res = await server.api.post('/tokens', alice.token, { name: 'deploy', scope: 'read' });
      assert.deepEqual(res.body, {
        status: 409,
        error: 'Token name already exists',
        text: 'Token name deploy already exists',
        values: ['deploy'],
      });
      await makeToken(bob, { name: 'deploy' }); // another user's names are theirs
      assert.equal((await server.api.del(`/tokens/${first.id}`, alice.token)).status, 200);
      await makeToken(alice, { name: 'deploy' });
    });

    it('allows at most 50 live tokens per user (kind 4); expired and revoked ones do not count', async () => {
      const carol = await createUser(server);
      const made: NewToken[] = [];
      for (let i = 0; i < 50; i++) made.push(await makeToken(carol));
      const res = await server.api.post('/tokens', carol.token, {
        name: 'one-more',
        scope: 'read',
      });
      assert.deepEqual(
        res.body,
        badObjectBody(`${carol.username} already has 50 live tokens; revoke one first`),
      );
      await server.api.del(`/tokens/${made[0]?.id}`, carol.token);
      await makeToken(carol, { name: 'after-revoke' });
      onDb((db) =>
        db
          .prepare('UPDATE personal_tokens SET expires_at = ? WHERE id = ?')
          .run(Date.now() - 1, made[1]?.id),
      );
      await makeToken(carol, { name: 'after-expiry' });
    });
  });

  describe('using a token', () => {
    it('works in every form a TimeSync token does: ?token=, the auth block, Bearer', async () => {
      const { token } = await makeToken(alice);
      const viaQuery = await server.api.get(`/users/${alice.username}`, token);
      assert.equal(viaQuery.status, 200, viaQuery.text);
      const viaBearer = await server.api.raw(`/v0/users/${alice.username}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(viaBearer.status, 200, viaBearer.text);
      const viaBlock = await server.api.post(`/users/${alice.username}`, token, {
        display_name: 'Alice by script',
      });
      assert.equal(viaBlock.status, 200, viaBlock.text);
      assert.equal((viaBlock.body as { display_name: string }).display_name, 'Alice by script');
      const bearerPost = await server.api.raw(`/v0/users/${alice.username}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ object: { display_name: 'Alice by bearer' } }),
      });
      assert.equal(bearerPost.status, 200, bearerPost.text);
      const viaDelete = await server.api.del('/timer', token);
      assert.deepEqual(viaDelete.body, notFoundBody('timer')); // authenticated: no timer runs
    });

    it("acts as its owner with the owner's current rights", async () => {
      const dave = await createUser(server);
      const { token } = await makeToken(dave);
      const refused = await server.api.post('/activities', token, { name: 'A', slug: fresh('a') });
      assert.deepEqual(refused.body, authorizationBody(dave.username, 'create activities'));
      const promoted = await server.api.post(`/users/${dave.username}`, server.adminToken, {
        site_manager: true,
      });
      assert.equal(promoted.status, 200);
      const allowed = await server.api.post('/activities', token, { name: 'A', slug: fresh('a') });
      assert.equal(allowed.status, 200, allowed.text);
    });

    it('refuses an unknown token as invalid', async () => {
      const res = await server.api.get('/projects', `tt_${'A'.repeat(43)}`);
      assert.deepEqual(res.body, authenticationBody('Invalid token'));
    });

    it('refuses every write of a read-only token (kind 9), and answers its reads', async () => {
      const { token } = await makeToken(alice, { scope: 'read' });
      assert.equal((await server.api.get('/projects', token)).status, 200);
      const res = await server.api.post(`/users/${alice.username}`, token, { display_name: 'x' });
      assert.deepEqual(
        res.body,
        authorizationBody(
          alice.username,
          `POST /v0/users/${alice.username} with a read-only token`,
        ),
      );
      const del = await server.api.del('/timer', token);
      assert.deepEqual(
        del.body,
        authorizationBody(alice.username, 'DELETE /v0/timer with a read-only token'),
      );
    });

    it('refuses an expired token: kind 7 Expired token', async () => {
      const { id, token } = await makeToken(alice, { expires_at: daysFromNow(2) });
      assert.equal((await server.api.get('/projects', token)).status, 200);
      // The clock moved past its date: 00:00 UTC of expires_at is when it ends.
      onDb((db) =>
        db
          .prepare('UPDATE personal_tokens SET expires_at = ? WHERE id = ?')
          .run(Date.now() - 1, id),
      );
      assert.deepEqual(
        (await server.api.get('/projects', token)).body,
        authenticationBody('Expired token'),
      );
    });

    it('is refused once revoked: kind 7 Token has been revoked', async () => {
      const { id, token } = await makeToken(alice);
      assert.equal((await server.api.get('/projects', token)).status, 200);
      const res = await server.api.del(`/tokens/${id}`, alice.token);
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
      assert.deepEqual(
        (await server.api.get('/projects', token)).body,
        authenticationBody('Token has been revoked'),
      );
      const listed = (await server.api.get('/tokens', alice.token)).body as NewToken[];
      assert.equal(
        listed.some((t) => t.id === id),
        false,
      );
      assert.deepEqual(
        (await server.api.del(`/tokens/${id}`, alice.token)).body,
        notFoundBody('token'),
      );
    });

    it('is refused while its owner is deactivated, and when the owner is deleted (kind 7)', async () => {
      const erin = await createUser(server);
      const { token } = await makeToken(erin);
      const admin = server.adminToken;
      await server.api.post(`/users/${erin.username}`, admin, { active: false });
      assert.deepEqual(
        (await server.api.get('/projects', token)).body,
        authenticationBody('Invalid token'),
      );
      // Refused while that lasts: reactivated, the owner's token works again.
      await server.api.post(`/users/${erin.username}`, admin, { active: true });
      assert.equal((await server.api.get('/projects', token)).status, 200);
      await server.api.del(`/users/${erin.username}`, admin);
      assert.deepEqual(
        (await server.api.get('/projects', token)).body,
        authenticationBody('Invalid token'),
      );
    });

    it('stays valid when its owner changes their password (JWTs do not)', async () => {
      const frank = await createUser(server);
      const { token } = await makeToken(frank);
      const changed = await server.api.post(`/users/${frank.username}`, server.adminToken, {
        password: bcryptHash('a-new-password'),
      });
      assert.equal(changed.status, 200);
      assert.deepEqual(
        (await server.api.get('/projects', frank.token)).body,
        authenticationBody('Token has been revoked'),
      );
      assert.equal((await server.api.get('/projects', token)).status, 200);
    });
  });

  describe('what a personal token may never do (kind 9), whatever its scope', () => {
    it('makes no tokens and revokes none, not even itself', async () => {
      const { id, token } = await makeToken(alice);
      const made = await server.api.post('/tokens', token, { name: fresh(), scope: 'read' });
      assert.deepEqual(
        made.body,
        authorizationBody(alice.username, 'create tokens with a personal token'),
      );
      const revoked = await server.api.del(`/tokens/${id}`, token);
      assert.deepEqual(
        revoked.body,
        authorizationBody(alice.username, 'revoke tokens with a personal token'),
      );
      assert.equal((await server.api.get('/projects', token)).status, 200);
    });

    it("changes no password and no site flag, even an admin's", async () => {
      const { token } = await makeToken(alice);
      const own = await server.api.post(`/users/${alice.username}`, token, {
        password: bcryptHash('taken-over'),
      });
      assert.deepEqual(
        own.body,
        authorizationBody(
          alice.username,
          `set password of user ${alice.username} with a personal token`,
        ),
      );
      await server.api.login(alice.username, alice.password); // unchanged
      const adminToken = (
        await makeToken({ ...alice, username: 'admin', token: server.adminToken })
      ).token;
      const flag = await server.api.post(`/users/${alice.username}`, adminToken, {
        site_admin: true,
      });
      assert.deepEqual(
        flag.body,
        authorizationBody(
          'admin',
          `set site_admin of user ${alice.username} with a personal token`,
        ),
      );
      const active = await server.api.post(`/users/${alice.username}`, adminToken, {
        active: false,
      });
      assert.deepEqual(
        active.body,
        authorizationBody('admin', `set active of user ${alice.username} with a personal token`),
      );
      const newAdmin = await server.api.post('/users', adminToken, {
        username: fresh('u'),
        site_admin: true,
      });
      assert.deepEqual(
        newAdmin.body,
        authorizationBody('admin', 'set site_admin of new users with a personal token'),
      );
      // A flag the owner may not set anyway keeps its usual text.
      const { token: aliceWrite } = await makeToken(alice);
      const ownFlag = await server.api.post(`/users/${alice.username}`, aliceWrite, {
        site_spectator: true,
      });
      assert.deepEqual(
        ownFlag.body,
        authorizationBody(alice.username, `set site_spectator of user ${alice.username}`),
      );
    });

    it('cannot sign itself out: POST /v0/logout is for JWTs', async () => {
      const { token } = await makeToken(alice);
      const res = await server.api.raw('/v0/logout', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.deepEqual(
        res.body,
        authorizationBody(alice.username, 'sign out with a personal token'),
      );
    });

    it('cannot be exchanged for a login token: POST /v0/login/renew', async () => {
      for (const scope of ['read', 'write'] as const) {
        const { token } = await makeToken(alice, { scope });
        const res = await server.api.raw('/v0/login/renew', {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 401, `${scope}: ${res.text}`);
        assert.deepEqual(
          res.body,
          authorizationBody(
            alice.username,
            scope === 'read'
              ? 'POST /v0/login/renew with a read-only token'
              : 'renew a session with a personal token',
          ),
        );
      }
    });
  });

  describe('GET /v0/tokens and DELETE /v0/tokens/:id', () => {
    it("lets site admins list and revoke anyone's tokens; nobody else", async () => {
      const gina = await createUser(server);
      const hank = await createUser(server);
      const made = await makeToken(gina, { name: 'g1' });
      const asAdmin = await server.api.get('/tokens', server.adminToken, { user: gina.username });
      assert.deepEqual(
        (asAdmin.body as NewToken[]).map((t) => t.name),
        ['g1'],
      );
      const asSelf = await server.api.get('/tokens', gina.token, { user: gina.username });
      assert.equal(asSelf.status, 200);
      const asOther = await server.api.get('/tokens', hank.token, { user: gina.username });
      assert.deepEqual(
        asOther.body,
        authorizationBody(hank.username, `list the tokens of ${gina.username}`),
      );
      const revokeOther = await server.api.del(`/tokens/${made.id}`, hank.token);
      assert.deepEqual(
        revokeOther.body,
        authorizationBody(hank.username, `revoke token ${made.id}`),
      );
      assert.equal((await server.api.del(`/tokens/${made.id}`, server.adminToken)).status, 200);
      assert.deepEqual(
        (await server.api.get('/projects', made.token)).body,
        authenticationBody('Token has been revoked'),
      );
    });

    it('pages the list like every list: X-Total-Count, limit and skip', async () => {
      const lena = await createUser(server);
      for (const name of ['one', 'two', 'three']) await makeToken(lena, { name });
      const page = await server.api.get('/tokens', lena.token, { limit: 2, skip: 1 });
      assert.equal(page.headers.get('x-total-count'), '3');
      assert.deepEqual(
        (page.body as NewToken[]).map((t) => t.name),
        ['two', 'three'],
      );
    });

    it('answers kind 11, 1 and 5 for a bad user or id', async () => {
      const bad = await server.api.get('/tokens', server.adminToken, { user: 'no/such' });
      assert.deepEqual(bad.body, {
        status: 400,
        error: 'Bad query value',
        text: 'Parameter user contained invalid value no/such',
      });
      const unknown = await server.api.get('/tokens', server.adminToken, { user: 'nobody-here' });
      assert.deepEqual(unknown.body, notFoundBody('user'));
      const malformed = await server.api.del('/tokens/abc', server.adminToken);
      assert.deepEqual(malformed.body, invalidIdentifierBody('token id', 'abc'));
      assert.deepEqual(
        (await server.api.del('/tokens/999999', server.adminToken)).body,
        notFoundBody('token'),
      );
    });
  });

  describe('last_used_at', () => {
    const lastUsed = async (owner: TestUser, id: number) =>
      ((await server.api.get('/tokens', owner.token)).body as NewToken[]).find((t) => t.id === id)
        ?.last_used_at;
    /** Polls until the token's last use is written (it is written after the answer). */
    async function settled(
      owner: TestUser,
      id: number,
      isDone: (v: string | null | undefined) => boolean,
    ) {
      for (let i = 0; i < 100; i++) {
        const value = await lastUsed(owner, id);
        if (isDone(value)) return value;
        await new Promise((r) => setTimeout(r, 10));
      }
      return lastUsed(owner, id);
    }

    it('is set to the minute of use, not rewritten within that minute, and moves later', async () => {
      const { id, token } = await makeToken(alice);
      assert.equal(await lastUsed(alice, id), null);
      const start = Date.now();
      await server.api.get('/projects', token);
      const first = await settled(alice, id, (v) => v !== null);
      const minute = (ms: number) => new Date(ms - (ms % 60_000)).toISOString();
      assert.ok(first === minute(start) || first === minute(Date.now()), String(first));
      // Mark the stored value (1 ms past the start of the current minute) so that any
      // rewrite would show; requests within that minute leave it alone. Should the minute
      // turn during the requests, a rewrite is allowed: that attempt proves nothing and is
      // made again in the new minute (which cannot turn again within a few requests).
      let marked = 0;
      for (let attempt = 1; ; attempt++) {
        const at = Date.now();
        marked = at - (at % 60_000) + 1;
        onDb((db) =>
          db.prepare('UPDATE personal_tokens SET last_used_at = ? WHERE id = ?').run(marked, id),
        );
        for (let i = 0; i < 5; i++) await server.api.get('/projects', token);
        await new Promise((r) => setTimeout(r, 50));
        const stored = onDb((db) =>
          db.prepare('SELECT last_used_at FROM personal_tokens WHERE id = ?').pluck().get(id),
        );
        if (minute(Date.now()) === minute(at)) {
          assert.equal(stored, marked);
          break;
        }
        assert.ok(attempt < 3, 'the minute turned during every attempt');
      }
      // Two minutes on (its stored use set back): the next use moves it.
      const earlier = marked - 1 - 120_000;
      onDb((db) =>
        db.prepare('UPDATE personal_tokens SET last_used_at = ? WHERE id = ?').run(earlier, id),
      );
      await server.api.get('/projects', token);
      const moved = await settled(alice, id, (v) => v !== new Date(earlier).toISOString());
      assert.ok(Date.parse(moved as string) > earlier + 60_000, String(moved));
    });
  });

  describe('the secret', () => {
    it('is in neither the database file (with its WAL) nor any log line', async () => {
      const { token } = await makeToken(alice, { name: 'secret-check' });
      await server.api.get('/projects', token); // ?token=
      await server.api.raw('/v0/projects', { headers: { Authorization: `Bearer ${token}` } });
      await server.api.post(`/users/${alice.username}`, token, { display_name: 'x' });
      await server.api.get('/projects', `${token}x`); // a failed one too
      const body = token.slice(3); // without the prefix, in case it is kept apart
      for (const file of [server.dbFile, `${server.dbFile}-wal`]) {
        if (!existsSync(file)) continue;
        const bytes = readFileSync(file);
        assert.equal(bytes.includes(body), false, `${file} holds the secret`);
        assert.equal(
          bytes.includes(Buffer.from(body, 'base64url')),
          false,
          `${file} holds its bytes`,
        );
      }
      assert.ok(server.logs.length > 0);
      assert.equal(
        server.logs.some((line) => line.includes(body)),
        false,
      );
    });
  });
});
