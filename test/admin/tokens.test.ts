// `timetrack admin tokens list` and `timetrack admin tokens revoke` (issue 33), run as an
// operator runs them, on the file of a running server.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertUserError, runCli } from '../helpers/cli';
import { authenticationBody } from '../helpers/errors';
import { createUser, type TestUser } from '../helpers/factories';
import { startTestServer, type TestServer, tempDir } from '../helpers/server';

describe('timetrack admin tokens', () => {
  let server: TestServer;
  let ivy: TestUser;
  let ci: { id: number; token: string };

  before(async () => {
    server = await startTestServer();
    ivy = await createUser(server, { username: 'Ivy' });
    const made = await server.api.post('/tokens', ivy.token, {
      name: 'ci',
      scope: 'read',
      expires_at: '2099-01-31',
    });
    ci = made.body as { id: number; token: string };
    await server.api.post('/tokens', ivy.token, { name: 'deploy hook', scope: 'write' });
  });
  after(() => server.close());

  it("lists a user's tokens (any letter case of the username), never a secret", async () => {
    await server.api.get('/projects', ci.token); // a last use to show
    await new Promise((r) => setTimeout(r, 50));
    const res = await runCli(['admin', 'tokens', 'list', 'ivy', '--db', server.dbFile]);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID\s+NAME\s+SCOPE\s+CREATED\s+EXPIRES\s+LAST USED \(UTC\)$/);
    assert.match(
      lines[1] ?? '',
      new RegExp(
        `^${ci.id}\\s+ci\\s+read\\s+\\d{4}-\\d\\d-\\d\\d\\s+2099-01-31\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`,
      ),
    );
    assert.match(lines[2] ?? '', /\sdeploy hook\s+write\s+\S+\s+never\s+never$/);
    assert.equal(res.stdout.includes('tt_'), false);
  });

  it('revokes a token: the running server refuses it at once', async () => {
    const res = await runCli(['admin', 'tokens', 'revoke', String(ci.id), '--db', server.dbFile]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `Revoked token ${ci.id} ('ci' of 'Ivy')\n`);
    const refused = await server.api.get('/projects', ci.token);
    assert.deepEqual(refused.body, authenticationBody('Token has been revoked'));
    const listed = await runCli(['admin', 'tokens', 'list', 'Ivy', '--db', server.dbFile]);
    assert.equal(listed.stdout.includes(' ci '), false);
  });

  it('says what is wrong in one line: unknown user, bad or unknown id', async () => {
    assertUserError(
      await runCli(['admin', 'tokens', 'list', 'nobody', '--db', server.dbFile]),
      /^timetrack: no user 'nobody'$/m,
    );
    assertUserError(
      await runCli(['admin', 'tokens', 'revoke', 'x1', '--db', server.dbFile]),
      /'x1' is not a token id/,
    );
    assertUserError(
      await runCli(['admin', 'tokens', 'revoke', String(ci.id), '--db', server.dbFile]),
      new RegExp(`no unrevoked token ${ci.id}`),
    );
    const none = await createUser(server);
    const empty = await runCli(['admin', 'tokens', 'list', none.username, '--db', server.dbFile]);
    assert.equal(empty.stdout, `'${none.username}' has no tokens\n`);
  });

  it('travels with admin export and import: the token works on the new instance', async () => {
    const made = await server.api.post('/tokens', ivy.token, { name: 'moved', scope: 'read' });
    const { token } = made.body as { token: string };
    const dir = tempDir();
    const exported = join(dir, 'export.jsonl');
    const target = join(dir, 'moved.db');
    const out = await runCli(['admin', 'export', '--db', server.dbFile, '--output', exported]);
    assert.equal(out.code, 0, out.stderr);
    const imported = await runCli(['admin', 'import', exported, '--db', target]);
    assert.equal(imported.code, 0, imported.stderr);
    const moved = await startTestServer({ dbFile: target });
    try {
      const res = await moved.api.get('/users/ivy', token);
      assert.equal(res.status, 200, res.text);
    } finally {
      await moved.close();
    }
  });
});
