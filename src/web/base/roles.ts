// Who a person is on a project (SPEC §3), read from the project's users map, to offer only
// what they may do. No DOM and no session (catalog.ts reads the session when loaded): the
// unit tests run it under Node.
import type { Project } from '../types';

/** Usernames are compared without letter case, as the server does. */
export const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `username` is the project's member, spectator or manager. */
export function hasRole(
  project: Project | undefined,
  username: string,
  role: 'member' | 'spectator' | 'manager',
): boolean {
  return Object.entries(project?.users ?? {}).some(
    ([name, roles]) => sameUser(name, username) && roles[role],
  );
}

/** Live projects where `username` may log time: those they are a member of. */
export const memberProjects = (projects: Project[], username: string): Project[] =>
  projects.filter((p) => !p.deleted_at && hasRole(p, username, 'member'));

/** Live projects where `username` is a manager (they see its entries). */
export const managedProjects = (projects: Project[], username: string): Project[] =>
  projects.filter((p) => !p.deleted_at && hasRole(p, username, 'manager'));

/** The project a time shows (by any of its slugs). */
export function projectOf(projects: Project[], slugs: string[]): Project | undefined {
  return projects.find((p) => p.slugs.some((s) => slugs.includes(s)));
}
