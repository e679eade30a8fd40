// Who may decide on a week part (SPEC §3 as docs/approvals.md has it), to offer only that:
// the project's managers, site managers and admins, never for their own entries.
import type { Project, User, WeekPart } from '../api';
import { hasRole, projectOf, sameUser } from '../base/roles';

/** Whether `me` manages the project with one of `slugs`. */
const manages = (me: User, projects: Project[], slugs: string[]): boolean =>
  hasRole(projectOf(projects, slugs), me.username, 'manager');

export function mayDecide(me: User, projects: Project[], part: WeekPart): boolean {
  if (sameUser(part.user, me.username)) return false;
  return me.site_admin || me.site_manager || manages(me, projects, part.project);
}

/** Whether the Approvals page has anything for `me`: a site manager, admin or a project's manager. */
export function approvesAnything(me: User, projects: Project[]): boolean {
  return (
    me.site_admin ||
    me.site_manager ||
    projects.some((p) => !p.deleted_at && manages(me, projects, p.slugs))
  );
}
