// The few plain HTTP calls the runner makes itself: log in, fetch a response to replay
// it from the ceiling server, stream the whole list.
import { request } from 'node:http';
import type { CannedResponse } from './ceiling-http';
import type { LoadRequest } from './load';

export async function login(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/v0/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ auth: { type: 'password', username, password } }),
  });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 200 || !body.token) {
    throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}

/** Headers that belong to one connection or moment, not to the response's bytes. */
const PER_CONNECTION = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** Sends one request and keeps the answer so that the ceiling server can replay it. */
export async function capture(
  url: string,
  path: string,
  init: { method?: string; body?: string } = {},
): Promise<CannedResponse> {
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: init.body ? { 'content-type': 'application/json' } : {},
    body: init.body,
  });
  const body = await res.text();
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!PER_CONNECTION.has(key)) headers[key] = value;
  });
  return { status: res.status, headers, body };
}

export interface StreamResult {
  status: number;
  totalCount: number;
  /** Request sent → first body byte, ms. */
  firstByteMs: number;
  totalMs: number;
  bytes: number;
}

/** Reads a whole (streamed) response, counting bytes and timing the first one. */
export function streamWhole(url: string): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = 0;
    let bytes = 0;
    const req = request(url, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          totalCount: Number(res.headers['x-total-count'] ?? -1),
          firstByteMs,
          totalMs: performance.now() - started,
          bytes,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answers to these GETs (4 at a time), keyed by path; every one must be a 200. */
export async function captureGets(
  url: string,
  requests: LoadRequest[],
): Promise<Record<string, CannedResponse>> {
  const out: Record<string, CannedResponse> = {};
  const queue = [...requests];
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) out[r.path] = await capture(url, r.path);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const failed = Object.entries(out).filter(([, r]) => r.status !== 200);
  if (failed.length > 0) {
    throw new Error(
      `${failed.length} reads failed, e.g. ${failed[0]?.[0]}: ${failed[0]?.[1].body}`,
    );
  }
  return out;
}

/** The answer to one POST, which must be a 200. */
export async function capturePost(url: string, r: LoadRequest): Promise<CannedResponse> {
  const res = await capture(url, r.path, { method: 'POST', body: r.body });
  if (res.status !== 200) throw new Error(`POST ${r.path} failed: ${res.body}`);
  return res;
}
