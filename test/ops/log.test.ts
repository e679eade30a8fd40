import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger, type RequestLine } from '../../src/log';
import { logLines, startTestServer } from '../helpers/server';

/** The line info('request', …) writes for these fields (the general path). */
function generalLine(line: RequestLine): string {
  const lines: string[] = [];
  createLogger('info', (l) => lines.push(l)).info('request', {
    ...line,
    client: line.client ?? null,
    user: line.user ?? null,
  });
  return lines[0] ?? '';
}

function requestLine(line: RequestLine, level: 'info' | 'warn' = 'info'): string | undefined {
  const lines: string[] = [];
  createLogger(level, (l) => lines.push(l)).request(line);
  return lines[0];
}

/** Everything after the time, which differs between two calls. */
const afterTime = (line: string) => line.slice(line.indexOf('"level"'));

const plain: RequestLine = {
  method: 'GET',
  path: '/v0/times/2c2b8e36-6c2e-4c39-8a4c-1c6f5d0a9d11',
  route: '/v0/times/:uuid',
  status: 200,
  ms: 0.4,
  id: '6ea27133-83bf-4dfe-8e35-21e31f6cdd41',
  client: '127.0.0.1',
  user: 'user07',
};

describe('the request log line', () => {
  it('is the line info() writes, byte for byte, whatever its strings hold', () => {
    const cases: RequestLine[] = [
      plain,
      { ...plain, client: undefined, user: undefined, status: 401, ms: 12 },
      { ...plain, path: '/v0/users/"quoted"\\back', user: 'o\'brien "x"' },
      { ...plain, path: '/v0/users/é☃\u2028', user: 'zoë' },
      { ...plain, path: '/v0/users/\u0001\u007f\ud800', id: 'proxy-id.42', ms: 1234.5 },
      { ...plain, method: 'PATCH', route: '(none)', status: 405, client: '::1' },
      { ...plain, client_request_id: 'sent-by-client.1' },
      { ...plain, user: undefined, client_request_id: 'a"b\\c' },
    ];
    for (const line of cases) {
      const fast = requestLine(line) ?? '';
      const general = generalLine(line);
      assert.equal(afterTime(fast), afterTime(general));
      assert.ok(fast.endsWith('}\n'));
      const parsed = JSON.parse(fast) as Record<string, unknown>;
      assert.deepEqual(Object.keys(parsed), Object.keys(JSON.parse(general)));
      assert.equal(parsed.path, line.path);
      assert.equal(parsed.user, line.user ?? null);
    }
  });

  it('carries the time of writing, as an ISO timestamp', () => {
    const before = Date.now();
    const time = JSON.parse(requestLine(plain) ?? '').time as string;
    assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(time) >= before && Date.parse(time) <= Date.now());
  });

  it('is left out below level info', () => {
    assert.equal(requestLine(plain, 'warn'), undefined);
    assert.ok(requestLine(plain, 'info'));
  });
});

describe("the server's own lines", () => {
  it('at debug, a request says when its headers are read, with its client and the id of its request line', async () => {
    const server = await startTestServer({ env: { LOG_LEVEL: 'debug' } });
    try {
      const res = await fetch(`${server.url}/v0/users/admin?token=${server.adminToken}`);
      assert.equal(res.status, 200);
      const id = res.headers.get('x-request-id');
      const lines = logLines(server);
      const started = lines.findIndex((l) => l.msg === 'request started' && l.id === id);
      const answered = lines.findIndex((l) => l.msg === 'request' && l.id === id);
      assert.ok(started >= 0 && answered > started, server.logs.join(''));
      assert.deepEqual(
        { ...lines[started], time: undefined },
        {
          time: undefined,
          level: 'debug',
          msg: 'request started',
          method: 'GET',
          path: '/v0/users/admin',
          id,
          client: '127.0.0.1',
        },
      );
    } finally {
      await server.close();
    }
  });

  it('at info, no request-started lines; a stop is logged where it starts and where it ends', async () => {
    const server = await startTestServer();
    const res = await fetch(`${server.url}/v0/users/admin?token=${server.adminToken}`);
    assert.equal(res.status, 200);
    await server.close();
    const msgs = logLines(server).map((l) => l.msg);
    assert.ok(msgs.includes('request'));
    assert.ok(!msgs.includes('request started'));
    assert.deepEqual(msgs.slice(-2), ['stopping', 'stopped']);
  });
});
