// The web app as files (src/http/static.ts, src/web-assets.ts): index.html for the app's
// routes, hashed assets cached forever and precompressed, the security headers, and the
// API's 404s untouched. Plain fetch; the browser tests are in test/web/.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from '../../src/config';
import { CONTENT_SECURITY_POLICY } from '../../src/web-assets';
import { startTestServer, type TestServer } from '../helpers/server';

const securityHeaders = (res: Response) => {
  assert.equal(res.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  assert.match(CONTENT_SECURITY_POLICY, /script-src 'self';/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
};

describe('serving the web app', () => {
  let server: TestServer;
  let html: string;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('answers / with the page, no-cache and the security headers', async () => {
    const res = await fetch(`${server.url}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.ok(res.headers.get('etag'));
    securityHeaders(res);
    html = await res.text();
    assert.match(html, /<div id="app"><\/div>/);
    assert.doesNotMatch(html, /<script>|style=|https?:\/\//, 'no inline code, nothing external');
  });

  it('serves the hashed assets immutable, precompressed, with ETag and 304', async () => {
    const paths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(
      paths.some((p) => /\/main-\w+\.js$/.test(p)),
      html,
    );
    assert.ok(
      paths.some((p) => /\/main-\w+\.css$/.test(p)),
      html,
    );
    for (const path of paths) {
      const plain = await fetch(`${server.url}${path}`, {
        headers: { 'Accept-Encoding': 'identity' },
      });
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(plain.headers.get('content-encoding'), null);
      securityHeaders(plain);
      const body = Buffer.from(await plain.arrayBuffer());

      // fetch() would decode: node:http shows the bytes as sent.
      for (const [accept, coding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
      ] as const) {
        const res = await raw(server.url, path, { 'accept-encoding': accept });
        assert.equal(res.status, 200, `${path} ${accept}`);
        assert.equal(res.headers['content-encoding'], coding, `${path} ${accept}`);
        assert.match(String(res.headers.vary), /Accept-Encoding/);
        if (coding === 'gzip') assert.deepEqual(gunzipSync(res.body), body);
        const etag = String(res.headers.etag);
        const again = await raw(server.url, path, {
          'accept-encoding': accept,
          'if-none-match': etag,
        });
        assert.equal(again.status, 304);
        assert.equal(again.body.length, 0);
      }
    }
  });

  it('answers the app routes with the page, and HEAD without a body', async () => {
    for (const path of ['/timesheet', '/times/2024-W05', '/settings/']) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), html, path);
    }
    const head = await fetch(`${server.url}/timesheet`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('keeps the API and /health as they were', async () => {
    for (const path of ['/v0/nope', '/v0', '/v0/users/a/b/c']) {
      const res = await server.api.raw(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, {
        status: 404,
        error: 'Object not found',
        text: 'Nonexistent endpoint',
      });
      assert.equal(res.headers.get('content-security-policy'), null);
    }
    assert.deepEqual((await server.api.raw('/health')).body, { status: 'ok' });
    // Not the shape of an app route, or not GET: 404 as before.
    assert.equal((await fetch(`${server.url}/favicon.ico`)).status, 404);
    assert.equal((await fetch(`${server.url}/`, { method: 'POST' })).status, 404);
  });
});

describe('--no-web', () => {
  it('is read from the flag and TIMETRACK_WEB', () => {
    assert.equal(loadConfig({ web: false }, {}).web, false);
    assert.equal(loadConfig({}, { TIMETRACK_WEB: 'false' }).web, false);
    assert.equal(loadConfig({}, {}).web, true);
  });

  it('serves the API only', async () => {
    const server = await startTestServer({ env: { TIMETRACK_WEB: 'false' } });
    try {
      const res = await fetch(`${server.url}/`);
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), {
        status: 404,
        error: 'Object not found',
        text: 'Nonexistent endpoint',
      });
      assert.equal((await fetch(`${server.url}/timesheet`)).status, 404);
    } finally {
      await server.close();
    }
  });
});

async function raw(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
