// Method + path pattern → handler. Literal segments win over `:params`; a GET route also
// answers HEAD; a known path with an unsupported method is 405 with Allow; anything else
// is 404 (SPEC §1).
import { ApiError, notFound } from '../errors';

export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  pattern: string;
  handler: H;
}

/** The routes of one path pattern, by method. */
interface Pattern<H> {
  pattern: string;
  segments: string[];
  /** Literal segments: the more, the better the match (`/users/org-roles` over `/users/:username`). */
  literals: number;
  handlers: Map<string, H>;
}

export type Match<H> =
  | { kind: 'found'; handler: H; params: Params; pattern: string }
  | { kind: 'method-not-allowed'; allow: string[]; pattern: string }
  | { kind: 'not-found' };

export class Router<H> {
  private readonly routes: Route<H>[] = [];
  private readonly patterns: Pattern<H>[] = [];

  get(pattern: string, handler: H): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: H): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: H): this {
    return this.add('PUT', pattern, handler);
  }
  delete(pattern: string, handler: H): this {
    return this.add('DELETE', pattern, handler);
  }

  add(method: string, pattern: string, handler: H): this {
    this.routes.push({ method, pattern, handler });
    let entry = this.patterns.find((p) => p.pattern === pattern);
    if (!entry) {
      const segments = pattern.split('/').slice(1);
      const literals = segments.filter((s) => !s.startsWith(':')).length;
      entry = { pattern, segments, literals, handlers: new Map() };
      this.patterns.push(entry);
    }
    if (!entry.handlers.has(method)) entry.handlers.set(method, handler);
    return this;
  }

  /** Every route's method and pattern, in the order added (tests walk every endpoint). */
  list(): { method: string; pattern: string }[] {
    return this.routes.map(({ method, pattern }) => ({ method, pattern }));
  }

  /**
   * The pattern with the most literal segments that fits the path (the first added among
   * equals), then its handler for the method. Nothing is allocated for patterns that do
   * not fit: this runs on every request.
   */
  match(method: string, path: string): Match<H> {
    const parts = path.split('/').slice(1);
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop(); // tolerate a trailing slash
    let best: Pattern<H> | undefined;
    for (const p of this.patterns) {
      if ((!best || p.literals > best.literals) && fits(p.segments, parts)) best = p;
    }
    if (!best) return { kind: 'not-found' };
    // HEAD is GET without the body (RFC 9110 §9.3.2); node:http drops what is written.
    const handler =
      best.handlers.get(method) ?? (method === 'HEAD' ? best.handlers.get('GET') : undefined);
    if (handler !== undefined) {
      return {
        kind: 'found',
        handler,
        params: paramsOf(best.segments, parts),
        pattern: best.pattern,
      };
    }
    const allow = [...best.handlers.keys()];
    if (allow.includes('GET') && !allow.includes('HEAD')) {
      allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    }
    return { kind: 'method-not-allowed', allow, pattern: best.pattern };
  }
}

/** Literal segments equal, parameters non-empty. */
function fits(segments: string[], parts: string[]): boolean {
  if (segments.length !== parts.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    const part = parts[i] as string;
    if (seg.charCodeAt(0) === 0x3a /* : */ ? part === '' : seg !== part) return false;
  }
  return true;
}

/** The `:params` of a path that fits, still percent-encoded (the handler's id parser decodes). */
function paramsOf(segments: string[], parts: string[]): Params {
  const params: Params = {};
  segments.forEach((seg, i) => {
    if (seg.charCodeAt(0) === 0x3a /* : */) params[seg.slice(1)] = parts[i] as string;
  });
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
