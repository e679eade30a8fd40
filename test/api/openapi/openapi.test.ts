// GET /v0/openapi.json (issue 15, part 5): a valid OpenAPI 3.1 document that lists the
// route table exactly. That every reply matches it is checked for the whole suite by
// test/helpers/openapi-check.ts, through the api helper; the last tests here show that
// check refusing what the document does not describe.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from '../../../src/openapi/document';
import { createRouter } from '../../../src/routes';
import { checkReply, matchTemplate } from '../../helpers/openapi-check';
import { startTestServer, type TestServer } from '../../helpers/server';

const METHODS = ['get', 'post', 'delete', 'put', 'patch', 'head', 'options', 'trace'];

describe('GET /v0/openapi.json', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('is served without a token, as JSON, and HEAD answers too', async () => {
    const res = await server.api.get('/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(res.body, JSON.parse(JSON.stringify(openApiDocument)));
    const head = await server.api.raw('/v0/openapi.json', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), res.headers.get('content-length'));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await server.api.get('/openapi.json');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  });

  it('lists every route of the router, and nothing else', async () => {
    // With every optional route on: /metrics is routed only with --metrics.
    const full = await startTestServer({ env: { TIMETRACK_METRICS: 'true' } });
    await full.close();
    const routes = createRouter(full.running.app)
      .list()
      .map(({ method, pattern }) => `${method} ${pattern.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.deepEqual(
      routes.filter((r) => !documented.includes(r)),
      [],
      'routes missing from the document',
    );
    assert.deepEqual(
      documented.filter((d) => !routes.includes(d)),
      [],
      'documented endpoints the router lacks',
    );
  });

  it('gives every operation its success (200; 204 for the logout, 302 for the sign-in redirects) and every authenticated one its 401', () => {
    for (const [path, item] of Object.entries(openApiDocument.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        if (!METHODS.includes(method)) continue;
        // The OpenID Connect sign-in's two stops answer redirects only.
        const success =
          path === '/v0/logout' ? '204' : path.startsWith('/v0/oidc/') ? '302' : '200';
        assert.ok(op.responses[success], `${method} ${path} has no ${success}`);
        if (op.security) assert.ok(op.responses['401'], `${method} ${path} has no 401`);
      }
    }
  });
});

describe('the reply check of the test helpers', () => {
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: new Headers({ 'Content-Type': 'application/json; charset=utf-8', ...headers }),
    text: body === '' ? '' : JSON.stringify(body),
  });
  const base = 'http://127.0.0.1:1';

  it('routes paths as the router does: literals first, a trailing slash ignored', () => {
    assert.equal(matchTemplate('/v0/users/org-roles'), '/v0/users/org-roles');
    assert.equal(matchTemplate('/v0/users/org-roles/'), '/v0/users/org-roles');
    assert.equal(matchTemplate('/v0/users/alice'), '/v0/users/{username}');
    assert.equal(matchTemplate('/v0/users//'), undefined);
    assert.equal(matchTemplate('/v0/nothing'), undefined);
  });

  it('accepts what the document describes', () => {
    checkReply('GET', `${base}/health`, reply(200, { status: 'ok' }));
    checkReply('DELETE', `${base}/v0/times/x`, reply(200, '', {}));
    const missing = { status: 404, error: 'Object not found', text: 'Nonexistent endpoint' };
    checkReply('GET', `${base}/v0/nothing`, reply(404, missing));
  });

  it('refuses an undocumented status, naming the route', () => {
    assert.throws(
      () => checkReply('GET', `${base}/v0/users`, reply(418, {})),
      /GET \/v0\/users \(\/v0\/users\) → 418: status 418 is not documented/,
    );
  });

  it('refuses a body that does not match the schema, saying where', () => {
    assert.throws(
      () => checkReply('GET', `${base}/v0/users/org-roles/dev`, reply(200, { slug: 'dev' })),
      /→ 200: the body does not match .*must have required property 'name'/,
    );
    const wrongKind = { status: 400, error: 'Object not found', text: 'Nonexistent user' };
    assert.throws(() => checkReply('GET', `${base}/v0/users/x`, reply(400, wrongKind)));
  });

  it('refuses a missing required header, and unlisted paths and methods that are not 404/405', () => {
    const busy = { status: 503, error: 'Service unavailable', text: 'busy' };
    assert.throws(
      () => checkReply('POST', `${base}/v0/times`, reply(503, busy)),
      /required header Retry-After/,
    );
    assert.throws(() => checkReply('GET', `${base}/v0/nothing`, reply(200, {})), /must answer 404/);
    assert.throws(() => checkReply('PUT', `${base}/v0/users`, reply(200, {})), /must answer 405/);
  });
});
