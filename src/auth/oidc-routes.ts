// GET /v0/oidc/start and GET /v0/oidc/callback: the browser's two stops on our side of an
// OpenID Connect sign-in (oidc.ts does the protocol). Both answer a redirect, never a
// page: success goes to the web app's /sso with a one-time code in the fragment (which
// browsers never send to a server, so no log or proxy sees it), failure to /sso?error=…
// (web/auth/Sso.tsx says what it means). The sign-in under way is bound to the browser
// by a random id in an HttpOnly cookie sent only to /v0/oidc.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from '../http/context';
import { endpointNotFound } from '../http/router';
import type { Logger } from '../log';
import type { OidcSignIn, Outcome } from './oidc';
import { SIGN_IN_TTL_MS } from './oidc';

export const SIGN_IN_COOKIE = 'timetrack_oidc';
const COOKIE_PATH = '/v0/oidc';
/** Where the web app shows the outcome (a client-side route). */
export const LANDING_PATH = '/sso';

export function oidcRoutes(deps: {
  /** Undefined when `oidc` is not among the auth modules: both routes answer 404. */
  signIn: OidcSignIn | undefined;
  publicUrl: string | undefined;
  trustProxy: boolean;
  log: Logger;
}) {
  const { signIn, publicUrl, log } = deps;
  /** The address browsers use: --public-url, else the one this request came in on. */
  const baseOf = (req: IncomingMessage) => publicUrl ?? requestOrigin(req, deps.trustProxy);

  const start: Handler = async (ctx) => {
    if (!signIn) throw endpointNotFound();
    const base = baseOf(ctx.req);
    let begun: Awaited<ReturnType<OidcSignIn['start']>>;
    try {
      begun = await signIn.start(`${base}/v0/oidc/callback`, ctx.client ?? '');
    } catch (err) {
      log.error('oidc provider unreachable', { reason: (err as Error).message });
      return redirect(ctx.res, landing(base, { refused: 'unavailable' }));
    }
    const cookie = [
      `${SIGN_IN_COOKIE}=${begun.id}`,
      `Path=${COOKIE_PATH}`,
      `Max-Age=${SIGN_IN_TTL_MS / 1000}`,
      'HttpOnly',
      // Lax: sent on the provider's top-level redirect back to the callback, not on
      // another site's requests.
      'SameSite=Lax',
      ...(base.startsWith('https:') ? ['Secure'] : []),
    ].join('; ');
    redirect(ctx.res, begun.url.href, cookie);
  };

  const callback: Handler = async (ctx) => {
    if (!signIn) throw endpointNotFound();
    const outcome = await signIn.finish(cookieOf(ctx.req, SIGN_IN_COOKIE), ctx.query);
    const gone = `${SIGN_IN_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`;
    redirect(ctx.res, landing(baseOf(ctx.req), outcome), gone);
  };

  return { start, callback };
}

function landing(base: string, outcome: Outcome): string {
  if ('code' in outcome) return `${base}${LANDING_PATH}#code=${outcome.code}`;
  const query = new URLSearchParams({ error: outcome.refused });
  if (outcome.username !== undefined) query.set('user', outcome.username);
  return `${base}${LANDING_PATH}?${query}`;
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.writeHead(302, {
    Location: location,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'Content-Length': 0,
    ...(cookie ? { 'Set-Cookie': cookie } : {}),
  });
  res.end();
}

/**
 * http://<Host>, or with --trust-proxy the scheme the proxy says (X-Forwarded-Proto). A
 * forged Host only makes a redirect URI the provider refuses: it must be registered.
 */
function requestOrigin(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-proto'] : undefined;
  const proto = typeof forwarded === 'string' && forwarded.trim() === 'https' ? 'https' : 'http';
  return `${proto}://${req.headers.host ?? 'localhost'}`;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
