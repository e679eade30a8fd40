// A user row → the API object (SPEC §4.4), whose shape is src/shapes/user.ts. The
// password hash is never shown.
import { changeDates } from '../db/revisions';
import type { User } from '../shapes/user';

export interface UserRow {
  id: number;
  username: string;
  display_name: string | null;
  password_hash: string | null;
  email: string | null;
  meta: string | null;
  timezone: string | null;
  site_spectator: number;
  site_manager: number;
  site_admin: number;
  active: number;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
  org_roles: string;
}

export function toUserJson(row: UserRow): User {
  return {
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    'org-roles': JSON.parse(row.org_roles) as string[],
    site_spectator: row.site_spectator === 1,
    site_manager: row.site_manager === 1,
    site_admin: row.site_admin === 1,
    active: row.active === 1,
    meta: row.meta,
    timezone: row.timezone,
    ...changeDates(row),
  };
}

export const userText = (row: UserRow) => JSON.stringify(toUserJson(row));
