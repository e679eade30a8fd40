// Shapes of project objects sent to POST /projects and POST /projects/:slug (SPEC §4.1).
// Server-managed fields (uuid, revision, dates) are absent, so sending one is Bad Object.
import * as v from 'valibot';
import { sameKeys } from '../shapes/kit';
import type { ProjectCreate, ProjectRestore, ProjectUpdate } from '../shapes/project';
import { isHttpUri, optionalTyped, requiredText, slugArray } from '../validate';

const slugs = v.message(v.pipe(slugArray(16), v.minLength(1)), 'array of 1 to 16 slugs');

/** The most entries a project's users map may have (docs/api-projects-activities.md). */
export const MAX_PROJECT_USERS = 10_000;

const flag = v.optional(v.boolean());
const roleFlags = v.strictObject({ member: flag, spectator: flag, manager: flag });
type UsersMap = Record<string, v.InferOutput<typeof roleFlags>>;

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A plain check rather than v.record: v.record silently drops the keys `__proto__`,
 * `constructor` and `prototype`, which are valid usernames (JSON.parse makes them own
 * properties, so nothing is polluted) — such a user would vanish from the map.
 */
const isUsersMap = (value: unknown): value is UsersMap =>
  isMap(value) && Object.values(value).every((entry) => v.is(roleFlags, entry));

const USERS_MAP = 'usernames to objects of member, spectator and manager booleans';

/**
 * username → {member, spectator, manager}; a missing flag means false; null clears. The
 * number of entries is checked before any entry (each one is a user lookup).
 */
const users = v.optional(
  v.message(
    v.nullable(
      v.pipe(
        v.custom<Record<string, unknown>>(isMap),
        v.check(
          (map) => Object.keys(map).length <= MAX_PROJECT_USERS,
          `map of at most ${MAX_PROJECT_USERS} ${USERS_MAP}`,
        ),
        v.custom<UsersMap>(isUsersMap),
      ),
    ),
    `map of ${USERS_MAP}`,
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

/**
 * POST /v0/projects/:uuid/restore (issue 17): the slugs the restored project takes; when
 * left out, those it had when deleted (they may have been taken since: kind 8).
 */
export const restoreProjectSchema = v.strictObject({ slugs: v.optional(slugs) });

export type ProjectInput = v.InferOutput<typeof updateProjectSchema>;
export type UsersInput = NonNullable<ProjectInput['users']>;

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/project.ts).
sameKeys<v.InferInput<typeof createProjectSchema>, ProjectCreate>(true);
sameKeys<v.InferInput<typeof updateProjectSchema>, ProjectUpdate>(true);
sameKeys<v.InferInput<typeof restoreProjectSchema>, ProjectRestore>(true);
