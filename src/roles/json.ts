// An org-role row → the API object (SPEC §4.5), whose shape is src/shapes/org-role.ts.
import type { OrgRole } from '../shapes/org-role';

export interface RoleRow {
  id: number;
  slug: string;
  name: string;
}

export const toRoleJson = (row: RoleRow): OrgRole => ({ name: row.name, slug: row.slug });

export const roleText = (row: RoleRow) => JSON.stringify(toRoleJson(row));
