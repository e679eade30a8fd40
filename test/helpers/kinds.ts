// The answers SPEC §7 allows: an error body of one of its kinds, or of kind 13 (never 500),
// with the HTTP status equal to its `status`.
import assert from 'node:assert/strict';
import type { Reply } from './api';

/** error name → the status it must carry (kind 4 is 400, or 413 for a too-large body). */
const KIND_STATUS: Record<string, readonly number[]> = {
  'Object not found': [404],
  'Invalid foreign key': [409],
  'Bad object': [400, 413],
  'Invalid identifier': [400],
  'Invalid username': [401],
  'Authentication failure': [401],
  'Slug already exists': [409],
  'Slugs already exist': [409],
  'Authorization failure': [401],
  'Method not allowed': [405],
  'Bad query value': [400],
  'Username already exists': [409],
  'Timer already running': [409], // kind 13 (issue 15)
  'Idempotency key in use': [409], // issue 29, item 7
  'Idempotency key reused': [422],
  'Token name already exists': [409], // issue 33: POST /v0/tokens
  'Timer too short': [409], // issue 34: POST /v0/timer/stop before one rounding step
};

/** Asserts `res` is a §7 error of some kind other than Server Error; returns its error name. */
export function assertApiError(res: Reply, context = ''): string {
  const where = `${context} → ${res.status} ${res.text.slice(0, 300)}`;
  assert.notEqual(res.status, 500, where);
  const body = res.body as Record<string, unknown>;
  assert.equal(typeof body, 'object', `error body is not JSON: ${where}`);
  assert.equal(body.status, res.status, where);
  assert.equal(typeof body.error, 'string', where);
  assert.ok(KIND_STATUS[body.error as string]?.includes(res.status), `unknown kind: ${where}`);
  assert.equal(typeof body.text, 'string', where);
  const extra = Object.keys(body).filter((k) => !['status', 'error', 'text', 'values'].includes(k));
  assert.deepEqual(extra, [], where);
  return body.error as string;
}

/** Asserts `res` is a success (200) or a §7 error; never a 500, never something else. */
export function assertApiAnswer(res: Reply, context = ''): void {
  if (res.status === 200) return;
  assertApiError(res, context);
}
