// Shapes of org-role objects sent to POST /users/org-roles and POST /users/org-roles/:slug
// (SPEC §4.5).
import * as v from 'valibot';
import { sameKeys } from '../shapes/kit';
import type { OrgRoleCreate, OrgRoleUpdate } from '../shapes/org-role';
import { requiredText, slug } from '../validate';

export const createRoleSchema = v.strictObject({ name: requiredText(255), slug: slug() });

export const updateRoleSchema = v.strictObject({
  name: v.optional(requiredText(255)),
  slug: v.optional(slug()),
});

// The keys each accepts are those its shape in the OpenAPI document lists (src/shapes/org-role.ts).
sameKeys<v.InferInput<typeof createRoleSchema>, OrgRoleCreate>(true);
sameKeys<v.InferInput<typeof updateRoleSchema>, OrgRoleUpdate>(true);
