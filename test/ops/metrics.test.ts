// GET /metrics (issue 18): off by default; with TIMETRACK_METRICS=true Prometheus text from
// prom-client whose counters move under a little load: requests by route pattern and
// status, latency, logins by type and outcome, the bcrypt queue, streamed lists, the
// database and WAL sizes, Node's process metrics. No username or token in any label.
// TIMETRACK_METRICS_ADDR serves it on a listener of its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { notFoundBody } from '../helpers/errors';
import { createUser } from '../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../helpers/server';

/** The value of one series, e.g. `name{a="b",c="d"}`, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const scrape = async (url: string) => {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return res.text();
};

const login = (server: TestServer, username: string, password: string) =>
  server.api.raw('/v0/login', {
    method: 'POST',
    body: JSON.stringify({ auth: { type: 'password', username, password } }),
  });

describe('GET /metrics, off by default', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('is an unknown endpoint (JSON 404, not the web app)', async () => {
    const res = await server.api.raw('/metrics');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, notFoundBody('endpoint'));
  });
});

describe('GET /metrics with TIMETRACK_METRICS=true', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_METRICS: 'true', TIMETRACK_LOGIN_MAX_FAILURES: '2' },
    });
  });
  after(() => server.close());

  it('counts requests by route pattern and status, and their latency', async () => {
    const user = await createUser(server, { username: 'metrics-person' });
    const before = await scrape(`${server.url}/metrics`);
    const ok =
      'timetrack_http_requests_total{method="GET",route="/v0/users/:username",status="200"}';
    const missing =
      'timetrack_http_requests_total{method="GET",route="/v0/users/:username",status="404"}';
    const latency =
      'timetrack_http_request_duration_seconds_count{method="GET",route="/v0/users/:username"}';
    await Promise.all(
      Array.from({ length: 5 }, () => server.api.get(`/users/${user.username}`, server.adminToken)),
    );
    await server.api.get('/users/nobody-here', server.adminToken);
    const after = await scrape(`${server.url}/metrics`);
    assert.equal((sample(after, ok) ?? 0) - (sample(before, ok) ?? 0), 5);
    assert.equal((sample(after, missing) ?? 0) - (sample(before, missing) ?? 0), 1);
    assert.equal((sample(after, latency) ?? 0) - (sample(before, latency) ?? 0), 6);
    assert.ok(!after.includes(user.username), 'no username, only the route pattern');
    assert.ok(!after.includes('nobody-here'));
    assert.ok(!after.includes(server.adminToken));
    const scrapes = 'timetrack_http_requests_total{method="GET",route="/metrics",status="200"}';
    assert.ok((sample(after, scrapes) ?? 0) >= 1, 'the scrapes are counted too');
  });

  it('counts logins by type and outcome: success, failure, throttled', async () => {
    const user = await createUser(server, { username: 'login-counted' });
    const series = (outcome: string) =>
      `timetrack_logins_total{type="password",outcome="${outcome}"}`;
    const before = await scrape(`${server.url}/metrics`);
    assert.equal((await login(server, user.username, user.password)).status, 200);
    assert.equal((await login(server, user.username, 'wrong')).status, 401);
    assert.equal((await login(server, user.username, 'wrong')).status, 401);
    assert.equal((await login(server, user.username, 'wrong')).status, 401); // throttled
    const after = await scrape(`${server.url}/metrics`);
    const moved = (outcome: string) =>
      (sample(after, series(outcome)) ?? 0) - (sample(before, series(outcome)) ?? 0);
    assert.deepEqual(
      { success: moved('success'), failure: moved('failure'), throttled: moved('throttled') },
      { success: 1, failure: 2, throttled: 1 },
    );
    assert.ok(!after.includes(user.username));
  });

  it('counts short lists by the thread that read them', async () => {
    const series = (thread: string) => `timetrack_short_lists_total{thread="${thread}"}`;
    const read = (text: string) =>
      (sample(text, series('worker')) ?? 0) + (sample(text, series('event_loop')) ?? 0);
    const before = await scrape(`${server.url}/metrics`);
    const user = ADMIN.username;
    for (const month of ['2024-01', '2024-02', '2024-03']) {
      const res = await server.api.get('/times', server.adminToken, {
        user,
        start: `${month}-01`,
        end: `${month}-28`,
      });
      assert.equal(res.status, 200, res.text);
    }
    const after = await scrape(`${server.url}/metrics`);
    assert.equal(read(after) - read(before), 3);
    assert.equal(sample(after, 'timetrack_short_lists_waiting'), 0, 'none waiting once answered');
  });

  it('reports the database and WAL sizes, streamed lists and Node process metrics', async () => {
    const text = await scrape(`${server.url}/metrics`);
    assert.ok((sample(text, 'timetrack_database_bytes{file="db"}') ?? 0) > 0);
    assert.ok((sample(text, 'timetrack_database_bytes{file="wal"}') ?? -1) >= 0);
    assert.equal(sample(text, 'timetrack_streamed_lists_open'), 0);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.ok(sample(text, name) !== undefined, `${name} is exported`);
    }
  });
});

describe('the bcrypt queue in /metrics', () => {
  it('shows the bcrypt queue while logins wait for the one worker', async (t) => {
    const queued: string[] = [];
    const server = await startTestServer({
      env: { TIMETRACK_METRICS: 'true' },
      bcrypt: { workers: 1, onEvent: (event) => queued.push(event) },
    });
    t.after(() => server.close());
    // The admin's hash has cost 10 (~70 ms a check): six of them keep the queue for a while.
    const logins = Array.from({ length: 6 }, () => login(server, ADMIN.username, ADMIN.password));
    // Event-driven: scrape once the pool reports waiting tasks.
    while (queued.filter((e) => e === 'queued').length < 2) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const during = await scrape(`${server.url}/metrics`);
    await Promise.all(logins);
    assert.ok((sample(during, 'timetrack_bcrypt_queue_length') ?? 0) >= 1, during);
    const afterwards = await scrape(`${server.url}/metrics`);
    assert.equal(sample(afterwards, 'timetrack_bcrypt_queue_length'), 0);
  });
});

describe('TIMETRACK_METRICS_ADDR', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      env: { TIMETRACK_METRICS: 'true', TIMETRACK_METRICS_ADDR: '127.0.0.1:0' },
    });
  });
  after(() => server.close());

  it('serves /metrics on its own listener only', async () => {
    const metricsUrl = server.running.metricsUrl ?? '';
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    assert.notEqual(new URL(metricsUrl).port, new URL(server.url).port);
    await server.api.get('/users', server.adminToken);
    const text = await scrape(metricsUrl);
    const series = 'timetrack_http_requests_total{method="GET",route="/v0/users",status="200"}';
    assert.ok((sample(text, series) ?? 0) >= 1);
    assert.equal((await server.api.raw('/metrics')).status, 404, 'not on the API address');
    assert.equal((await fetch(new URL('/health', metricsUrl))).status, 404);
  });
});
