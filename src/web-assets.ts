// The web app as the server sees it: its asset table (src/embedded.ts) served with the
// security headers every app response carries. No inline script or style anywhere, so
// the policy allows only this origin's files.
import { webAssets } from './embedded';
import { type StaticSite, staticSite } from './http/static';

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

export function webSite(): StaticSite {
  return staticSite(webAssets(), { fallback: '/index.html', headers: WEB_HEADERS });
}
