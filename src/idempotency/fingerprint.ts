// What makes two requests "the same request" for an idempotency key: the method, the
// path, the query (without `token`) and the body without its `auth` block, with the keys
// of every object in sorted order, so that a retry with a renewed token or keys in
// another order is still the same request.
import { createHash } from 'node:crypto';

/** SHA-256 (hex) of the request's method, path, query and body. */
export function requestFingerprint(
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): string {
  const params = [...query].filter(([name]) => name !== 'token').sort(compareEntries);
  let sent = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const { auth: _auth, ...rest } = body as Record<string, unknown>;
    sent = rest;
  }
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(params)}\n`)
    .update(canonicalJson(sent))
    .digest('hex');
}

const compareEntries = (a: [string, string], b: [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/** Text written as it is. */
class Literal {
  constructor(readonly text: string) {}
}
const COMMA = new Literal(',');

/** Closes an array or object in canonicalJson's work list. */
const CLOSE = Symbol('close');

/**
 * JSON text of a parsed JSON value with the keys of every object sorted. Iterative: a
 * body may nest as deep as 1 MiB allows (JSON.stringify runs out of stack at ~10,000
 * levels).
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Each item: a value to write, or a text written as it is (`,`, a key, a closing
  // bracket). Pushed in reverse, so the first to write is popped first.
  const work: unknown[] = [value];
  const closers: string[] = [];
  while (work.length > 0) {
    const item = work.pop();
    if (item === CLOSE) {
      out.push(closers.pop() as string);
    } else if (item instanceof Literal) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      out.push('[');
      closers.push(']');
      work.push(CLOSE);
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i]);
        if (i > 0) work.push(COMMA);
      }
    } else if (typeof item === 'object' && item !== null) {
      out.push('{');
      closers.push('}');
      work.push(CLOSE);
      const keys = Object.keys(item).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        work.push((item as Record<string, unknown>)[key]);
        work.push(new Literal(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`));
      }
    } else {
      // A string, number, boolean or null: JSON.stringify writes these without recursing.
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}
