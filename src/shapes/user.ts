// A user (SPEC §4.4): as the API shows it (never its password), and as POST accepts it.
import { CalendarDate, NullableDate, Slug, Username } from './common';
import { array, boolean, component, type Infer, nullable, object, shown, string } from './kit';

export const User = component(
  'User',
  shown({
    username: Username.ref,
    display_name: nullable(string()),
    email: nullable(string()),
    'org-roles': array(Slug.ref),
    site_spectator: boolean(),
    site_manager: boolean(),
    site_admin: boolean(),
    active: boolean(),
    meta: nullable(string()),
    timezone: nullable(string(), {
      description: "Extension: the user's IANA time zone (Europe/Berlin), or null for the server's",
    }),
    created_at: CalendarDate.ref,
    updated_at: NullableDate.ref,
    deleted_at: NullableDate.ref,
  }),
);
export type User = Infer<typeof User>;

const input = {
  display_name: nullable(string(), { maxLength: 255 }),
  password: string({
    pattern: '^\\$2[aby]\\$\\d{2}\\$[./A-Za-z0-9]{53}$',
    description: 'A bcrypt hash made by the client; write-only',
  }),
  email: nullable(string(), { maxLength: 254, description: "'' means null" }),
  'org-roles': nullable(array(Slug.ref)),
  site_spectator: boolean(),
  site_manager: boolean(),
  site_admin: boolean(),
  active: boolean(),
  meta: nullable(string(), { maxLength: 10_000 }),
  timezone: nullable(string(), {
    description: "Extension: an IANA time zone the server knows; '' means null",
  }),
};

export const UserCreate = component(
  'UserCreate',
  object(
    {
      username: Username.ref,
      displayname: nullable(string(), { maxLength: 255, description: 'Same as display_name' }),
      ...input,
    },
    ['username'],
  ),
);
export type UserCreate = Infer<typeof UserCreate>;
export const UserUpdate = component('UserUpdate', object(input));
export type UserUpdate = Infer<typeof UserUpdate>;
