// Copies each kind of object from the old reference server's database into ours, with
// new ids and every uuid, revision, date, slug and permission kept (SPEC §10).
import { NO_SLUG } from '../activities/json';
import { formatDate } from '../dates';
import { isNewUsername, isSlug } from '../identifiers';
import { BCRYPT_HASH, bcryptCost, isAcceptedHash, MAX_BCRYPT_COST } from '../users/password-hash';
import type { Row } from './instance-tables';
import { keptUri } from './stored-uris';
import { bit, chains, dates, type Report, type Write } from './timesync-node-chains';
import type { TimesyncNodeStore } from './timesync-node-store';

const MAX_DURATION = 2_147_483_647;

/** Old user id → new user id. */
export function copyUsers(
  old: TimesyncNodeStore,
  write: Write,
  report: Report,
): Map<number, number> {
  const ids = new Map<number, number>();
  const taken = new Set<string>();
  for (const u of old.users()) {
    const name = u.username;
    if (!isNewUsername(name)) {
      report.skipped.push(`user ${name}: not a valid username (1-64 of A-Z a-z 0-9 - . _ ~)`);
      continue;
    }
    if (taken.has(name.toLowerCase())) {
      report.skipped.push(`user ${name}: differs from another username only in letter case`);
      continue;
    }
    taken.add(name.toLowerCase());
    const bcrypt = u.password !== null && BCRYPT_HASH.test(u.password);
    const hash = bcrypt && isAcceptedHash(u.password as string) ? u.password : null;
    if (!bcrypt) report.withoutPassword.push(name);
    else if (hash === null) {
      report.notes.push(
        `user ${name}: its bcrypt hash has cost ${bcryptCost(u.password as string)}, above ${MAX_BCRYPT_COST}, which logins never check; it was left out (set a password with \`timetrack admin set-password ${name}\`)`,
      );
    }
    const id = ids.size + 1;
    ids.set(u.id, id);
    write('users', {
      id,
      username: name,
      display_name: u.display_name,
      password_hash: hash,
      email: u.email,
      meta: u.meta,
      site_spectator: bit(u.site_spectator),
      site_manager: bit(u.site_manager),
      site_admin: bit(u.site_admin),
      active: u.deleted_at === null ? bit(u.active) : 0, // deleted users are inactive
      created_at: u.created_at,
      updated_at: u.updated_at,
      deleted_at: u.deleted_at,
    });
  }
  return ids;
}

/**
 * Activity uuid → new activity id. The old server's DELETE set the slug of every row that
 * had the current one to NULL (rows from before a rename keep theirs): such a deleted
 * activity is kept, and each row without a slug gets NO_SLUG (shown as null), as that
 * server showed it. Only a live activity must have a valid slug.
 */
export function copyActivities(old: TimesyncNodeStore, write: Write, report: Report) {
  const byUuid = new Map<string, number>();
  const liveSlugs = new Set<string>(); // the old schema did not keep them unique
  for (const { uuid, history, current } of chains(old.activities(), 'activity', report)) {
    const slug = current.slug;
    if (slug === null ? current.deleted_at === null : !isSlug(slug)) {
      report.skipped.push(`activity ${uuid}: slug ${String(slug)} is not a valid slug`);
      continue;
    }
    if (current.deleted_at === null && slug !== null) {
      if (liveSlugs.has(slug)) {
        report.skipped.push(`activity ${uuid}: slug ${slug} is taken by another activity`);
        continue;
      }
      liveSlugs.add(slug);
    }
    const id = byUuid.size + 1;
    byUuid.set(uuid, id);
    const fields = (r: typeof current) => ({
      name: r.name,
      slug: r.slug ?? NO_SLUG,
      ...dates(r),
    });
    write('activities', { id, uuid, revision: history.length + 1, ...fields(current) });
    history.forEach((r, i) => {
      write('activity_revisions', { activity_id: id, revision: i + 1, ...fields(r) });
    });
  }
  return { byUuid };
}

