// Pagination of every list endpoint (SPEC §6): limit/skip, no default limit unless
// TIMETRACK_DEFAULT_LIMIT sets one, X-Total-Count, Link rel="next", a stable order across
// pages; and a 50,000-entry list streamed complete and in order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase } from '../../../src/db/open';
import type { Reply } from '../../helpers/api';
import { insertTimes } from '../../helpers/bulk';
import { badQueryBody } from '../../helpers/errors';
import { createAdminProject, createUser, uniqueSlug } from '../../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/server';

const LISTS = ['/users', '/users/org-roles', '/projects', '/activities', '/times'] as const;

/** The identity of a list item, whatever the resource. */
const keyOf = (item: Record<string, unknown>) => String(item.uuid ?? item.username ?? item.slug);
const keys = (res: Reply) => (res.body as Record<string, unknown>[]).map(keyOf);

/** Five of each resource, made through the API; the admin logs time on one project. */
async function seed(server: TestServer) {
  const token = server.adminToken;
  const { project, activity } = await createAdminProject(server);
  const ok = (res: Reply) => assert.equal(res.status, 200, res.text);
  for (let i = 0; i < 5; i++) {
    await createUser(server);
    ok(
      await server.api.post('/users/org-roles', token, {
        name: `Role ${i}`,
        slug: uniqueSlug('r'),
      }),
    );
    ok(await server.api.post('/activities', token, { name: `A ${i}`, slug: uniqueSlug('a') }));
    ok(await server.api.post('/projects', token, { name: `P ${i}`, slugs: [uniqueSlug('p')] }));
    ok(
      await server.api.post('/times', token, {
        duration: 60 * (i + 1),
        user: ADMIN.username,
        project,
        date_worked: `2024-03-0${i + 1}`,
      }),
    );
  }
  return { project, activity };
}

/** Follows rel="next" links from `first` (with the token as a Bearer header). */
async function followPages(server: TestServer, first: Reply) {
  const pages = [first];
  let link = first.headers.get('link');
  while (link) {
    const match = /^<([^>]+)>; rel="next"$/.exec(link);
    assert.ok(match, `malformed Link header ${link}`);
    const res = await server.api.raw(match[1]!, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    assert.equal(res.status, 200, res.text);
    pages.push(res);
    link = res.headers.get('link');
    assert.ok(pages.length < 100, 'Link headers do not end');
  }
  return pages;
}

describe('pagination', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await seed(server);
  });
  after(() => server.close());

  it('returns whole lists by default, with X-Total-Count and no Link', async () => {
    for (const path of LISTS) {
      const res = await server.api.get(path, server.adminToken);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.ok(res.body.length >= 5, path);
      assert.equal(res.headers.get('x-total-count'), String(res.body.length), path);
      assert.equal(res.headers.get('link'), null, path);
    }
  });

  it('pages with limit and skip in the same order as the whole list', async () => {
    for (const path of LISTS) {
      const whole = keys(await server.api.get(path, server.adminToken));
      const page = await server.api.get(path, server.adminToken, { limit: 2, skip: 1 });
      assert.deepEqual(keys(page), whole.slice(1, 3), path);
      assert.equal(page.headers.get('x-total-count'), String(whole.length), path);
    }
  });

  it('links each page to the next until the list is exhausted', async () => {
    for (const path of LISTS) {
      const whole = keys(await server.api.get(path, server.adminToken));
      const first = await server.api.get(path, server.adminToken, { limit: 2 });
      const pages = await followPages(server, first);
      assert.equal(pages.length, Math.ceil(whole.length / 2), path);
      assert.deepEqual(pages.flatMap(keys), whole, path);
      for (const p of pages) assert.equal(p.headers.get('x-total-count'), String(whole.length));
      assert.equal(pages.at(-1)!.headers.get('link'), null);
    }
  });

  it('keeps the other parameters in the Link and never the token', async () => {
    const res = await server.api.get('/times', server.adminToken, {
      limit: 1,
      start: '2024-03-01',
      include_revisions: 'true',
    });
    const link = res.headers.get('link') ?? '';
    assert.match(link, /^<\/v0\/times\?/);
    assert.match(link, /start=2024-03-01/);
    assert.match(link, /include_revisions=true/);
    assert.match(link, /skip=1/);
    assert.match(link, /limit=1/);
    assert.doesNotMatch(link, /token=/);
  });

  it('sends a list that ends within its first rows in one piece, with its length', async () => {
    const res = await fetch(`${server.url}/v0/activities?token=${server.adminToken}`);
    const text = await res.text();
    assert.equal(res.headers.get('transfer-encoding'), null);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.equal(res.headers.get('x-total-count'), String((JSON.parse(text) as unknown[]).length));
  });

  it('answers [] past the end, with the total', async () => {
    const whole = await server.api.get('/users', server.adminToken);
    const res = await server.api.get('/users', server.adminToken, { skip: 10_000 });
    assert.deepEqual(res.body, []);
    assert.equal(res.headers.get('x-total-count'), String(whole.body.length));
    assert.equal(res.headers.get('link'), null);
  });

  it('takes limit=0 as no limit and the first occurrence of each parameter', async () => {
    const whole = keys(await server.api.get('/activities', server.adminToken));
    assert.deepEqual(
      keys(await server.api.get('/activities', server.adminToken, { limit: 0 })),
      whole,
    );
    const res = await server.api.get('/activities', server.adminToken, {
      limit: [1, 5],
      skip: [2, 0],
    });
    assert.deepEqual(keys(res), whole.slice(2, 3));
  });

  it('orders by the last change, so an updated object moves to the end', async () => {
    const before = keys(await server.api.get('/users', server.adminToken));
    const first = before.find((u) => u !== ADMIN.username)!;
    const res = await server.api.post(`/users/${first}`, server.adminToken, { meta: 'changed' });
    assert.equal(res.status, 200, res.text);
    const after = keys(await server.api.get('/users', server.adminToken));
    assert.deepEqual(after, [...before.filter((u) => u !== first), first]);
  });

  it('refuses malformed limit and skip values with Bad Query Value', async () => {
    for (const key of ['limit', 'skip']) {
      for (const value of ['-1', 'abc', '1.5', '1e3', '', ' 2', '0x10']) {
        for (const path of LISTS) {
          const res = await server.api.get(path, server.adminToken, { [key]: value });
          assert.deepEqual(res.body, badQueryBody(key, value), `${path}?${key}=${value}`);
          assert.equal(res.status, 400);
        }
      }
    }
  });
});

