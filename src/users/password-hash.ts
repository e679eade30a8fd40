// What a user's stored password may be: a bcrypt hash of a cost logins will compare. Part
// of the account, so users/ holds it: POST /users accepts a hash of this shape, login
// (auth/login.ts) compares only these, `admin check` and the timesync-node migration
// look at stored ones the same way.

/** A bcrypt hash as bcrypt itself reads it: prefix, cost 04-31, salt and digest. */
export const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/**
 * The highest cost a stored hash may have (SPEC §2.4). Each step doubles the work: one
 * cost-31 comparison is ~40 h of CPU, so a user who could store one would tie up a
 * bcrypt worker per login attempt. Higher costs are refused on input and never compared.
 */
export const MAX_BCRYPT_COST = 14;

/** The cost of a hash of BCRYPT_HASH's shape. */
export const bcryptCost = (hash: string): number => Number(hash.slice(4, 6));

/** A hash we store and compare at login: bcrypt's shape and a cost of 04-14. */
export const isAcceptedHash = (hash: string): boolean =>
  BCRYPT_HASH.test(hash) && bcryptCost(hash) <= MAX_BCRYPT_COST;
