// The home page (/): the week's timesheet, except for a manager who is a member of no
// project — they have no hours to log, so they land on their projects' week (issue 34,
// at /team, which the navigation then marks as the page shown) instead of being told
// that a manager can add them. While the catalog loads, the timesheet (which shows its
// own Loading…).
import { useEffect } from 'preact/hooks';
import { useCatalog } from '../base/catalog';
import { navigate } from '../router';
import { Timesheet } from './Timesheet';
import { landsOnTeamWeek } from './team';

export function Home(props: { username: string; query: URLSearchParams }) {
  const { catalog } = useCatalog(props.username);
  const team = !!catalog && landsOnTeamWeek(catalog.projects, props.username);
  useEffect(() => {
    if (team)
      navigate(`/team${props.query.toString() ? `?${props.query}` : ''}`, { replace: true });
  }, [team]);
  // On its way to /team (main.tsx), which shows the Team week.
  if (team) return <p>Loading…</p>;
  return <Timesheet username={props.username} query={props.query} />;
}
