// An organization role (SPEC §4.5): as the API shows it, and as POST accepts it.
import { name, Slug } from './common';
import { component, type Infer, object, shown } from './kit';

const fields = { name: name(), slug: Slug.ref };

export const OrgRole = component('OrgRole', shown(fields));
export type OrgRole = Infer<typeof OrgRole>;
export const OrgRoleCreate = component('OrgRoleCreate', object(fields, ['name', 'slug']));
export type OrgRoleCreate = Infer<typeof OrgRoleCreate>;
export const OrgRoleUpdate = component('OrgRoleUpdate', object(fields));
export type OrgRoleUpdate = Infer<typeof OrgRoleUpdate>;
