// A project (SPEC §4.1): as the API shows it, and as POST accepts it.
import { change, httpUri, name, parents, revisioned, Slug } from './common';
import {
  anyOf,
  array,
  boolean,
  component,
  constant,
  type Infer,
  nul,
  nullable,
  object,
  record,
  shown,
  string,
} from './kit';

/** A user's permissions on a project. */
export const ProjectRole = component(
  'ProjectRole',
  shown({ member: boolean(), spectator: boolean(), manager: boolean() }),
);
export type ProjectRole = Infer<typeof ProjectRole>;

/** The fields a project shows, in each revision. */
const fields = {
  name: name(),
  slugs: array(Slug.ref),
  uri: nullable(string()),
  owner: nullable(string()),
  default_activity: nullable(string()),
};

/** An earlier revision: no users map (SPEC §4.1). */
export const ProjectRevision = component('ProjectRevision', shown({ ...fields, ...revisioned }));
export type ProjectRevision = Infer<typeof ProjectRevision>;

const users = () =>
  record(ProjectRole.ref, { description: 'username → permissions; {} when none' });

/** `parents` only with include_revisions: each exactly as it was served (SPEC §5). */
export const Project = component(
  'Project',
  shown({ ...fields, users: users(), ...revisioned, parents: parents(ProjectRevision.ref) }, [
    'parents',
  ]),
);
export type Project = Infer<typeof Project>;

/**
 * One revision of GET /v0/projects/{uuid}/history (issue 29): as served, who and when.
 * The current revision has `users`, and so does each earlier one made since the map was
 * kept with revisions (issue 34); TimeSync keeps no history of the map.
 */
export const ProjectHistoryRevision = component(
  'ProjectHistoryRevision',
  shown({ ...fields, users: users(), ...revisioned, ...change }, ['users']),
);
export type ProjectHistoryRevision = Infer<typeof ProjectHistoryRevision>;

const input = {
  name: name(),
  slugs: array(Slug.ref, { minItems: 1, maxItems: 16 }),
  uri: anyOf([httpUri(), constant(''), nul()], { description: "'' means null" }),
  owner: nullable(string(), { description: "A username; '' means null" }),
  default_activity: nullable(string(), { description: "An activity slug; '' means null" }),
  users: nullable(record(object({ member: boolean(), spectator: boolean(), manager: boolean() })), {
    description: 'Replaces the whole map; a missing flag is false; null empties it',
  }),
};

export const ProjectCreate = component('ProjectCreate', object(input, ['name', 'slugs']));
export type ProjectCreate = Infer<typeof ProjectCreate>;
export const ProjectUpdate = component('ProjectUpdate', object(input));
export type ProjectUpdate = Infer<typeof ProjectUpdate>;
/** Restore (issue 17): left out, the slugs it had when deleted are taken back. */
export const ProjectRestore = component('ProjectRestore', object({ slugs: input.slugs }));
export type ProjectRestore = Infer<typeof ProjectRestore>;
