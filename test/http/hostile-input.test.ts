// Hostile input on every endpoint the router knows: whatever arrives, the answer is a
// SPEC §7 kind with its status (never a 500, never a hang) and a refused request leaves
// the database exactly as it was. Inputs come from a fixed list crossed with every field
// of every POST body, so a failure names the request that caused it and reruns the same.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MAX_BODY_BYTES } from '../../src/http/body';
import { createRouter } from '../../src/routes';
import type { Reply } from '../helpers/api';
import { checksumWatcher } from '../helpers/checksum';
import { createUser } from '../helpers/factories';
import { assertApiAnswer, assertApiError } from '../helpers/kinds';
import { bcryptHash, startTestServer, type TestServer } from '../helpers/server';

/** Every route's method and pattern under /v0 (filled once the server runs). */
const ROUTES: { method: string; pattern: string }[] = [];
/** GET routes without a path parameter that answer one object, not a list. */
// Single objects, not lists (GET /v0/reports needs start, end and group_by: test/api/reports/reports.test.ts).
const SINGLE_OBJECT_GETS = ['/v0/info', '/v0/timer', '/v0/reports', '/v0/lock'];
/** The week of the week part the submit and decision routes are sent for. */
const WEEK = '2025-W40';
const WEEK_DAY = '2025-10-01';
const has = (method: string, pattern: string) =>
  ROUTES.some((r) => r.method === method && r.pattern === pattern);

const NO_UUID = '00000000-0000-4000-8000-000000000000';
let seq = 0;
const fresh = (prefix: string) => `${prefix}-h${++seq}`;

/** Placeholders replaced by raw JSON number text that JSON.stringify cannot produce. */
const RAW_NUMBERS = ['9007199254740993', '-9007199254740993', '-0', '1e999', '-1e999', '1e-999'];
const rawToken = (n: string) => `__raw_${n}__`;

/** JSON text nested `levels` deep (arrays and objects alternating), built as text. */
function deepJson(levels: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? '[' : '{"a":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

/** The hostile values put into every field of every POST object. */
const HOSTILE_VALUES: { name: string; value: unknown }[] = [
  { name: 'empty string', value: '' },
  { name: 'space', value: ' ' },
  { name: 'huge string', value: 'x'.repeat(200_000) },
  { name: 'NUL', value: '\u0000' },
  { name: 'embedded NUL', value: 'a\u0000b' },
  { name: 'RTL override', value: '\u202Eevil\u202C' },
  { name: 'emoji', value: 'time 😀👩‍💻' },
  { name: 'combining marks', value: 'e\u0301\u0301\u0301' },
  { name: 'NaN-like', value: 'NaN' },
  { name: 'Infinity-like', value: 'Infinity' },
  { name: 'minus-zero string', value: '-0' },
  { name: 'path traversal', value: '../../etc/passwd' },
  { name: 'slash', value: 'a/b' },
  { name: 'SQL', value: "x'); DROP TABLE users; --" },
  { name: 'null', value: null },
  { name: 'true', value: true },
  { name: 'zero', value: 0 },
  { name: 'negative', value: -1 },
  { name: 'fraction', value: 1.5 },
  { name: 'empty array', value: [] },
  { name: 'array of strings', value: ['x'] },
  { name: 'huge array', value: Array.from({ length: 100_000 }, () => 'a') },
  { name: 'empty object', value: {} },
  { name: 'object', value: { a: 'b' } },
  { name: 'deep nesting', value: rawToken('deep') },
  ...RAW_NUMBERS.map((n) => ({ name: `number ${n}`, value: rawToken(n) })),
];

/** mulberry32: a small seeded generator, so a failing case reruns the same (HOSTILE_SEED). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random JSON value: mostly the hostile values, sometimes arrays and objects of them. */
function randomJson(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth > 0 && pick < 0.15) {
    return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth - 1));
  }
  if (depth > 0 && pick < 0.3) {
    const keys = ['member', 'manager', 'spectator', 'admin', 'a', '', '😀'];
    return Object.fromEntries(
      Array.from({ length: Math.floor(random() * 3) }, () => [
        keys[Math.floor(random() * keys.length)],
        randomJson(random, depth - 1),
      ]),
    );
  }
  const plain = HOSTILE_VALUES.filter((h) => h.name !== 'huge string' && h.name !== 'huge array');
  return (plain[Math.floor(random() * plain.length)] as { value: unknown }).value;
}

