// The home page (/): the week's timesheet, except for a manager who is a member of no
// project — they have no hours to log, so they land on their projects' week (issue 34)
// instead of being told that a manager can add them. While the catalog loads, the
// timesheet (which shows its own Loading…).
import { useCatalog } from '../base/catalog';
import { lazyPage } from '../base/lazy';
import { Timesheet } from './Timesheet';
import { landsOnTeamWeek } from './team';

const TeamWeek = lazyPage(() => import('./TeamWeek').then((m) => m.TeamWeek));

export function Home(props: { username: string; query: URLSearchParams }) {
  const { catalog } = useCatalog(props.username);
  if (catalog && landsOnTeamWeek(catalog.projects, props.username)) {
    return <TeamWeek username={props.username} query={props.query} path="/" />;
  }
  return <Timesheet username={props.username} query={props.query} />;
}

/** The team's week at /team: for every manager, member of a project or not. */
export const TeamWeekPage = (props: { username: string; query: URLSearchParams }) => (
  <TeamWeek username={props.username} query={props.query} path="/team" />
);
