// Who may do what with projects, as SPEC §3 says, so the pages offer only what the
// server will allow (the server decides; these only spare people a refusal).
import type { Project, ProjectRoles, User } from '../types';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function mayCreateProject(me: User): boolean {
  return me.site_admin || me.site_manager;
}

/** Edit (its fields and users map) and delete: its managers, site managers, admins. */
export function mayEditProject(me: User, project: Project): boolean {
  return mayCreateProject(me) || rolesOf(project, me.username).includes('manager');
}

/** The roles a user has in a project, in the order the page lists them. */
export function rolesOf(project: Project, username: string): (keyof ProjectRoles)[] {
  const entry = Object.entries(project.users).find(([name]) => same(name, username));
  const roles: ProjectRoles = entry?.[1] ?? {};
  return (['member', 'spectator', 'manager'] as const).filter((r) => roles[r]);
}