/** Lone surrogates cannot be stored as UTF-8: refused as invalid JSON (I-JSON). */
const LONE_SURROGATES = ['\ud800', 'a\udfffb', '\udc00\ud800'];

/** Routes this suite leaves out (see where ROUTES is filled). */
const NOT_HERE = [
  '/v0/openapi.json',
  '/v0/logout',
  '/v0/login/renew',
  '/v0/oidc/start',
  '/v0/oidc/callback',
  '/v0/imports',
];

const INVALID_JSON = {
  status: 400,
  error: 'Bad object',
  text: 'The request body could not be parsed as valid JSON',
};
const TOO_LARGE = {
  status: 413,
  error: 'Bad object',
  text: 'The request body is larger than 1 MiB',
};

describe('hostile input', () => {
  let server: TestServer;
  let watcher: ReturnType<typeof checksumWatcher>;
  let token: string;
  /** Existing ids for every kind of path parameter, so requests reach the body checks. */
  const ids: Record<string, string> = {};
  /** A valid object for each POST route (fresh slugs and usernames on every call). */
  const bases = new Map<string, () => Record<string, unknown>>();

  before(async () => {
    server = await startTestServer();
    watcher = checksumWatcher(server.dbFile);
    token = server.adminToken;
    ROUTES.push(
      ...createRouter(server.running.app)
        .list()
        // The OpenAPI document is static and public: no token, no input to refuse. The
        // logout would end the token this suite runs with; its bad bodies are tested in
        // test/api/auth/logout.test.ts. The single sign-on's redirects take no token or
        // body, only the provider's query (test/api/auth/oidc.test.ts). An import's body is
        // another tracker's file, not JSON, and its token comes only in the Authorization
        // header (test/api/imports/imports.test.ts, test/admin/import-from.test.ts).
        // test/api/auth/logout.test.ts. The renewal, like the logout, takes no object (its
        // body is at most the auth block): its bad bodies are in test/api/auth/renew.test.ts.
        .filter((r) => r.pattern.startsWith('/v0/') && !NOT_HERE.includes(r.pattern)),
    );
    const api = server.api;
    // Resources still being built may refuse a fixture: their routes are then tested
    // with ids that match nothing (kind 1 comes before the body checks).
    const ok = (res: Reply, what: string) => {
      if (res.status !== 200) {
        console.error(`hostile-input: no ${what} fixture: ${res.status} ${res.text}`);
        return {} as Record<string, any>;
      }
      return res.body as Record<string, any>;
    };
    ids.username = (await createUser(server)).username;
    ids.role = ok(
      await api.post('/users/org-roles', token, { name: 'Role one', slug: 'role-one' }),
      'role',
    ).slug;
    if (has('POST', '/v0/activities')) {
      ids.activity = ok(
        await api.post('/activities', token, { name: 'Dev', slug: 'dev' }),
        'activity',
      ).slug;
    }
    if (has('POST', '/v0/projects')) {
      ids.project = ok(
        await api.post('/projects', token, {
          name: 'Project one',
          slugs: ['proj-one'],
          default_activity: ids.activity ?? null,
          users: { admin: { member: true, manager: true }, [ids.username]: { member: true } },
        }),
        'project',
      ).slugs?.[0];
    }
    // A week part of ids.username's (issue 32) for the submit and decision routes.
    if (has('POST', '/v0/weeks/:username/:week/submit') && ids.project && ids.activity) {
      ok(
        await api.post('/times', token, {
          duration: 60,
          user: ids.username,
          project: ids.project,
          activities: [ids.activity],
          date_worked: WEEK_DAY,
        }),
        'time in a week part',
      );
    }
    if (has('POST', '/v0/times') && ids.project && ids.activity) {
      ids.time = ok(
        await api.post('/times', token, {
          duration: 60,
          user: 'admin',
          project: ids.project,
          activities: [ids.activity],
          date_worked: '2026-01-05',
        }),
        'time',
      ).uuid;
    }

    // Restore (issue 17): a deleted project and activity, found by uuid. The first valid
    // body restores them; later ones are answered as they are (still checked first).
    if (ids.activity) {
      const slug = fresh('gone-act');
      const act = ok(await api.post('/activities', token, { name: slug, slug }), 'activity');
      ok(await api.del(`/activities/${slug}`, token), 'deleted activity');
      ids.deletedActivity = act.uuid;
    }
    if (ids.project) {
      const slug = fresh('gone-proj');
      const proj = ok(await api.post('/projects', token, { name: slug, slugs: [slug] }), 'project');
      ok(await api.del(`/projects/${slug}`, token), 'deleted project');
      ids.deletedProject = proj.uuid;
    }

    bases.set('POST /v0/users', () => ({
      username: fresh('u'),
      display_name: 'Someone',
      email: 'someone@example.com',
      meta: 'm',
      password: bcryptHash('pw'),
      'org-roles': [ids.role],
      site_spectator: false,
    }));
    bases.set('POST /v0/users/:username', () => ({
      display_name: 'Someone else',
      email: 'else@example.com',
      meta: 'n',
      'org-roles': [],
      site_spectator: true,
    }));
    bases.set('POST /v0/users/org-roles', () => ({ name: fresh('Role'), slug: fresh('r') }));
    bases.set('POST /v0/users/org-roles/:slug', () => ({ name: fresh('Renamed') }));
    bases.set('POST /v0/activities', () => ({ name: fresh('Act'), slug: fresh('a') }));
    bases.set('POST /v0/activities/:slug', () => ({ name: fresh('Activity') }));
    bases.set('POST /v0/projects', () => ({
      name: fresh('Project'),
      slugs: [fresh('p')],
      uri: 'https://example.com/p',
      owner: 'admin',
      default_activity: ids.activity ?? null,
      users: { admin: { member: true, spectator: false, manager: true } },
    }));
    bases.set('POST /v0/projects/:slug', () => ({
      name: fresh('Project'),
      uri: 'https://example.com/q',
      owner: 'admin',
    }));
    bases.set('POST /v0/projects/:uuid/restore', () => ({ slugs: [fresh('back')] }));
    bases.set('POST /v0/activities/:uuid/restore', () => ({ slug: fresh('back') }));
    bases.set('POST /v0/times', () => ({
      duration: 3600,
      user: 'admin',
      project: ids.project,
      activities: [ids.activity],
      date_worked: '2026-02-03',
      issue_uri: 'https://example.com/issue/1',
      notes: 'notes',
    }));
    bases.set('POST /v0/times/:uuid', () => ({
      duration: 120,
      notes: 'n',
      date_worked: '2026-02-04',
    }));
    // The base of /v0/timer starts the admin's timer, that of /v0/timer/stop (routed
    // after it) stops it; while one runs, a start is kind 13, while none does a stop is 1.
    bases.set('POST /v0/timer', () => ({
      project: ids.project,
      activities: [ids.activity],
      notes: 'notes',
      issue_uri: 'https://example.com/issue/2',
      date_worked: '2026-02-06',
    }));
    bases.set('POST /v0/tokens', () => ({
      name: fresh('token'),
      scope: 'read',
      expires_at: '2099-01-01',
    }));
    // Week parts (issue 32): the decisions take turns on one part, so only the first can
    // find it in the state it needs (see the valid-object test).
    bases.set('POST /v0/weeks/:username/:week/submit', () => ({}));
    bases.set('POST /v0/approvals/:username/:week/:slug/approve', () => ({ comment: 'Fine' }));
    bases.set('POST /v0/approvals/:username/:week/:slug/reject', () => ({ comment: 'Fix it' }));
    bases.set('POST /v0/approvals/:username/:week/:slug/reopen', () => ({ comment: 'Again' }));
    bases.set('POST /v0/timer/stop', () => ({
      duration: 60,
      notes: 'stopped',
      issue_uri: 'https://example.com/issue/3',
      activities: [ids.activity],
      date_worked: '2026-02-07',
    }));
  });
  after(() => {
    watcher.close();
    return server.close();
  });

  /** The path of a route with every parameter set to an existing object (or `override`). */
  function pathOf(pattern: string, override?: string): string {
    return pattern.replace(/:(\w+)/g, (_, name: string) => {
      if (override !== undefined) return override;
      if (name === 'username') return ids.username as string;
      // Restore and history: a deleted object's uuid.
      if (pattern.startsWith('/v0/projects/:uuid/')) return ids.deletedProject ?? NO_UUID;
      if (pattern.startsWith('/v0/activities/:uuid/')) return ids.deletedActivity ?? NO_UUID;
      if (name === 'uuid') return ids.time ?? NO_UUID;
      if (pattern.startsWith('/v0/users/org-roles')) return ids.role as string;
      if (name === 'week') return WEEK;
      if (pattern.startsWith('/v0/approvals/')) return ids.project ?? 'no-such-project';
      if (pattern.startsWith('/v0/projects')) return ids.project ?? 'no-such-project';
      if (pattern.startsWith('/v0/activities')) return ids.activity ?? 'no-such-activity';
      return 'x';
    });
  }

  const checksum = (except: string[] = []) => watcher.checksum(except);

  /** Sends raw body text; asserts a §7 answer and, if refused, an unchanged database. */
  async function send(
    method: string,
    path: string,
    body: string | undefined,
    context: string,
    headers: Record<string, string> = { 'Content-Type': 'application/json' },
  ): Promise<Reply> {
    const except = path === '/v0/login' ? ['login_failures'] : [];
    const before = checksum(except);
    // Never a hang: every answer must come within 10 s.
    const signal = AbortSignal.timeout(10_000);
    const res = await server.api.raw(path, { method, body, headers, signal });
    assertApiAnswer(res, `${method} ${path} ${context}`);
    if (res.status !== 200) {
      assert.equal(checksum(except), before, `${method} ${path} ${context} wrote to the database`);
    }
    return res;
  }

  const authBody = (object: unknown) => ({ auth: { type: 'token', token }, object });
  const DEEP = deepJson(10_000);
  const withRaw = (json: string) =>
    json.replace(/"__raw_([^"]+)__"/g, (_, n: string) => (n === 'deep' ? DEEP : n));

  it('refuses bodies that are not JSON with the exact Bad Object text', async () => {
    const bodies = [
      '',
      '{',
      '{"auth":',
      'undefined',
      "{'a':1}",
      '{"a":1}}',
      '\u0000',
      'NaN',
      '[1,]',
    ];
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      for (const body of bodies) {
        const res = await send('POST', pathOf(route.pattern), body, `body ${JSON.stringify(body)}`);
        assert.deepEqual(res.body, INVALID_JSON, `${route.pattern} ${JSON.stringify(body)}`);
      }
      // Bytes that are not UTF-8 are not JSON either (RFC 8259 §8.1).
      const res = await server.api.raw(pathOf(route.pattern), {
        method: 'POST',
        body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      assert.deepEqual(res.body, INVALID_JSON, `${route.pattern} invalid UTF-8`);
    }
  });

  it('refuses JSON of the wrong top type and objects of the wrong type', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const path = pathOf(route.pattern);
      for (const [json, type] of [
        ['[]', 'array'],
        ['"s"', 'string'],
        ['1', 'number'],
        ['null', 'null'],
        ['true', 'boolean'],
      ] as const) {
        const res = await send('POST', path, json, `top ${json}`);
        assert.deepEqual(res.body, {
          status: 400,
          error: 'Bad object',
          text: `Field body of request should be object but was sent as ${type}`,
        });
      }
      if (route.pattern === '/v0/login') continue;
      for (const [value, type] of [
        [[], 'array'],
        ['s', 'string'],
        [1, 'number'],
        [null, 'null'],
        [false, 'boolean'],
      ] as const) {
        const res = await send('POST', path, JSON.stringify(authBody(value)), `object ${type}`);
        assert.deepEqual(
          res.body,
          {
            status: 400,
            error: 'Bad object',
            text: `Field object of request should be object but was sent as ${type}`,
          },
          `${route.pattern} object ${type}`,
        );
      }
    }
  });

  it('answers 10,000 levels of nesting, as the body and inside it, without a 500', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const path = pathOf(route.pattern);
      await send('POST', path, DEEP, 'nested body');
      await send(
        'POST',
        path,
        withRaw(JSON.stringify(authBody(rawToken('deep')))),
        'nested object',
      );
      await send('POST', path, '['.repeat(500_000), 'unterminated nesting');
      // As deep as 1 MiB allows: JSON.parse may run out of stack; still invalid JSON.
      await send('POST', path, `${'['.repeat(400_000)}${']'.repeat(400_000)}`, 'max nesting');
    }
  });

  it('refuses 1 MiB + 1 bytes with 413 (declared or chunked) and accepts exactly 1 MiB', async () => {
    const pad = (json: string, size: number) => json + ' '.repeat(size - Buffer.byteLength(json));
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const path = pathOf(route.pattern);
      const json = JSON.stringify(authBody({}));
      const res = await send('POST', path, pad(json, MAX_BODY_BYTES + 1), '1 MiB + 1');
      assert.deepEqual(res.body, TOO_LARGE);
      const chunked = await sendChunked(path, pad(json, MAX_BODY_BYTES + 1));
      assert.deepEqual(chunked.body, TOO_LARGE, `${path} chunked`);
      const exact = await send('POST', path, pad(json, MAX_BODY_BYTES), 'exactly 1 MiB');
      assert.notEqual(exact.status, 413, `${path} exactly 1 MiB`);
    }
    assert.deepEqual((await server.api.raw('/health')).body, { status: 'ok' });
  });

  /** POST with Transfer-Encoding: chunked (no Content-Length), in 64 KiB pieces. */
  async function sendChunked(path: string, text: string): Promise<Reply> {
    const before = checksum();
    const bytes = Buffer.from(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65536)
          controller.enqueue(bytes.subarray(i, i + 65536));
        controller.close();
      },
    });
    const res = await server.api.raw(path, {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    assertApiError(res, `chunked ${path}`);
    assert.equal(checksum(), before, `chunked ${path} wrote to the database`);
    return res;
  }

  it('has a valid object for every POST route, so hostile fields reach validation', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST' && r.pattern !== '/v0/login')) {
      const base = bases.get(`POST ${route.pattern}`);
      assert.ok(base, `no base object for POST ${route.pattern}: add one above`);
      const res = await send(
        'POST',
        pathOf(route.pattern),
        JSON.stringify(authBody(base())),
        'base',
      );
      // A decision on a week part passed validation when refused for the part's status.
      const byStatus = /^Only an? \w+ week can be/.test((res.body as { text?: string }).text ?? '');
      if (!(route.pattern.startsWith('/v0/approvals/') && byStatus)) {
        assert.equal(res.status, 200, `POST ${route.pattern}: ${res.text}`);
      }
    }
  });

  it('answers every hostile value in every field of every POST object', async () => {
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const key = `POST ${route.pattern}`;
      const base = bases.get(key);
      if (!base) continue;
      for (const field of Object.keys(base())) {
        for (const { name, value } of HOSTILE_VALUES) {
          const object = { ...base(), [field]: value };
          const body = withRaw(JSON.stringify(authBody(object)));
          const res = await send('POST', pathOf(route.pattern), body, `${field} = ${name}`);
          if (res.status === 200 && typeof value === 'string' && value !== '') {
            // Accepted text comes back exactly as sent (or as the documented empty → null).
            const echoed = (res.body as Record<string, unknown>)[field];
            if (typeof echoed === 'string') assert.equal(echoed, value, `${key} ${field} ${name}`);
          }
        }
        for (const lone of LONE_SURROGATES) {
          const object = { ...base(), [field]: lone };
          const res = await send(
            'POST',
            pathOf(route.pattern),
            JSON.stringify(authBody(object)),
            `${field} lone surrogate`,
          );
          assert.deepEqual(res.body, INVALID_JSON, `${key} ${field} lone surrogate`);
        }
        // An unknown field named with hostile unicode.
        const res = await send(
          'POST',
          pathOf(route.pattern),
          JSON.stringify(authBody({ ...base(), [`${field}\u0000😀\u202E`]: 1 })),
          'hostile field name',
        );
        assertApiError(res);
      }
    }
  });

  it('treats __proto__, constructor and prototype as ordinary names', async () => {
    const names = ['__proto__', 'constructor', 'prototype'];
    for (const field of names) {
      const body = `{"auth":${JSON.stringify({ type: 'token', token })},"object":{"${field}":{"x":1},"name":"n","slug":"${fresh('r')}"}}`;
      const res = await send('POST', '/v0/users/org-roles', body, `field ${field}`);
      assert.equal((res.body as { text: string }).text, `org-role does not have a ${field} field`);
    }
    if (!has('POST', '/v0/projects')) return;
    // Valid usernames: a users map must keep them (valibot's record() dropped them).
    const users = `{${names.map((n) => `"${n}":{"member":true}`).join(',')}}`;
    const slug = fresh('protos');
    const object = `{"name":"n","slugs":["${slug}"],"users":${users}}`;
    const body = `{"auth":${JSON.stringify({ type: 'token', token })},"object":${object}}`;
    const unknown = await send('POST', '/v0/projects', body, 'unknown prototype-named users');
    assert.equal(
      (unknown.body as { text: string }).text,
      'The project does not contain a valid user reference',
    );
    for (const username of names) {
      assert.equal((await server.api.post('/users', token, { username })).status, 200, username);
    }
    const res = await send('POST', '/v0/projects', body, 'prototype-named users');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(JSON.parse(res.text).users).sort(), [...names].sort());
  });

  it('answers 100 seeded random mutations of every POST object', async () => {
    const seed = Number(process.env.HOSTILE_SEED ?? 20261123);
    const random = seededRandom(seed);
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const base = bases.get(`POST ${route.pattern}`);
      if (!base) continue;
      for (let i = 0; i < 100; i++) {
        const object: Record<string, unknown> = base();
        // Renaming a fixture (slugs: ['x'] is valid) would make later requests miss it.
        const renames = route.pattern.includes(':') ? ['slug', 'slugs'] : [];
        const fields = [...Object.keys(object), 'extra', 'uuid', 'revision', 'parents'].filter(
          (f) => !renames.includes(f),
        );
        const changes = 1 + Math.floor(random() * 3);
        for (let c = 0; c < changes; c++) {
          const field = fields[Math.floor(random() * fields.length)] as string;
          if (random() < 0.15) delete object[field];
          else object[field] = randomJson(random, 3);
        }
        const body = withRaw(JSON.stringify(authBody(object)));
        await send(
          'POST',
          pathOf(route.pattern),
          body,
          `seed ${seed} #${i}: ${body.slice(0, 300)}`,
        );
      }
    }
  });

  it('answers hostile login bodies with kind 4 or 7 and never lets anyone in', async () => {
    const fields = { type: 'password', username: 'admin', password: 'wrong' };
    for (const field of Object.keys(fields)) {
      for (const { name, value } of HOSTILE_VALUES) {
        const body = withRaw(JSON.stringify({ auth: { ...fields, [field]: value } }));
        const res = await send('POST', '/v0/login', body, `auth.${field} = ${name}`);
        assert.equal(res.status, 401, `login auth.${field} = ${name}: ${res.text}`);
        assert.equal((res.body as { error: string }).error, 'Authentication failure');
      }
    }
  });

  it('refuses hostile path identifiers with kind 5 (or 404) on every method', async () => {
    const segments = [
      '%00',
      'a%00b',
      '%2F',
      'a%2Fb',
      '..%2F..%2Fetc%2Fpasswd',
      '..%5C..%5C',
      '%2e%2e%2fx',
      '%E0%A4%A',
      '%ZZ',
      '%',
      '%F0%9F%98%80',
      '%E2%80%AEnimda',
      '%ED%A0%80',
      '%EF%BF%BD',
      'A'.repeat(5000),
      '-',
      'a--b',
      '%20admin',
      'admin%20',
      '12345678-1234-1234-1234-1234567890ab%00',
    ];
    for (const route of ROUTES.filter((r) => r.pattern.includes(':'))) {
      for (const segment of segments) {
        const path = pathOf(route.pattern, segment);
        // A PUT carries its token in its body, as a POST does (SPEC §2.1).
        const withBody = route.method === 'POST' || route.method === 'PUT';
        const body = withBody ? JSON.stringify(authBody({})) : undefined;
        const url = withBody ? path : `${path}?token=${token}`;
        const res = await send(route.method, url, body, `segment ${segment}`);
        const kind = assertApiError(res, `${route.method} ${path}`);
        assert.ok(
          ['Invalid identifier', 'Object not found'].includes(kind),
          `${route.method} ${path}: ${res.text}`,
        );
        if (kind === 'Invalid identifier') {
          assert.equal((res.body as { values: string[] }).values.length, 1);
        }
      }
    }
  });

  it('answers hostile values of every query parameter with 200 or kind 11', async () => {
    const keys = [
      'user',
      'project',
      'activity',
      'start',
      'end',
      'role',
      'include_revisions',
      'include_deleted',
      'skip',
      'limit',
    ];
    const values = [
      '',
      '%00',
      '%E0%A4%A',
      '%F0%9F%98%80',
      '%ED%A0%80',
      'a'.repeat(5000),
      '2026-02-30',
      '0000-00-00',
      '-1',
      '1e999',
      'NaN',
      'ADMIN',
      ids.project ?? 'p',
      ids.activity ?? 'a',
    ];
    const gets = ROUTES.filter((r) => r.method === 'GET');
    for (const route of gets) {
      const path = pathOf(route.pattern);
      for (const key of keys) {
        for (const value of values) {
          const res = await send(
            'GET',
            `${path}?token=${token}&${key}=${value}&${key}=${value}x`,
            undefined,
            `${key}=${value}`,
          );
          if (res.status !== 200) {
            const error = (res.body as { error: string }).error;
            assert.ok(
              ['Bad query value', 'Object not found'].includes(error),
              `${path}?${key}=${value}: ${res.text}`,
            );
          }
        }
      }
      const range = await send(
        'GET',
        `${path}?token=${token}&start=2026-02-01&end=2026-01-01`,
        undefined,
        'start > end',
      );
      assertApiAnswer(range);
    }
  });

  it('takes the first of repeated query parameters and refuses invalid values with kind 11', async () => {
    const lists = ROUTES.filter(
      (r) =>
        r.method === 'GET' && !r.pattern.includes(':') && !SINGLE_OBJECT_GETS.includes(r.pattern),
    );
    for (const route of lists) {
      const path = route.pattern;
      const ok = await send('GET', `${path}?token=${token}&token=garbage`, undefined, 'two tokens');
      assert.equal(ok.status, 200, `${path} first token wins: ${ok.text}`);
      const bad = await send(
        'GET',
        `${path}?token=garbage&token=${token}`,
        undefined,
        'bad token first',
      );
      assert.equal(bad.status, 401);
      for (const query of [
        'limit=1&limit=x',
        'skip=0&skip=-1',
        'include_deleted=true&include_deleted=false',
        'include_deleted=%E0%A4%A',
        'limit=%FF',
        'x=%',
        'limit=99999999999999999999',
        'limit=1e999',
        'limit=-0',
        'skip=NaN',
        'include_deleted=%00',
        'include_revisions=1&include_revisions=maybe',
      ]) {
        const res = await send('GET', `${path}?token=${token}&${query}`, undefined, query);
        if (res.status !== 200) {
          assert.equal(
            (res.body as { error: string }).error,
            'Bad query value',
            `${path}?${query}`,
          );
        }
      }
      const limited = await send(
        'GET',
        `${path}?token=${token}&limit=1&limit=5`,
        undefined,
        'limit twice',
      );
      assert.ok(
        Array.isArray(limited.body) && limited.body.length <= 1,
        `${path} first limit wins`,
      );
    }
  });

  it('ignores the Content-Type: any type answers as application/json does', async () => {
    const path = '/v0/users/org-roles';
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=latin1',
    ]) {
      const body = JSON.stringify(authBody({ name: fresh('CT'), slug: fresh('ct') }));
      const res = await send('POST', path, body, type, { 'Content-Type': type });
      assert.equal(res.status, 200, `${type}: ${res.text}`);
      const refused = await send('POST', path, 'a=1&b=2', type, { 'Content-Type': type });
      assert.deepEqual(refused.body, INVALID_JSON);
    }
  });

  it('keeps answering after all of it', async () => {
    assert.deepEqual((await server.api.raw('/health')).body, { status: 'ok' });
    assert.equal((await server.api.get('/users', token)).status, 200);
  });
});

