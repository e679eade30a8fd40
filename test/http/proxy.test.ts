// Behind a reverse proxy (issue 18): the request log line (route pattern, status,
// duration, request id, client address) and TIMETRACK_TRUST_PROXY, which takes the client
// address for the log and the per-address login throttle from X-Forwarded-For, and the
// request id from X-Request-Id (issue 29, item 8: from anyone else it is logged apart,
// and generated ids do not count the requests).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticationBody } from '../helpers/errors';
import { logLines, startTestServer, type TestServer } from '../helpers/server';

const INVALID = authenticationBody('Invalid username or password');
const TOO_MANY = authenticationBody('Too many failed logins; try again later');
const LIMIT = 3;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A wrong password for `username`, sent as if forwarded for `forwarded`. */
const wrongLogin = (server: TestServer, username: string, forwarded?: string) =>
  server.api.raw('/v0/login', {
    method: 'POST',
    headers: forwarded === undefined ? {} : { 'X-Forwarded-For': forwarded },
    body: JSON.stringify({ auth: { type: 'password', username, password: 'wrong-password' } }),
  });

/** The request log lines, parsed. */
const requestLines = (server: TestServer) =>
  logLines(server).filter((entry) => entry.msg === 'request');

describe('the request log line and X-Request-Id', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('logs the route pattern, status, duration, request id and client, never the token', async () => {
    const res = await server.api.get('/users/admin', server.adminToken);
    assert.equal(res.status, 200);
    const id = res.headers.get('x-request-id') ?? '';
    assert.match(id, /^[0-9a-f-]{36}$/, 'a generated UUID');
    const line = requestLines(server).find((entry) => entry.id === id);
    assert.ok(line, 'the line carries the id the client got');
    assert.equal(line.route, '/v0/users/:username');
    assert.equal(line.path, '/v0/users/admin');
    assert.equal(line.status, 200);
    assert.equal(typeof line.ms, 'number');
    assert.equal(line.client, '127.0.0.1');
    assert.equal(line.user, 'admin');
    assert.ok(!server.logs.join('').includes(server.adminToken), 'no token in the log');
  });

  it('takes no X-Request-Id from a client: the id is its own, the sent one logged apart', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await server.api.raw('/health', { headers: { 'X-Request-Id': 'proxy-id.42' } });
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, UUID_V4, 'a generated id, not the one sent');
      const line = requestLines(server).find((e) => e.id === id);
      assert.equal(line?.client_request_id, 'proxy-id.42', 'the sent id, in its own field');
      ids.push(id);
    }
    assert.notEqual(ids[0], ids[1], 'two requests that sent one id have two ids');
    // A malformed one is not logged at all; a request that sent none has no such field.
    for (const sent of ['two words', 'x'.repeat(200), undefined]) {
      const headers: Record<string, string> = sent === undefined ? {} : { 'X-Request-Id': sent };
      const res = await server.api.raw('/health', { headers });
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, UUID_V4);
      const line = requestLines(server).find((e) => e.id === id);
      assert.ok(line && !('client_request_id' in line), String(sent));
    }
  });

  it('generates a different id, in the shape of a random UUID, for every request', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await server.api.raw('/health');
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, UUID_V4);
      ids.add(id);
    }
    assert.equal(ids.size, 20);
  });

  it('generates ids that do not count the requests: consecutive ones are far apart', async () => {
    const tails: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await server.api.raw('/health');
      tails.push(Number.parseInt((res.headers.get('x-request-id') ?? '').slice(24), 16));
    }
    // A counter's last 12 hex digits grow by one per request; a random 48-bit value lands
    // within 2^24 of the previous one once in 2^23 times.
    const steps = tails.slice(1).map((tail, i) => Math.abs(tail - (tails[i] as number)));
    assert.deepEqual(
      steps.filter((step) => step < 2 ** 24),
      [],
    );
  });

  it('names requests no route answered by a fixed label, not their path', async () => {
    const res = await server.api.raw('/v0/no/such/thing');
    assert.equal(res.status, 404);
    const id = res.headers.get('x-request-id');
    const line = requestLines(server).find((e) => e.id === id);
    assert.equal(line?.route, '(none)');
  });
});

describe('TIMETRACK_TRUST_PROXY off (the default)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { TIMETRACK_LOGIN_MAX_FAILURES_PER_IP: String(LIMIT) } });
  });
  after(() => server.close());

  it('ignores X-Forwarded-For: a client cannot escape the address limit by sending it', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const res = await wrongLogin(server, `spray-${i}`, `203.0.113.${i}`);
      assert.deepEqual(res.body, INVALID);
    }
    assert.deepEqual((await wrongLogin(server, 'spray-9', '203.0.113.99')).body, TOO_MANY);
    const logins = requestLines(server).filter((e) => e.route === '/v0/login');
    assert.ok(logins.length > LIMIT);
    assert.ok(logins.every((e) => e.client === '127.0.0.1'));
  });
});

