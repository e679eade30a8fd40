// Shapes of activity objects sent to POST /activities and POST /activities/:slug (SPEC §4.2).
// Server-managed fields (uuid, revision, dates) are absent, so sending one is Bad Object.
import * as v from 'valibot';
import type { ActivityCreate, ActivityRestore, ActivityUpdate } from '../shapes/activity';
import { sameKeys } from '../shapes/kit';
import { requiredText, slug } from '../validate';

export const createActivitySchema = v.strictObject({ name: requiredText(255), slug: slug() });

/** On update every field is optional, but a required field may not be null or empty. */
export const updateActivitySchema = v.strictObject({
  name: v.optional(requiredText(255)),
  slug: v.optional(slug()),
});

/**
 * POST /v0/activities/:uuid/restore (issue 17): the slug the restored activity takes; when
 * left out, the one it had when deleted (it may have been taken since: kind 8).
 */
export const restoreActivitySchema = v.strictObject({ slug: v.optional(slug()) });

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/activity.ts).
sameKeys<v.InferInput<typeof createActivitySchema>, ActivityCreate>(true);
sameKeys<v.InferInput<typeof updateActivitySchema>, ActivityUpdate>(true);
sameKeys<v.InferInput<typeof restoreActivitySchema>, ActivityRestore>(true);
