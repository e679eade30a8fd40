// CORS (SPEC §1): any origin by default; TIMETRACK_CORS_ORIGINS narrows it. Browsers
// must be able to read errors and the paging headers too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server';

const preflight = (server: TestServer, origin: string) =>
  server.api.raw('/v0/users', {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type, authorization',
    },
  });

describe('CORS, default: any origin', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('allows any origin on answers and errors, exposing the paging and replay headers', async () => {
    const ok = await server.api.raw(`/v0/users?token=${server.adminToken}`, {
      headers: { Origin: 'https://app.example' },
    });
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    assert.equal(
      ok.headers.get('access-control-expose-headers'),
      'X-Total-Count, Link, Retry-After, Idempotent-Replayed',
    );
    const error = await server.api.raw('/v0/users', { headers: { Origin: 'https://app.example' } });
    assert.equal(error.status, 401);
    assert.equal(error.headers.get('access-control-allow-origin'), '*');
  });

  it('answers a preflight with the methods and headers clients send', async () => {
    const res = await preflight(server, 'https://app.example');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(
      res.headers.get('access-control-allow-methods'),
      'GET, POST, PUT, DELETE, OPTIONS',
    );
    assert.equal(
      res.headers.get('access-control-allow-headers'),
      'Content-Type, Authorization, Idempotency-Key',
    );
  });

  it('adds nothing to requests without an Origin', async () => {
    const res = await server.api.raw('/health');
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS, TIMETRACK_CORS_ORIGINS set', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_CORS_ORIGINS: 'https://a.example, https://b.example' },
    });
  });
  after(() => server.close());

  it('echoes a listed origin (with Vary: Origin) and allows no other', async () => {
    for (const origin of ['https://a.example', 'https://b.example']) {
      const res = await preflight(server, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
    const other = await preflight(server, 'https://evil.example');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const get = await server.api.raw(`/v0/users?token=${server.adminToken}`, {
      headers: { Origin: 'https://evil.example' },
    });
    assert.equal(get.status, 200, 'the request itself is served; the browser withholds it');
    assert.equal(get.headers.get('access-control-allow-origin'), null);
  });
});
