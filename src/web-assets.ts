// The web app as the server sees it: its asset table (src/embedded.ts) served with the
// security headers every app response carries. No inline script or style anywhere, so
// the policy allows only this origin's files.
import { sourceRoot, webAssetTable } from './embedded';
import { type StaticAsset, type StaticSite, staticSite } from './http/static';

export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export const WEB_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Paths the web app never answers: the API's, /health and /metrics stay JSON 404s. */
export function isApiPath(path: string): boolean {
  return path === '/v0' || path.startsWith('/v0/') || path === '/health' || path === '/metrics';
}

let webCache: StaticAsset[] | undefined;

/**
 * The web app's files: the table embedded or written by `node build.mjs --web-only`, or
 * built in memory once when running from source without one.
 */
export function webAssets(): StaticAsset[] {
  if (webCache) return webCache;
  // Required lazily: the bundle reaches web-build only for the (small) decoder.
  const build = require('./web-build') as typeof import('./web-build');
  const table = webAssetTable();
  webCache = table ? build.deserializeAssets(table) : build.buildWeb(sourceRoot).assets;
  return webCache;
}

export function webSite(): StaticSite {
  return staticSite(webAssets(), { fallback: '/index.html', headers: WEB_HEADERS });
}
