// Issue 19, "Hardening, round 2": the HTTP items. Requests that fetch() cannot express
// (unnormalised paths, absolute-form targets, a body after a HEAD) go out as raw bytes
// over node:net, so the server sees exactly the request target written here.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRouter } from '../../src/routes';
import { invalidUsernameBody, notFoundBody } from '../helpers/errors';
import { createActivity, createProject, createRole } from '../helpers/factories';
import { bcryptHash, startTestServer, type TestServer } from '../helpers/server';

interface RawReply {
  status: number;
  headers: Map<string, string>;
  /** Every byte after the header block, as text (chunked framing left in place). */
  body: string;
}

/** Sends one request as written (`Connection: close`) and reads the reply to the close. */
function raw(
  server: TestServer,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(server.url);
  const headers: Record<string, string> = {
    Host: 'timetrack.invalid',
    Connection: 'close',
    ...options.headers,
  };
  if (options.body !== undefined)
    headers['Content-Length'] = String(Buffer.byteLength(options.body));
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => {
      socket.end(`${method} ${target} HTTP/1.1\r\n${head}\r\n${options.body ?? ''}`);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      assert.ok(end > 0, `no complete reply to ${method} ${target}: ${JSON.stringify(text)}`);
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
      const map = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        map.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status, headers: map, body: text.slice(end + 4) });
    });
  });
}

const json = (reply: RawReply): unknown => JSON.parse(reply.body);

describe('hardening round 2: HTTP', () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    token = server.adminToken;
  });
  after(() => server.close());

  describe('item 9: usernames . and .. (routing on the raw path)', () => {
    for (const segment of ['.', '..', '%2E', '%2e', '%2E%2E', '.%2e', './']) {
      it(`GET /v0/users/${segment} reaches the user route, not the list`, async () => {
        const res = await raw(server, 'GET', `/v0/users/${segment}?token=${token}`);
        assert.equal(res.status, 404, res.body);
        assert.deepEqual(json(res), notFoundBody('user'));
      });
    }

    it('DELETE and POST /v0/users/. reach the user route too (not 405 of the list)', async () => {
      const del = await raw(server, 'DELETE', `/v0/users/.?token=${token}`);
      assert.deepEqual(json(del), notFoundBody('user'));
      const post = await raw(server, 'POST', '/v0/users/..', {
        body: JSON.stringify({ auth: { type: 'token', token }, object: { meta: 'x' } }),
      });
      assert.deepEqual(json(post), notFoundBody('user'));
    });

    it('does not remove dot-segments: /v0/users/../projects is no route', async () => {
      await createProject(server);
      const res = await raw(server, 'GET', `/v0/users/../projects?token=${token}`);
      assert.equal(res.status, 404);
      assert.deepEqual(json(res), notFoundBody('endpoint'));
    });

    for (const username of ['.', '..']) {
      it(`refuses to create the user ${username} (kind 6)`, async () => {
        const res = await server.api.post('/users', token, {
          username,
          password: bcryptHash('a password'),
        });
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, invalidUsernameBody(username));
        const get = await raw(server, 'GET', `/v0/users/${username}?token=${token}`);
        assert.deepEqual(json(get), notFoundBody('user'));
      });
    }
  });

  describe('item 11: HEAD works wherever GET does', () => {
    it('HEAD /health: 200, the headers of GET, no body', async () => {
      const get = await raw(server, 'GET', '/health');
      const head = await raw(server, 'HEAD', '/health');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(get.body)));
    });

    it('answers HEAD on every GET route with the status and headers of GET, no body', async () => {
      const role = await createRole(server);
      const activity = await createActivity(server);
      const project = await createProject(server, {
        default_activity: activity.slug,
        users: { admin: { member: true } },
      });
      const time = await server.api.post('/times', token, {
        duration: 60,
        user: 'admin',
        project: project.slugs[0],
        date_worked: '2024-02-05',
      });
      assert.equal(time.status, 200, time.text);
      const ids: Record<string, string> = {
        ':username': 'admin',
        ':slug': '',
        ':uuid': (time.body as { uuid: string }).uuid,
      };
      const slugFor = (pattern: string) =>
        pattern.startsWith('/v0/users/org-roles')
          ? role.slug
          : pattern.startsWith('/v0/projects')
            ? (project.slugs[0] as string)
            : activity.slug;
      const gets = createRouter(server.running.app)
        .list()
        .filter((r) => r.method === 'GET');
      assert.ok(gets.length >= 10);
      for (const { pattern } of gets) {
        const path = pattern.replace(/:\w+/g, (p) => (p === ':slug' ? slugFor(pattern) : ids[p]!));
        // A hit, a miss, and a refusal for want of a token: HEAD mirrors GET in each.
        const targets = [`${path}?token=${token}`, path];
        if (path !== pattern)
          targets.push(`${path.replace(/[^/]+$/, 'nonexistent-1')}?token=${token}`);
        for (const target of targets) {
          const get = await raw(server, 'GET', target);
          const head = await raw(server, 'HEAD', target);
          assert.equal(head.status, get.status, target);
          assert.equal(head.body, '', target);
          for (const [name, value] of get.headers) {
            if (name === 'date' || name === 'x-request-id') continue; // new for each request
            assert.equal(head.headers.get(name), value, `${target}: header ${name}`);
          }
        }
      }
    });

    it('HEAD of a streamed list answers its headers and no body', async () => {
      // skip past the end takes the streamed path (count, then rows as they come).
      const target = `/v0/activities?skip=100000&token=${token}`;
      const get = await raw(server, 'GET', target);
      const head = await raw(server, 'HEAD', target);
      assert.equal(get.status, 200);
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.get('x-total-count'), get.headers.get('x-total-count'));
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
    });

    it('lists HEAD in Allow wherever GET is allowed', async () => {
      const cases: [string, string, string][] = [
        ['DELETE', '/health', 'GET, HEAD'],
        ['PUT', '/v0/users', 'GET, HEAD, POST'],
        ['PATCH', '/v0/times/00000000-0000-4000-8000-000000000000', 'GET, HEAD, POST, DELETE'],
        ['HEAD', '/v0/login', 'POST'],
      ];
      for (const [method, target, allow] of cases) {
        const res = await raw(server, method, target);
        assert.equal(res.status, 405, `${method} ${target}`);
        assert.equal(res.headers.get('allow'), allow, `${method} ${target}`);
      }
    });
  });

  describe('item 13: absolute-form request targets (RFC 9112 §3.2.2)', () => {
    it('GET http://host/health answers like GET /health', async () => {
      const res = await raw(server, 'GET', 'http://timetrack.invalid/health');
      assert.equal(res.status, 200);
      assert.deepEqual(json(res), { status: 'ok' });
    });

    it('uses the path and query of the absolute form; the host in it does not matter', async () => {
      const res = await raw(
        server,
        'GET',
        `HTTPS://elsewhere.example:4443/v0/users/admin?token=${token}`,
      );
      assert.equal(res.status, 200, res.body);
      assert.equal((json(res) as { username: string }).username, 'admin');
      // No path is `/`: the web app's page (the API's 404 with --no-web).
      const noPath = await raw(server, 'GET', 'http://timetrack.invalid');
      assert.equal(noPath.status, 200);
      assert.match(noPath.body, /<div id="app"><\/div>/);
      const noPathNotWeb = await raw(server, 'GET', 'http://timetrack.invalid/v0');
      assert.deepEqual(json(noPathNotWeb), notFoundBody('endpoint'));
      const noToken = await raw(server, 'GET', 'http://timetrack.invalid/v0/users');
      assert.equal(noToken.status, 401);
    });
  });
});
