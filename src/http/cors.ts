// CORS for browser front ends (SPEC §1): any origin by default, or the configured list.
import type { IncomingMessage, ServerResponse } from 'node:http';

export function applyCors(
  req: IncomingMessage,
  res: ServerResponse,
  origins: readonly string[],
): void {
  const origin = req.headers.origin;
  if (!origin) return;
  if (origins.includes('*')) {
    res.setHeader('Access-Control-Allow-Origin', '*');
  } else if (origins.includes(origin)) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  } else {
    return;
  }
  res.setHeader(
    'Access-Control-Expose-Headers',
    'X-Total-Count, Link, Retry-After, Idempotent-Replayed',
  );
}

/** Answers a preflight request. */
export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS', // PUT: /v0/lock (issue 32)
    'Access-Control-Allow-Headers': 'Content-Type, Authorization, Idempotency-Key',
    'Access-Control-Max-Age': '600',
    'Content-Length': 0,
  });
  res.end();
}
