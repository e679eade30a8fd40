// An unexpected exception (SPEC §7 kind 2): the client gets the generic 500 body — no
// stack trace, no SQL — the details go to the log, and the server keeps serving. The
// failure is real: another connection to the same file installs a trigger that aborts
// the server's INSERT (as a damaged or hand-edited database would).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../helpers/server';

describe('unexpected errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const outside = (sql: string) => {
    const db = new Database(server.dbFile);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
  };

  it('answers the generic 500, logs the details, and keeps serving', async () => {
    outside(`CREATE TRIGGER explode BEFORE INSERT ON org_roles
      BEGIN SELECT RAISE(ABORT, 'boom from SELECT secret FROM settings'); END`);
    const res = await server.api.post('/users/org-roles', server.adminToken, {
      name: 'Exploding',
      slug: 'exploding',
    });
    assert.equal(res.status, 500);
    assert.deepEqual(res.body, {
      status: 500,
      error: 'Server error',
      text: 'Unexpected server error',
    });
    assert.doesNotMatch(res.text, /boom|SELECT|at |\.ts/);
    const logged = server.logs.find((line) => line.includes('"unexpected error"'));
    assert.ok(logged?.includes('boom from SELECT'), 'the details are in the log');
    assert.ok(!logged?.includes(server.adminToken), 'the token is not');

    assert.equal((await server.api.raw('/health')).status, 200);
    assert.equal((await server.api.get('/users', server.adminToken)).status, 200);
    assert.equal(
      (await server.api.get('/users/org-roles/exploding', server.adminToken)).status,
      404,
      'the failed write left nothing behind',
    );
    outside('DROP TRIGGER explode');
    const again = await server.api.post('/users/org-roles', server.adminToken, {
      name: 'Exploding',
      slug: 'exploding',
    });
    assert.equal(again.status, 200, again.text);
  });

  it('never writes the token, Authorization header or passwords to the request log', async () => {
    await server.api.get('/users', server.adminToken);
    await server.api.raw('/v0/users', {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    await server.api.login('admin', 'admin-password-1');
    const all = server.logs.join('\n');
    assert.ok(!all.includes(server.adminToken.split('.')[2] as string));
    assert.ok(!all.includes('admin-password-1'));
    const line = server.logs.findLast((l) => l.includes('"path":"/v0/login"'));
    assert.ok(line, 'requests are logged');
    assert.deepEqual(Object.keys(JSON.parse(line)).sort(), [
      'client',
      'id',
      'level',
      'method',
      'ms',
      'msg',
      'path',
      'route',
      'status',
      'time',
      'user',
    ]);
  });
});
