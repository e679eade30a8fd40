// The manager's week (issue 34): who logged what this week on the projects the signed-in
// user manages, per person and project, with day and week totals, previous and next
// week, and links to the reports. Read-only, from GET /v0/times (the managed projects'
// slugs as filters: a manager sees their projects' entries, SPEC §3) and GET /v0/users
// (display names). Everyone who manages a project reaches it as "Team week" (/team); a
// manager who is a member of no project lands here (Home.tsx).
import { api } from '../api';
import { useCatalog } from '../base/catalog';
import { daysOfWeek, formatWeek, type IsoWeek, isoWeekOf, parseWeek, today } from '../base/dates';
import { formatDuration } from '../base/duration';
import { useResource } from '../base/resource';
import { managedProjects } from '../base/roles';
import { ScrollBox } from '../base/ScrollBox';
import { DayHeadings, TotalsRow, WeekNav } from '../base/week';
import { settingsUrl } from '../reports/settings';
import { navigate, onLinkClick } from '../router';
import { teamRows } from './team';

/** The week's report by person: of one project by day, else of every project. */
const reportUrl = (start: string, end: string, project?: string): string =>
  settingsUrl({
    range: 'custom',
    start,
    end,
    project: project ?? '',
    activity: '',
    user: '',
    group: 'user',
    thenBy: project ? 'day' : 'project',
  });

/** Where the page is (its week is in the query). */
const PATH = '/team';

export function TeamWeek(props: { username: string; query: URLSearchParams }) {
  const thisWeek = isoWeekOf(today());
  const week: IsoWeek = parseWeek(props.query.get('week')) ?? thisWeek;
  const weekText = formatWeek(week);
  const days = daysOfWeek(week);
  const start = days[0] as string;
  const end = days[6] as string;
  const { catalog, error: catalogError } = useCatalog(props.username);
  const projects = catalog ? managedProjects(catalog.projects, props.username) : [];
  const slugs = projects.map((p) => p.slugs[0] as string);
  const data = useResource(catalog ? `${weekText}|${slugs.join(',')}` : undefined, async () =>
    slugs.length === 0 ? [] : api.times({ project: slugs, start, end }),
  );
  // The display names, once: they do not change with the week shown.
  const users = useResource(slugs.length > 0 ? 'users' : undefined, () => api.users());
  const rows = data.data ? teamRows(data.data, projects, users.data ?? [], days) : [];
  const dayTotals = days.map((_, i) => rows.reduce((n, r) => n + (r.days[i] ?? 0), 0));
  const weekTotal = rows.reduce((n, r) => n + r.total, 0);
  const go = (w: IsoWeek) => navigate(`${PATH}?week=${formatWeek(w)}`);
  const error = data.error ?? users.error ?? catalogError;

  return (
    <section class="team-week">
      <div class="toolbar">
        <h1>
          Team week {week.week}, {week.year}
        </h1>
        <WeekNav week={week} thisWeekHref={PATH} go={go} />
      </div>
      <p class="muted">
        Who logged what on the projects you manage, {start} – {end}.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!catalog || data.loading || users.loading ? (
        !error && <p>Loading…</p>
      ) : projects.length === 0 ? (
        <p>You manage no project: this page shows the hours logged on the projects you manage.</p>
      ) : (
        <>
          <ScrollBox label="Team week" class="grid-scroll">
            <table class="grid team-grid">
              <caption>
                Hours per person and project, {start} – {end}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Project</th>
                  <DayHeadings days={days} class="day" />
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && (
                  <tr>
                    <td colSpan={10} class="empty">
                      Nobody has logged time on your projects this week yet.
                    </td>
                  </tr>
                )}
                {rows.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">
                      <span class="project">{row.name}</span>
                      {row.name !== row.user && <span class="activity">{row.user}</span>}
                    </th>
                    <td class="name">{row.project.name}</td>
                    {row.days.map((s, i) => (
                      <td key={days[i]} class={s ? 'day total' : 'day total zero'}>
                        {s ? formatDuration(s) : '–'}
                      </td>
                    ))}
                    <td class="total">{formatDuration(row.total)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <TotalsRow
                  label="Total"
                  colSpan={2}
                  days={days}
                  dayTotals={dayTotals}
                  weekTotal={weekTotal}
                  dayClass="day"
                />
              </tfoot>
            </table>
          </ScrollBox>
          <h2>Reports of this week</h2>
          <ul class="team-reports">
            <li>
              <a href={reportUrl(start, end)} onClick={onLinkClick}>
                Everyone, per project
              </a>
            </li>
            {projects.map((p) => (
              <li key={p.uuid}>
                <a href={reportUrl(start, end, p.slugs[0])} onClick={onLinkClick}>
                  {p.name}, per person and day
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
