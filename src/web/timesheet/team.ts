// The manager's week (TeamWeek.tsx), its pure part: which projects a user manages, who
// lands on the team's week instead of a timesheet, and the week's entries summed per
// person and project. No DOM: the unit tests run it under Node.
import { managedProjects, memberProjects, projectOf, sameUser } from '../base/roles';
import type { Project, Time, User } from '../types';

/**
 * A manager who is a member of no project has no timesheet to fill: their home page is
 * their projects' week (issue 34), not the "a manager can add you" dead end.
 */
export const landsOnTeamWeek = (projects: Project[], username: string): boolean =>
  memberProjects(projects, username).length === 0 && managedProjects(projects, username).length > 0;

export interface TeamRow {
  key: string;
  user: string;
  /** The display name, or the username when there is none. */
  name: string;
  project: Project;
  /** Seconds per day of the week, Monday first. */
  days: number[];
  total: number;
}

/** The week's entries on `projects`, one row per person and project, sorted by name. */
export function teamRows(
  times: Time[],
  projects: Project[],
  users: User[],
  days: string[],
): TeamRow[] {
  const rows = new Map<string, TeamRow>();
  for (const t of times) {
    const project = projectOf(projects, t.project);
    const day = days.indexOf(t.date_worked);
    if (!project || day < 0 || t.deleted_at) continue;
    const key = `${t.user.toLowerCase()}|${project.uuid}`;
    let row = rows.get(key);
    if (!row) {
      const user = users.find((u) => sameUser(u.username, t.user));
      row = {
        key,
        user: t.user,
        name: user?.display_name || t.user,
        project,
        days: days.map(() => 0),
        total: 0,
      };
      rows.set(key, row);
    }
    row.days[day] = (row.days[day] ?? 0) + t.duration;
    row.total += t.duration;
  }
  return [...rows.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.project.name.localeCompare(b.project.name),
  );
}
