// A tiny TimeSync client over fetch: POST bodies carry {auth, object}, GET and DELETE
// carry ?token=, exactly as the real clients do. Every reply is checked against the
// OpenAPI document (openapi-check.ts) before the test sees it.
import { checkReply } from './openapi-check';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[]>;

export interface Api {
  url: string;
  get<T = any>(path: string, token?: string, query?: Query): Promise<Reply<T>>;
  post<T = any>(path: string, token: string | undefined, object: unknown): Promise<Reply<T>>;
  del<T = any>(path: string, token?: string, query?: Query): Promise<Reply<T>>;
  raw(path: string, init?: RequestInit): Promise<Reply>;
  login(username: string, password: string, type?: string): Promise<string>;
}

function queryString(token: string | undefined, query: Query = {}): string {
  const params = new URLSearchParams();
  if (token !== undefined) params.set('token', token);
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** fetch, then the reply read and held to the OpenAPI document. */
async function send(url: string, init?: RequestInit): Promise<Reply<any>> {
  const res = await reply(await fetch(url, init));
  checkReply(init?.method ?? 'GET', url, res);
  return res;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? '' : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, headers: res.headers, text };
}

export function createApi(baseUrl: string): Api {
  const api: Api = {
    url: baseUrl,
    get: (path, token, query) => send(`${baseUrl}/v0${path}${queryString(token, query)}`),
    del: (path, token, query) =>
      send(`${baseUrl}/v0${path}${queryString(token, query)}`, { method: 'DELETE' }),
    post: (path, token, object) =>
      send(`${baseUrl}/v0${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          ...(token === undefined ? {} : { auth: { type: 'token', token } }),
          object,
        }),
      }),
    raw: (path, init) => send(`${baseUrl}${path}`, init),
    async login(username, password, type = 'password') {
      const res = await api.raw('/v0/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ auth: { type, username, password } }),
      });
      const token = (res.body as { token?: string }).token;
      if (res.status !== 200 || !token) {
        throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
      }
      return token;
    },
  };
  return api;
}
