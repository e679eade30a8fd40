// Shapes of org-role objects sent to POST /users/org-roles and POST /users/org-roles/:slug
// (SPEC §4.5).
import * as v from 'valibot';
import { requiredText, slug } from '../validate';

export const createRoleSchema = v.strictObject({ name: requiredText(255), slug: slug() });

export const updateRoleSchema = v.strictObject({
  name: v.optional(requiredText(255)),
  slug: v.optional(slug()),
});
