// The object POST /v0/tokens accepts (issue 33).
import * as v from 'valibot';
import { isCalendarDate } from '../dates';
import { sameKeys } from '../shapes/kit';
import type { PersonalTokenCreate } from '../shapes/personal-token';
import { requiredText } from '../validate';

/** 00:00 UTC of a YYYY-MM-DD date, in ms. */
export const startOfDate = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** A date after today (UTC): on its first instant the token is refused. */
const isFutureDate = (s: string): boolean => isCalendarDate(s) && startOfDate(s) > Date.now();

export const createTokenSchema = v.strictObject({
  name: requiredText(100),
  scope: v.message(v.picklist(['read', 'write']), 'read or write'),
  expires_at: v.optional(
    v.message(
      v.nullable(v.pipe(v.string(), v.check(isFutureDate))),
      'date after today (YYYY-MM-DD) or null',
    ),
  ),
});

// The keys it accepts are those its shape in the OpenAPI document lists.
sameKeys<v.InferInput<typeof createTokenSchema>, PersonalTokenCreate>(true);