/** Project uuid → new id, and old project row id (any revision) → new id. */
export function copyProjects(
  old: TimesyncNodeStore,
  write: Write,
  report: Report,
  activityByUuid: Map<string, number>,
) {
  const list = [...chains(old.projects(), 'project', report)];
  const uuidOfRow = new Map<number, string>();
  for (const chain of list) {
    for (const row of [...chain.history, chain.current]) uuidOfRow.set(row.id, chain.uuid);
  }
  // The old server hangs each slug on one of the project's rows, any revision.
  const slugsOf = new Map<string, string[]>();
  for (const s of old.projectSlugs()) {
    const uuid = uuidOfRow.get(s.project);
    if (uuid === undefined) {
      report.skipped.push(`project slug ${s.name}: its project row ${s.project} does not exist`);
    } else if (!isSlug(s.name)) {
      report.skipped.push(`project slug ${s.name} of project ${uuid}: not a valid slug`);
    } else {
      slugsOf.set(uuid, [...(slugsOf.get(uuid) ?? []), s.name]);
    }
  }
  const byUuid = new Map<string, number>();
  const byRow = new Map<number, number>();
  for (const { uuid, history, current } of list) {
    const id = byUuid.size + 1;
    byUuid.set(uuid, id);
    for (const row of [...history, current]) byRow.set(row.id, id);
    const slugs = slugsOf.get(uuid) ?? [];
    if (slugs.length === 0) report.notes.push(`project ${uuid}: it has no slugs`);
    const fields = (r: typeof current, revision: number) => {
      const wanted = r.default_activity?.toLowerCase() ?? null;
      const activity = wanted === null ? null : (activityByUuid.get(wanted) ?? null);
      if (wanted !== null && activity === null && r === current) {
        report.notes.push(
          `project ${uuid}: default activity ${wanted} was not migrated; left unset`,
        );
      }
      const uri = checkedUri(report, `project ${uuid} revision ${revision}`, 'uri', r.uri);
      return { name: r.name, uri, owner_id: null, default_activity_id: activity, ...dates(r) };
    };
    const revision = history.length + 1;
    write('projects', { id, uuid, revision, ...fields(current, revision) });
    const live = current.deleted_at === null ? 1 : 0;
    slugs.forEach((slug, position) => {
      write('project_slugs', { project_id: id, position, slug, live });
    });
    // The old server kept no slug history: earlier revisions show the current slugs.
    history.forEach((r, i) => {
      write('project_revisions', {
        project_id: id,
        revision: i + 1,
        ...fields(r, i + 1),
        slugs: JSON.stringify(slugs),
      });
    });
  }
  return { byUuid, byRow };
}

/** userroles → project_users; a later row for the same project and user wins. */
export function copyPermissions(
  old: TimesyncNodeStore,
  write: Write,
  report: Report,
  projectByRow: Map<number, number>,
  users: Map<number, number>,
) {
  const entries = new Map<string, Row & { member: number; spectator: number; manager: number }>();
  for (const r of old.userRoles()) {
    const project_id = projectByRow.get(r.project);
    const user_id = users.get(r.user);
    const what = `permission of user row ${r.user} on project row ${r.project}`;
    if (project_id === undefined) {
      report.skipped.push(`${what}: the project was not migrated`);
    } else if (user_id === undefined) {
      report.skipped.push(`${what}: the user was not migrated`);
    } else {
      entries.set(`${project_id}:${user_id}`, {
        project_id,
        user_id,
        member: bit(r.member),
        spectator: bit(r.spectator),
        manager: bit(r.manager),
      });
    }
  }
  for (const e of entries.values()) {
    if (e.member || e.spectator || e.manager) write('project_users', e); // all-false means none
  }
}

export interface TimeRefs {
  users: Map<number, number>;
  projects: Map<string, number>;
  activities: Map<string, number>;
}

export function copyTimes(old: TimesyncNodeStore, write: Write, report: Report, refs: TimeRefs) {
  let nextId = 1;
  for (const { uuid, history, current } of chains(old.times(), 'time', report)) {
    const problem = [...history, current].map((r) => timeProblem(r, refs)).find(Boolean);
    if (problem) {
      report.skipped.push(`time ${uuid}: ${problem}`);
      continue;
    }
    const id = nextId++;
    const activityIds = (r: typeof current) => {
      const ids = new Set<number>();
      for (const activity of old.activityUuidsOfTime(r.id)) {
        const found = activity === null ? undefined : refs.activities.get(activity);
        if (found !== undefined) ids.add(found);
        else if (r === current) {
          report.notes.push(`time ${uuid}: activity ${activity} was not migrated; left out`);
        }
      }
      return [...ids].sort((a, b) => a - b);
    };
    const fields = (r: typeof current, revision: number) => ({
      duration: r.duration,
      user_id: refs.users.get(r.user),
      project_id: refs.projects.get(r.project.toLowerCase()),
      date_worked: formatDate(r.date_worked as number), // checked by timeProblem
      issue_uri: checkedUri(report, `time ${uuid} revision ${revision}`, 'issue_uri', r.issue_uri),
      notes: r.notes,
      ...dates(r),
    });
    const revision = history.length + 1;
    write('times', { id, uuid, revision, ...fields(current, revision) });
    for (const activity_id of activityIds(current)) {
      write('time_activities', { time_id: id, activity_id });
    }
    history.forEach((r, i) => {
      write('time_revisions', {
        time_id: id,
        revision: i + 1,
        ...fields(r, i + 1),
        activity_ids: JSON.stringify(activityIds(r)),
      });
    });
  }
}

/** A URI as the API would keep it (stored-uris.ts); a refused one is named in the notes. */
const checkedUri = (report: Report, what: string, column: string, value: string | null) =>
  keptUri(value, (why) => report.notes.push(`${what}: ${column} ${why}; left out`)) as
    | string
    | null;

function timeProblem(
  r: { user: number; project: string | null; duration: number; date_worked: number | null },
  refs: TimeRefs,
): string | undefined {
  if (!refs.users.has(r.user)) return `its user (old id ${r.user}) was not migrated`;
  if (!refs.projects.has(r.project?.toLowerCase() ?? '')) {
    return `its project ${r.project} was not migrated`;
  }
  if (!Number.isInteger(r.duration) || r.duration < 0 || r.duration > MAX_DURATION) {
    return `duration ${r.duration} is out of range`;
  }
  if (r.date_worked === null) return 'it has no date_worked';
  return undefined;
}
