// Shapes of project objects sent to POST /projects and POST /projects/:slug (SPEC §4.1).
// Server-managed fields (uuid, revision, dates) are absent, so sending one is Bad Object.
import * as v from 'valibot';
import { isHttpUri, optionalTyped, requiredText, slugArray } from '../validate';

const slugs = v.message(
  v.pipe(slugArray(), v.minLength(1), v.maxLength(16)),
  'array of 1 to 16 slugs',
);

const flag = v.optional(v.boolean());
const roleFlags = v.strictObject({ member: flag, spectator: flag, manager: flag });
type UsersMap = Record<string, v.InferOutput<typeof roleFlags>>;

/**
 * A plain check rather than v.record: v.record silently drops the keys `__proto__`,
 * `constructor` and `prototype`, which are valid usernames (JSON.parse makes them own
 * properties, so nothing is polluted) — such a user would vanish from the map.
 */
const isUsersMap = (value: unknown): value is UsersMap =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((entry) => v.is(roleFlags, entry));

/** username → {member, spectator, manager}; a missing flag means false; null clears. */
const users = v.optional(
  v.message(
    v.nullable(v.custom<UsersMap>(isUsersMap)),
    'map of usernames to objects of member, spectator and manager booleans',
  ),
);

// owner and default_activity are checked as references by the service (kind 3), so any
// string passes here; '' is taken as null (SPEC §4).
const anyText = () => true;

const optional = {
  uri: optionalTyped(isHttpUri, 'URI'),
  owner: optionalTyped(anyText, 'username'),
  default_activity: optionalTyped(anyText, 'activity slug'),
  users,
};

export const createProjectSchema = v.strictObject({
  name: requiredText(255),
  slugs,
  ...optional,
});

/** On update every field is optional, but a required field may not be null or empty. */
export const updateProjectSchema = v.strictObject({
  name: v.optional(requiredText(255)),
  slugs: v.optional(slugs),
  ...optional,
});

export type ProjectInput = v.InferOutput<typeof updateProjectSchema>;
export type UsersInput = NonNullable<ProjectInput['users']>;
