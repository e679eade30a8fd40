// An org-role row → the API object (SPEC §4.5): the one place its shape is written.

export interface RoleRow {
  id: number;
  slug: string;
  name: string;
}

export const toRoleJson = (row: RoleRow) => ({ name: row.name, slug: row.slug });

export const roleText = (row: RoleRow) => JSON.stringify(toRoleJson(row));
