// Reads a request body: at most 1 MiB (413 beyond, SPEC §1), parsed as JSON.
import type { IncomingMessage } from 'node:http';
import { badObject } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

export const bodyTooLarge = () => badObject('The request body is larger than 1 MiB', 413);
export const invalidJson = () => badObject('The request body could not be parsed as valid JSON');

/**
 * The parsed body. `empty`, when given, is what a body of no bytes is taken for (POST
 * /v0/logout may be sent without one); otherwise no bytes are invalid JSON.
 */
export async function readJsonBody(req: IncomingMessage, empty?: unknown): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw bodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw bodyTooLarge();
    chunks.push(chunk);
  }
  if (size === 0 && empty !== undefined) return empty;
  let text: string;
  let value: unknown;
  try {
    text = utf8.decode(Buffer.concat(chunks));
    value = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  if (SURROGATE_ESCAPE.test(text) && hasLoneSurrogate(value)) throw invalidJson();
  return value;
}

// JSON must be UTF-8 (RFC 8259 §8.1): invalid bytes are refused, not silently replaced.
const utf8 = new TextDecoder('utf-8', { fatal: true });

// Raw UTF-8 cannot encode a lone surrogate: only a `\uD800`-style escape can.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a string or key holds a lone surrogate (`"\ud800"`): I-JSON (RFC 7493) forbids
 * them and SQLite's UTF-8 would silently store U+FFFD instead, so what is stored would
 * differ from what was sent. Iterative, because bodies may nest thousands of levels.
 */
function hasLoneSurrogate(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
