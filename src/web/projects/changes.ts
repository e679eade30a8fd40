// What a project's revision changed against the one before it (issue 34): its fields,
// and who was added, removed or given another role, where both revisions kept their
// users map (GET /v0/projects/:uuid/history keeps one since issue 34).
import type { ProjectRevision } from '../api';
import { deletionChange, fieldChange, listChange } from '../base/changes';

type Roles = NonNullable<ProjectRevision['users']>[string];

/** A user's roles in words: "member", "manager, member", "spectator". */
const rolesText = (r: Roles) =>
  (['manager', 'member', 'spectator'] as const).filter((k) => r[k]).join(', ') || 'none';

/** "members added: bob, carol (manager)", "members removed: …", "alice: member → manager". */
export function memberChanges(
  before: NonNullable<ProjectRevision['users']>,
  after: NonNullable<ProjectRevision['users']>,
): string[] {
  const named = (users: typeof after, names: string[]) =>
    names.map((n) => {
      const roles = users[n];
      return roles && rolesText(roles) !== 'member' ? `${n} (${rolesText(roles)})` : n;
    });
  const lines: string[] = [];
  const added = Object.keys(after).filter((n) => !(n in before));
  const removed = Object.keys(before).filter((n) => !(n in after));
  if (added.length > 0) lines.push(`members added: ${named(after, added).join(', ')}`);
  if (removed.length > 0) lines.push(`members removed: ${named(before, removed).join(', ')}`);
  for (const [name, roles] of Object.entries(after)) {
    const was = before[name];
    if (was && rolesText(was) !== rolesText(roles)) {
      lines.push(`${name}: ${rolesText(was)} → ${rolesText(roles)}`);
    }
  }
  return lines;
}

/** The changes `r` made to `previous` (undefined: `r` is the first revision). */
export function projectChanges(r: ProjectRevision, previous: ProjectRevision | undefined) {
  if (!previous) {
    const members = r.users ? Object.keys(r.users) : [];
    return [members.length > 0 ? `created with members: ${members.join(', ')}` : 'created'];
  }
  const changes = [
    ...deletionChange(previous.deleted_at, r.deleted_at),
    ...fieldChange('name', previous.name, r.name),
    ...listChange('slugs', previous.slugs, r.slugs),
    ...fieldChange('default activity', previous.default_activity, r.default_activity),
    ...fieldChange('URI', previous.uri, r.uri),
    ...fieldChange('owner', previous.owner, r.owner),
  ];
  if (!previous.users || !r.users) {
    return changes.length > 0 ? changes : ['no visible change (membership not recorded)'];
  }
  const members = memberChanges(previous.users, r.users);
  if (changes.length + members.length === 0) return ['no change (membership unchanged)'];
  return [...changes, ...members];
}
