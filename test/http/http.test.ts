import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server';

describe('HTTP conventions', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers /health without a token', async () => {
    const res = await server.api.raw('/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('answers an unknown route with 404 Nonexistent endpoint', async () => {
    const res = await server.api.get('/nowhere', server.adminToken);
    assert.deepEqual(res.body, {
      status: 404,
      error: 'Object not found',
      text: 'Nonexistent endpoint',
    });
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await server.api.del('/users', server.adminToken);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, POST');
  });

  it('refuses a body that is not JSON', async () => {
    const res = await server.api.raw('/v0/users', { method: 'POST', body: '{"auth":' });
    assert.deepEqual(res.body, {
      status: 400,
      error: 'Bad object',
      text: 'The request body could not be parsed as valid JSON',
    });
  });

  it('refuses a body over 1 MiB with 413 and writes nothing', async () => {
    const big = JSON.stringify({
      auth: { type: 'token', token: server.adminToken },
      object: { username: 'big', meta: 'x'.repeat(2 * 1024 * 1024) },
    });
    const res = await server.api.raw('/v0/users', { method: 'POST', body: big });
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, {
      status: 413,
      error: 'Bad object',
      text: 'The request body is larger than 1 MiB',
    });
    assert.equal((await server.api.get('/users/big', server.adminToken)).status, 404);
  });

  it('requires a token', async () => {
    const res = await server.api.get('/users');
    assert.deepEqual(res.body, {
      status: 401,
      error: 'Authentication failure',
      text: 'Missing credentials',
    });
  });
});
