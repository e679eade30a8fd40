// The twelve error kinds of SPEC §7 and our kinds 13 and 14, one factory each, the answers to a
// misused Idempotency-Key and the server's own 503. Services throw these; the HTTP layer
// writes them (http/respond.ts) and never needs to know which rule failed.
// The body's shape is src/shapes/error.ts.
import type { ErrorBody, ErrorName } from './shapes/error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorName,
    readonly text: string,
    readonly values?: readonly string[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(text);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { status: this.status, error: this.error, text: this.text };
    if (this.values) body.values = [...this.values];
    return body;
  }
}

/** Names of objects as they appear in error texts. */
export type ObjectName =
  | 'project'
  | 'activity'
  | 'time'
  | 'timer'
  | 'user'
  | 'org-role'
  | 'token'
  | 'endpoint'
  | 'week';

// 1
export const notFound = (object: ObjectName) =>
  new ApiError(404, 'Object not found', `Nonexistent ${object}`);
// 2
export const serverError = () => new ApiError(500, 'Server error', 'Unexpected server error');
// 3
export const invalidForeignKey = (object: string, key: string) =>
  new ApiError(
    409,
    'Invalid foreign key',
    `The ${object} does not contain a valid ${key} reference`,
  );
// 4
export const badObject = (text: string, status = 400) => new ApiError(status, 'Bad object', text);
export const unknownField = (object: string, field: string) =>
  badObject(`${object} does not have a ${field} field`);
export const missingField = (object: string, field: string) =>
  badObject(`The ${object} is missing a ${field}`);
/** The JSON type of a value, as Bad Object texts name it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}
export const wrongType = (object: string, field: string, expected: string, received: string) =>
  badObject(`Field ${field} of ${object} should be ${expected} but was sent as ${received}`);
// 5
export const invalidIdentifier = (
  expected: 'slug' | 'uuid' | 'username' | 'token id' | 'week',
  id: string,
) => new ApiError(400, 'Invalid identifier', `Expected ${expected} but received ${id}`, [id]);
// 6
export const invalidUsername = (name: string) =>
  new ApiError(401, 'Invalid username', `Invalid username ${name} is not a valid username`);
// 7
export const authenticationFailure = (reason: string, headers?: Record<string, string>) =>
  new ApiError(401, 'Authentication failure', reason, undefined, headers);
/** An auth block's `type` that no login module has; never String() an untrusted value. */
export const invalidAuthenticationType = (type: unknown) =>
  authenticationFailure(
    typeof type === 'string'
      ? `${type} is not a valid authentication type`
      : 'Invalid authentication type',
  );
// 8
export const slugsAlreadyExist = (slugs: readonly string[]) =>
  slugs.length === 1
    ? new ApiError(
        409,
        'Slug already exists',
        `Slug ${slugs[0]} already exists on another object`,
        slugs,
      )
    : new ApiError(
        409,
        'Slugs already exist',
        `Slugs ${slugs.join(', ')} already exist on another object`,
        slugs,
      );
// 9
export const authorizationFailure = (caller: string, action: string) =>
  new ApiError(401, 'Authorization failure', `${caller} is not authorized to ${action}`);
// 10
export const requestFailure = (object: ObjectName, allow: readonly string[] = ['GET', 'POST']) =>
  new ApiError(
    405,
    'Method not allowed',
    `The method specified is not allowed for the ${object} identified`,
    undefined,
    { Allow: allow.join(', ') },
  );
// 11
export const badQueryValue = (key: string, value: string) =>
  new ApiError(400, 'Bad query value', `Parameter ${key} contained invalid value ${value}`);
// 12
export const usernameAlreadyExists = (name: string) =>
  new ApiError(409, 'Username already exists', `Username ${name} already exists`, [name]);
// 13 (ours, issue 15): POST /v0/timer while the user's timer runs.
export const timerAlreadyRunning = (username: string) =>
  new ApiError(409, 'Timer already running', `A timer is already running for ${username}`);
// 14 (ours, issue 32): a write of a time entry in a submitted or approved week part, or
// dated before the lock date; checked after kinds 1, 4, 3 and 9 (SPEC §3's order).
export const periodLocked = (text: string) => new ApiError(409, 'Period locked', text);
/** Kind 14's text for a week part that is submitted or approved. */
export const weekPartLocked = (
  user: string,
  project: string,
  week: string,
  status: 'submitted' | 'approved',
) => periodLocked(`Time entries of ${user} on ${project} in week ${week} are ${status}`);
/** Kind 14's text for an entry dated before the lock date. */
export const lockDateLocked = (before: string) =>
  periodLocked(`Time entries before ${before} are locked`);

// Beyond SPEC §7 (issue 34): POST /v0/timer/stop without a duration before the timer has run
// one rounding step (--timer-rounding): its rounded duration would be 0, which is never
// booked. Nothing is written and the timer keeps running (stop it later, or discard it).
export const timerTooShort = (username: string, elapsed: number, step: number) =>
  new ApiError(
    409,
    'Timer too short',
    `The timer of ${username} has run ${elapsed} seconds, less than one rounding step of ${step} seconds: nothing was booked`,
  );

// Beyond SPEC §7 (issue 33): POST /v0/tokens with the name of one of the caller's
// unrevoked tokens (in any letter case).
export const tokenNameAlreadyExists = (name: string) =>
  new ApiError(409, 'Token name already exists', `Token name ${name} already exists`, [name]);

// Beyond SPEC §7 (issue 29, item 7): a POST sent with an Idempotency-Key that its user
// used within 24 h for another request (another method, path, query or body; 422, as the
// IETF's Idempotency-Key draft has it), or whose first request is still being answered
// (409, try again after Retry-After).
export const idempotencyKeyReused = () =>
  new ApiError(
    422,
    'Idempotency key reused',
    'Idempotency-Key was already used for a different request',
  );
export const idempotencyKeyInUse = () =>
  new ApiError(
    409,
    'Idempotency key in use',
    'A request with this Idempotency-Key is still being answered; try again shortly',
    undefined,
    { 'Retry-After': '1' },
  );

// Beyond SPEC §7, which has no kind for it: the server is at a limit of its own (not the
// request's fault) and the client should try again after `Retry-After` seconds.
export const serviceUnavailable = (text: string, retryAfterSeconds: number) =>
  new ApiError(503, 'Service unavailable', text, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
