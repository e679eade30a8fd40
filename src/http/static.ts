// Static files served from memory (the web app's table, built by src/web-build.ts): each
// precompressed with brotli and gzip, chosen by Accept-Encoding, with a strong ETag per
// representation and 304 on If-None-Match. Hashed files are immutable; the others
// (index.html) are revalidated on every use. Generic: it knows nothing of the app.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface StaticAsset {
  /** Absolute URL path, e.g. /assets/main-AB12CD.js or /index.html. */
  path: string;
  type: string;
  /** Content-hashed name: cached for a year, never revalidated. */
  immutable: boolean;
  /** Strong ETag of the uncompressed body, quoted. */
  etag: string;
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
}

export interface StaticSite {
  /**
   * Answers a GET or HEAD for `path` when it names an asset, or (for a path shaped
   * like a client-side route) with the fallback page; false when it did not answer.
   */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The codings the client accepts with q > 0 (RFC 9110 §12.5.3), lower case. */
function acceptedCodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter here.
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * `fallback` answers paths made only of plain segments (`/timesheet`, `/a/b-c`), the
 * shape of the app's own routes; anything else (`/x.png`, `//`, `/%`) is not ours.
 */
export function staticSite(
  assets: readonly StaticAsset[],
  options: { fallback?: string; headers?: Record<string, string> } = {},
): StaticSite {
  const byPath = new Map(assets.map((a) => [a.path, a]));
  const fallback = options.fallback ? byPath.get(options.fallback) : undefined;
  if (options.fallback && !fallback) throw new Error(`no asset ${options.fallback}`);
  const headers = options.headers ?? {};
  return {
    serve(req, res, path) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const asset =
        byPath.get(path) ??
        (fallback && /^(\/[A-Za-z0-9_-]+)*\/?$/.test(path) ? fallback : undefined);
      if (!asset) return false;
      const codings = acceptedCodings(req.headers['accept-encoding']);
      const [coding, body, etag] = codings.has('br')
        ? (['br', asset.br, `${asset.etag.slice(0, -1)}-br"`] as const)
        : codings.has('gzip')
          ? (['gzip', asset.gzip, `${asset.etag.slice(0, -1)}-gz"`] as const)
          : ([undefined, asset.body, asset.etag] as const);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('Cache-Control', asset.immutable ? IMMUTABLE : 'no-cache');
      res.setHeader('ETag', etag);
      const vary = res.getHeader('Vary');
      res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      if (matchesEtag(req.headers['if-none-match'], etag)) {
        res.writeHead(304);
        res.end();
        return true;
      }
      res.setHeader('Content-Type', asset.type);
      if (coding) res.setHeader('Content-Encoding', coding);
      res.setHeader('Content-Length', body.length);
      res.writeHead(200);
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
