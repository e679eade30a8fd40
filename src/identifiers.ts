// The identifier rules of SPEC §1 and the path-parameter parsers built on them.

import { isIsoWeek } from './dates';
import { invalidIdentifier } from './errors';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const USERNAME = /^[A-Za-z0-9._~-]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Lower-case letters and digits in hyphen-joined groups, at least one letter, ≤ 64. */
export const isSlug = (s: string): boolean => s.length <= 64 && SLUG.test(s) && /[a-z]/.test(s);
export const isUsername = (s: string): boolean => USERNAME.test(s);
export const isUuid = (s: string): boolean => UUID.test(s);

/**
 * Well-formed but never a username: `org-roles` is a path under /users, and `.` and `..`
 * are dot-segments, which URL tools (browsers, fetch, curl, proxies) remove from a path
 * before it is sent, so /users/. could not reach such a user.
 */
export const RESERVED_USERNAMES: readonly string[] = ['org-roles', '.', '..'];

/** The rule for a new account's username: the username shape, and not reserved. */
export const isNewUsername = (s: string): boolean =>
  isUsername(s) && !RESERVED_USERNAMES.includes(s.toLowerCase());

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function pathIdentifier(
  kind: 'slug' | 'uuid' | 'username' | 'week',
  valid: (s: string) => boolean,
): (raw: string | undefined) => string {
  return (raw) => {
    const id = decodeSegment(raw ?? '');
    if (!valid(id)) throw invalidIdentifier(kind, id);
    return id;
  };
}

export const slugFromPath = pathIdentifier('slug', isSlug);
export const usernameFromPath = pathIdentifier('username', isUsername);
/** An ISO week YYYY-Www (issue 32). */
export const weekFromPath = pathIdentifier('week', isIsoWeek);
/** Accepted in any letter case, used lower-case. */
export const uuidFromPath = (raw: string | undefined): string =>
  pathIdentifier('uuid', isUuid)(raw).toLowerCase();
