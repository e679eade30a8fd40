// The manager's week, its pure part (src/web/timesheet/team.ts): who manages what, who
// lands on Team week instead of a timesheet, and a week's entries per person and project.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { managedProjects } from '../../src/web/base/roles';
import { landsOnTeamWeek, teamRows } from '../../src/web/timesheet/team';
import type { Project, Time, User } from '../../src/web/types';

const project = (name: string, slugs: string[], users: Project['users'], deleted = false) =>
  ({
    uuid: `u-${slugs[0]}`,
    name,
    slugs,
    users,
    deleted_at: deleted ? '2024-01-01' : null,
  }) as Project;
const roles = (r: Partial<{ member: boolean; manager: boolean }>) => ({
  member: false,
  spectator: false,
  manager: false,
  ...r,
});
const gwm = project('Ganeti Web Manager', ['gwm', 'ganeti'], {
  alice: roles({ member: true }),
  Carol: roles({ manager: true }),
});
const pgd = project('Protein Geometry DB', ['pgd'], {
  dave: roles({ member: true, manager: true }),
});
const old = project('Old', ['old'], { carol: roles({ manager: true, member: true }) }, true);
const DAYS = [
  '2024-01-29',
  '2024-01-30',
  '2024-01-31',
  '2024-02-01',
  '2024-02-02',
  '2024-02-03',
  '2024-02-04',
];
const time = (user: string, slugs: string[], date: string, duration: number) =>
  ({ user, project: slugs, date_worked: date, duration, deleted_at: null }) as unknown as Time;

describe('the manager’s week', () => {
  it('knows who manages what and who has no timesheet', () => {
    const all = [gwm, pgd, old];
    assert.deepEqual(
      managedProjects(all, 'carol').map((p) => p.name),
      ['Ganeti Web Manager'],
      'any case of the username; not a deleted project',
    );
    assert.equal(landsOnTeamWeek(all, 'carol'), true, 'a member only of a deleted project');
    assert.equal(landsOnTeamWeek(all, 'dave'), false, 'a member who manages keeps the timesheet');
    assert.equal(landsOnTeamWeek(all, 'alice'), false, 'a member who manages nothing');
    assert.equal(landsOnTeamWeek(all, 'erin'), false, 'neither: the usual "a manager can add you"');
  });

  it('sums the week per person and project, by display name', () => {
    const users = [
      { username: 'alice', display_name: 'Zoe Alice' },
      { username: 'bob', display_name: null },
    ] as User[];
    const rows = teamRows(
      [
        time('alice', ['ganeti', 'gwm'], DAYS[0] as string, 3600),
        time('alice', ['gwm'], DAYS[0] as string, 1800),
        time('Alice', ['gwm'], DAYS[6] as string, 600),
        time('bob', ['pgd'], DAYS[2] as string, 7200),
        time('bob', ['gwm'], '2024-02-05', 9999),
        time('bob', ['other'], DAYS[1] as string, 9999),
      ],
      [gwm, pgd],
      users,
      DAYS,
    );
    assert.deepEqual(
      rows.map((r) => [r.name, r.project.name, r.days, r.total]),
      [
        ['bob', 'Protein Geometry DB', [0, 0, 7200, 0, 0, 0, 0], 7200],
        ['Zoe Alice', 'Ganeti Web Manager', [5400, 0, 0, 0, 0, 0, 600], 6000],
      ],
    );
  });
});