describe('TIMETRACK_DEFAULT_LIMIT', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { TIMETRACK_DEFAULT_LIMIT: '2' } });
    await seed(server);
  });
  after(() => server.close());

  it('sets the default page size of every list, with a Link to the rest', async () => {
    for (const path of LISTS) {
      const res = await server.api.get(path, server.adminToken);
      assert.equal(res.body.length, 2, path);
      const total = Number(res.headers.get('x-total-count'));
      assert.ok(total >= 5, path);
      assert.match(res.headers.get('link') ?? '', /skip=2&limit=2>; rel="next"$/, path);
      const pages = await followPages(server, res);
      assert.equal(pages.flatMap(keys).length, total, path);
    }
  });

  it('still answers the whole list to limit=0 and any other size asked for', async () => {
    for (const path of LISTS) {
      const all = await server.api.get(path, server.adminToken, { limit: 0 });
      assert.equal(all.body.length, Number(all.headers.get('x-total-count')), path);
      assert.equal(all.headers.get('link'), null);
      const three = await server.api.get(path, server.adminToken, { limit: 3 });
      assert.deepEqual(keys(three), keys(all).slice(0, 3), path);
    }
  });
});

describe('a 50,000-entry list', () => {
  const COUNT = 50_000;
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** Inserts times straight into the server's database file; created_at repeats in tens. */
  const insertMany = (project: string, activity: string) =>
    insertTimes(server.dbFile, {
      username: ADMIN.username,
      project,
      activity,
      count: COUNT,
      duration: (i) => i,
      createdAt: (i) => Date.UTC(2020, 0, 1) + Math.floor(i / 10),
    });

  it('is returned complete, in order (ties by uuid), and the same when paged', async () => {
    const { project, activity } = await seed(server); // 5 made through the API
    insertMany(project, activity);
    // The bulk insert held this process's event loop (the server's too) for seconds: let
    // the server close the keep-alive connections that timed out meanwhile before the next
    // request, or the client may send it on one of them as it closes (ECONNRESET).
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its speed and memory are measured by the benchmark (docs/benchmarks.md), not here.
    const res = await server.api.get('/times', server.adminToken);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    assert.equal(res.headers.get('x-total-count'), String(COUNT + 5));
    const list = res.body as { uuid: string; duration: number; project: string[] }[];
    assert.equal(list.length, COUNT + 5);

    // The order the database defines: last change to the millisecond, then uuid.
    const db = openDatabase(server.dbFile, { readonly: true });
    const expected = db
      .prepare('SELECT uuid FROM times ORDER BY coalesce(updated_at, created_at), uuid')
      .pluck()
      .all() as string[];
    db.close();
    assert.deepEqual(
      list.map((t) => t.uuid),
      expected,
    );
    assert.equal(new Set(expected).size, COUNT + 5);
    assert.deepEqual(list[0]!.project, [project]);

    // A page longer than the rows read before the headers: counted, then read on.
    const page = await server.api.get('/times', server.adminToken, { skip: 30_000, limit: 2500 });
    assert.deepEqual(
      page.body.map((t: { uuid: string }) => t.uuid),
      expected.slice(30_000, 32_500),
    );
    assert.equal(page.headers.get('x-total-count'), String(COUNT + 5));
    assert.match(page.headers.get('link') ?? '', /skip=32500&limit=2500>; rel="next"$/);
    const last = await server.api.get('/times', server.adminToken, { skip: COUNT, limit: 2500 });
    assert.deepEqual(
      last.body.map((t: { uuid: string }) => t.uuid),
      expected.slice(COUNT),
    );
    assert.equal(last.headers.get('x-total-count'), String(COUNT + 5));
    assert.equal(last.headers.get('link'), null);
  });
});