describe('TIMETRACK_TRUST_PROXY=true', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_TRUST_PROXY: 'true', TIMETRACK_LOGIN_MAX_FAILURES_PER_IP: String(LIMIT) },
    });
  });
  after(() => server.close());

  it("keeps the proxy's well-formed X-Request-Id as the request id, and replaces any other", async () => {
    const sent = await server.api.raw('/health', { headers: { 'X-Request-Id': 'proxy-id.42' } });
    assert.equal(sent.headers.get('x-request-id'), 'proxy-id.42');
    const line = requestLines(server).find((e) => e.id === 'proxy-id.42');
    assert.equal(line?.route, '/health');
    assert.ok(line && !('client_request_id' in line), 'nothing logged apart');
    const odd = await server.api.raw('/health', { headers: { 'X-Request-Id': 'two words' } });
    assert.match(odd.headers.get('x-request-id') ?? '', UUID_V4);
    const long = await server.api.raw('/health', { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    assert.match(long.headers.get('x-request-id') ?? '', UUID_V4);
  });

  it('sends the request id back on every kind of answer', async () => {
    const token = server.adminToken;
    await server.api.post('/activities', token, { name: 'Gone', slug: 'gone' });
    const page = await server.api.raw('/');
    const etag = page.headers.get('etag') ?? '';
    assert.equal(page.status, 200);
    const answers: [string, string, RequestInit, number][] = [
      ['json', '/health', {}, 200],
      ['signed-in', `/v0/users/admin?token=${token}`, {}, 200],
      ['list', `/v0/times?token=${token}`, {}, 200],
      ['csv', `/v0/times?format=csv&token=${token}`, {}, 200],
      ['error', '/v0/users/admin', {}, 401],
      ['not-found', '/v0/no/such/thing', {}, 404],
      ['not-allowed', '/v0/timer/stop', { method: 'GET' }, 405],
      ['preflight', '/v0/times', { method: 'OPTIONS', headers: { Origin: 'https://a.test' } }, 204],
      ['empty', `/v0/activities/gone?token=${token}`, { method: 'DELETE' }, 200],
      ['web page', '/', {}, 200],
      ['not-modified', '/', { headers: { 'If-None-Match': etag } }, 304],
    ];
    for (const [kind, path, init, status] of answers) {
      const id = `kind-${kind.replace(/ /g, '-')}`;
      const headers = { ...(init.headers as Record<string, string>), 'X-Request-Id': id };
      const res = await fetch(`${server.url}${path}`, { ...init, headers });
      await res.arrayBuffer();
      assert.equal(res.status, status, kind);
      assert.equal(res.headers.get('x-request-id'), id, kind);
    }
  });

  it('counts failed logins per forwarded address, and logs that address', async () => {
    for (let i = 0; i < LIMIT; i++) {
      assert.deepEqual((await wrongLogin(server, `guess-${i}`, '198.51.100.7')).body, INVALID);
    }
    assert.deepEqual((await wrongLogin(server, 'guess-9', '198.51.100.7')).body, TOO_MANY);
    // Another client behind the same proxy is not affected.
    assert.deepEqual((await wrongLogin(server, 'guess-9', '198.51.100.8')).body, INVALID);
    const clients = requestLines(server)
      .filter((e) => e.route === '/v0/login')
      .slice(-(LIMIT + 2))
      .map((e) => e.client);
    assert.deepEqual(clients, [...Array(LIMIT + 1).fill('198.51.100.7'), '198.51.100.8']);
  });

  it('believes only the last entry, the one the proxy appended', async () => {
    // The client wrote the first entry itself; the proxy appended what it saw.
    const res = await wrongLogin(server, 'guess-9', '198.51.100.8, 192.0.2.10');
    assert.deepEqual(res.body, INVALID);
    const spoofed = await wrongLogin(server, 'guess-9', '192.0.2.10, 198.51.100.7');
    assert.deepEqual(spoofed.body, TOO_MANY, 'the blocked address, whatever came before it');
  });

  it('falls back to the connection address without a usable header', async () => {
    await wrongLogin(server, 'guess-10', 'not-an-address');
    await wrongLogin(server, 'guess-11');
    const last = requestLines(server).slice(-2);
    assert.deepEqual(
      last.map((e) => e.client),
      ['127.0.0.1', '127.0.0.1'],
    );
  });
});
