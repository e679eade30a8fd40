// The fixed set of ways a response is written: JSON object (or ready JSON text), empty
// 200, error.
import type { ServerResponse } from 'node:http';
import type { ApiError } from '../errors';
import { toJsonText } from '../json-text';

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = toJsonText(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Successful DELETE: 200 with an empty body (SPEC §1). */
export function sendEmpty(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Length': 0 });
  res.end();
}

export function sendError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  sendJson(res, err.status, err.toBody());
}

export function startJsonStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { 'Content-Type': JSON_TYPE, ...headers });
}
