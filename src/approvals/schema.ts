// Shapes of the objects the decisions (approve, reject, reopen) and PUT /v0/lock accept.
import * as v from 'valibot';
import { isCalendarDate } from '../dates';
import type { Decision, LockUpdate, WeekSubmit } from '../shapes/approval';
import { sameKeys } from '../shapes/kit';

const comment = v.message(
  v.pipe(v.string(), v.minLength(1), v.maxLength(2000)),
  'string of 1 to 2000 characters',
);

/** Submit: no fields (the object may be left out). */
export const submitSchema = v.strictObject({});

/** Approve and reopen: a comment may be given. */
export const decisionSchema = v.strictObject({ comment: v.optional(comment) });
/** Reject: the comment says what to fix, so it is required. */
export const rejectionSchema = v.strictObject({ comment });

export const lockSchema = v.strictObject({
  before: v.message(v.nullable(v.pipe(v.string(), v.check(isCalendarDate))), 'date or null'),
});

sameKeys<v.InferInput<typeof decisionSchema>, Decision>(true);
sameKeys<v.InferInput<typeof lockSchema>, LockUpdate>(true);
sameKeys<v.InferInput<typeof submitSchema>, WeekSubmit>(true);