describe('slow clients', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      timeouts: { headersMs: 1000, requestMs: 2000, keepAliveMs: 1000, checkIntervalMs: 200 },
    });
  });
  after(() => server.close());

  /** Opens a socket, trickles `parts` one every `everyMs`, resolves when the server closes it. */
  function trickle(parts: string[], everyMs: number): Promise<{ ms: number; reply: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(Number(port), '127.0.0.1');
      let reply = '';
      let i = 0;
      const timer = setInterval(() => {
        if (i < parts.length && !socket.destroyed) socket.write(parts[i++] as string);
      }, everyMs);
      socket.on('data', (d) => {
        reply += d.toString();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ ms: Date.now() - started, reply });
      });
      setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        reject(new Error('the server kept a slow connection open for 10 s'));
      }, 10_000);
    });
  }

  it('closes a connection whose headers never finish', async () => {
    const parts = ['GET /v0/users HTTP/1.1\r\n', 'Host: x\r\n'];
    for (let i = 0; i < 100; i++) parts.push(`X-Slow-${i}: 1\r\n`);
    const { ms } = await trickle(parts, 100);
    assert.ok(ms < 4000, `closed after ${ms} ms`);
  });

  it('closes a connection whose body never finishes', async () => {
    const head =
      'POST /v0/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const { ms, reply } = await trickle([head, ...'{"auth":{"type":"token"'.split('')], 100);
    assert.ok(ms < 5000, `closed after ${ms} ms`);
    assert.ok(!reply.includes(' 500 '), reply);
  });

  it('logs a client that leaves mid-body as 499, not as a server error', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    // It leaves once the server has its request's head and is reading the body.
    const requested = once(server.running.server, 'request');
    socket.write('POST /v0/users HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"auth":');
    await requested;
    socket.destroy();
    const line = /"path":"\/v0\/users","route":"\/v0\/users","status":499/;
    const giveUp = Date.now() + 10_000;
    while (!line.test(server.logs.join('')) && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const logs = server.logs.join('');
    assert.doesNotMatch(logs, /unexpected error|"status":500/);
    assert.match(logs, line);
  });

  it('still serves other clients while slow ones wait', async () => {
    const slow = trickle(['GET /health HTTP/1.1\r\n'], 100);
    const res = await server.api.raw('/health');
    assert.equal(res.status, 200);
    await slow;
  });

  it('reads odd request targets as paths and keeps running', async () => {
    // `//[` once crashed the process: new URL() read it as a host and threw.
    for (const target of [
      '//[',
      '//evil.example/v0/users',
      '//',
      '*',
      '/v0/users/%E0%A4%A',
      '/%',
    ]) {
      const { reply } = await trickle(
        [`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
        10,
      );
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]);
      assert.ok([400, 401, 404].includes(status), `${target}: ${reply}`);
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, status, target);
    }
    assert.equal((await server.api.raw('/health')).status, 200);
  });
});
