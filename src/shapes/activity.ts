// An activity (SPEC §4.2): as the API shows it, and as POST accepts it.
import { change, name, parents, revisioned, Slug } from './common';
import { component, type Infer, nullable, object, shown } from './kit';

/**
 * As shown: an activity the old reference server deleted lost its slug (it set it to
 * NULL), and one migrated from it shows `slug: null`, deleted (docs/backups.md).
 */
const fields = { name: name(), slug: nullable(Slug.ref) };

export const ActivityRevision = component('ActivityRevision', shown({ ...fields, ...revisioned }));
export type ActivityRevision = Infer<typeof ActivityRevision>;

/** `parents` only with include_revisions. */
export const Activity = component(
  'Activity',
  shown({ ...fields, ...revisioned, parents: parents(ActivityRevision.ref) }, ['parents']),
);
export type Activity = Infer<typeof Activity>;

/** One revision of GET /v0/activities/{uuid}/history (issue 29): as served, who and when. */
export const ActivityHistoryRevision = component(
  'ActivityHistoryRevision',
  shown({ ...fields, ...revisioned, ...change }),
);
export type ActivityHistoryRevision = Infer<typeof ActivityHistoryRevision>;

const input = { name: name(), slug: Slug.ref };

export const ActivityCreate = component('ActivityCreate', object(input, ['name', 'slug']));
export type ActivityCreate = Infer<typeof ActivityCreate>;
export const ActivityUpdate = component('ActivityUpdate', object(input));
export type ActivityUpdate = Infer<typeof ActivityUpdate>;
/** Restore (issue 17): left out, the slug it had when deleted is taken back. */
export const ActivityRestore = component('ActivityRestore', object({ slug: input.slug }));
export type ActivityRestore = Infer<typeof ActivityRestore>;
