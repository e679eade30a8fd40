// Shapes of user objects sent to POST /users and POST /users/:username (SPEC §4.4).
import * as v from 'valibot';
import { isTimeZone } from '../dates';
import { sameKeys } from '../shapes/kit';
import type { UserCreate, UserUpdate } from '../shapes/user';
import { isEmail, optionalBoolean, optionalText, optionalTyped, slugArray } from '../validate';
import { BCRYPT_HASH, isAcceptedHash, MAX_BCRYPT_COST } from './password-hash';

/** The most org roles one user object may name (docs/api-auth-users.md). */
export const MAX_ORG_ROLES = 100;

const common = {
  display_name: optionalText(255),
  password: v.optional(
    v.pipe(
      v.message(v.pipe(v.string(), v.regex(BCRYPT_HASH)), 'bcrypt hash'),
      // A hash bcrypt reads but too costly to compare at login (password-hash.ts).
      v.check(isAcceptedHash, `bcrypt hash of cost 4 to ${MAX_BCRYPT_COST}`),
    ),
  ),
  email: optionalTyped(isEmail, 'email address'),
  'org-roles': v.optional(
    v.message(
      v.nullable(slugArray(MAX_ORG_ROLES, `array of at most ${MAX_ORG_ROLES} org-role slugs`)),
      'array of org-role slugs',
    ),
  ),
  site_spectator: optionalBoolean(),
  site_manager: optionalBoolean(),
  site_admin: optionalBoolean(),
  active: optionalBoolean(),
  meta: optionalText(10_000),
  // An extension (issue 31): the zone the timer writes start times in; '' clears it.
  timezone: optionalTyped(isTimeZone, 'an IANA time zone'),
};

export const createUserSchema = v.strictObject({
  // The username's rule is kind 6 (Invalid Username), checked by the service.
  username: v.message(v.string(), 'username'),
  // The interface's create example spells it `displayname`.
  displayname: optionalText(255),
  ...common,
});

export const updateUserSchema = v.strictObject(common);

export type UserInput = v.InferOutput<typeof updateUserSchema>;

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/user.ts).
sameKeys<v.InferInput<typeof createUserSchema>, UserCreate>(true);
sameKeys<v.InferInput<typeof updateUserSchema>, UserUpdate>(true);
