// The secret of a personal API token: `tt_` and 32 random bytes in base64url (256 bits,
// so a plain SHA-256 is hash enough: nothing to guess, no need for a slow hash), and the
// hash by which the database knows it. The prefix tells a personal token from a JWT
// (which starts `eyJ`) at a glance, for the server and for secret scanners alike.
import { createHash, randomBytes } from 'node:crypto';

export const PERSONAL_TOKEN_PREFIX = 'tt_';

/** A new token's text: shown to its owner once, never stored. */
export const newSecret = (): string =>
  `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** What is stored of a token, and looked up by. */
export const hashSecret = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export const isPersonalToken = (token: string): boolean => token.startsWith(PERSONAL_TOKEN_PREFIX);
