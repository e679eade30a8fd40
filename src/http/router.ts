// Method + path pattern → handler. Literal segments win over `:params`; a GET route also
// answers HEAD; a known path with an unsupported method is 405 with Allow; anything else
// is 404 (SPEC §1).
import { ApiError, notFound } from '../errors';

export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  pattern: string;
  segments: string[];
  handler: H;
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: Params; pattern: string }
  | { kind: 'method-not-allowed'; allow: string[]; pattern: string }
  | { kind: 'not-found' };

export class Router<H> {
  private readonly routes: Route<H>[] = [];

  get(pattern: string, handler: H): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: H): this {
    return this.add('POST', pattern, handler);
  }
  delete(pattern: string, handler: H): this {
    return this.add('DELETE', pattern, handler);
  }

  add(method: string, pattern: string, handler: H): this {
    this.routes.push({ method, pattern, segments: pattern.split('/').slice(1), handler });
    return this;
  }

  /** Every route's method and pattern, in the order added (tests walk every endpoint). */
  list(): { method: string; pattern: string }[] {
    return this.routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  match(method: string, path: string): Match<H> {
    const parts = path.split('/').slice(1);
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // tolerate a trailing slash
    let best: { score: number; pattern: string } | undefined;
    const byPattern = new Map<string, { route: Route<H>; params: Params }[]>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const score = route.segments.filter((s) => !s.startsWith(':')).length;
      if (!best || score > best.score) best = { score, pattern: route.pattern };
      const list = byPattern.get(route.pattern) ?? [];
      list.push({ route, params });
      byPattern.set(route.pattern, list);
    }
    if (!best) return { kind: 'not-found' };
    const candidates = byPattern.get(best.pattern) ?? [];
    // HEAD is GET without the body (RFC 9110 §9.3.2); node:http drops what is written.
    const hit =
      candidates.find((c) => c.route.method === method) ??
      (method === 'HEAD' ? candidates.find((c) => c.route.method === 'GET') : undefined);
    if (hit) {
      return {
        kind: 'found',
        handler: hit.route.handler,
        params: hit.params,
        pattern: best.pattern,
      };
    }
    const allow = candidates.map((c) => c.route.method);
    if (allow.includes('GET') && !allow.includes('HEAD')) {
      allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    }
    return { kind: 'method-not-allowed', allow, pattern: best.pattern };
  }
}

function matchSegments(segments: string[], parts: string[]): Params | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    const part = parts[i] as string;
    if (seg.startsWith(':')) {
      if (part === '') return undefined;
      params[seg.slice(1)] = part; // still percent-encoded; decoded by the handler's id parser
    } else if (seg !== part) {
      return undefined;
    }
  }
  return params;
}

export const endpointNotFound = (): ApiError => notFound('endpoint');
export const endpointMethodNotAllowed = (allow: string[]): ApiError =>
  new ApiError(
    405,
    'Method not allowed',
    'The method specified is not allowed for the endpoint identified',
    undefined,
    { Allow: allow.join(', ') },
  );
