// The entries page: the caller's entries (and, for those allowed, others' — the API
// shows only what SPEC §3 lets the caller see), filtered by dates, a text in the notes,
// project, activity and user, 50 to a page, newest date worked first (Date and Duration
// sort either way: GET /v0/times?order=), with the total duration of all that match;
// edit, delete, restore and the history of each. On a phone each entry is a card.
import { useEffect, useState } from 'preact/hooks';
import { api, type EntryOrder, errorText, onTimeChange } from '../api';
import { activityName, mayDelete, mayEdit, useCatalog } from '../base/catalog';
import { formatDuration } from '../base/duration';
import { isWebUri } from '../base/links';
import { useResource } from '../base/resource';
import { projectOf } from '../base/roles';
import { ScrollBox } from '../base/ScrollBox';
import { EntryDialog, type EntryView } from '../entry/EntryDialog';
import { navigate } from '../router';
import { FilterForm } from './FilterForm';
import {
  type EntryFilters,
  filtersUrl,
  PAGE_SIZE,
  pageWindow,
  readFilters,
  timesQuery,
} from './filters';
import { totalDuration } from './total';

const ORDER_NAMES: Record<EntryOrder, string> = {
  '-date_worked': 'newest date worked first',
  date_worked: 'oldest date worked first',
  '-duration': 'longest first',
  duration: 'shortest first',
};

export function Entries(props: { username: string; query: URLSearchParams }) {
  const { catalog, error: catalogError } = useCatalog(props.username);
  const filters = readFilters(props.query, props.username);
  const key = filtersUrl(filters, props.username);
  const users = useResource('users', () => api.users()).data ?? [];
  const [failed, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [view, setView] = useState<EntryView | undefined>();

  const loaded = useResource(key, async () => {
    const { times, total } = await api.timesPage({
      ...timesQuery(filters),
      order: filters.order,
      ...pageWindow(filters.page),
    });
    return { times, total, number: filters.page };
  });
  const page = loaded.data;
  const error = failed ?? loaded.error;
  const summed = useResource(JSON.stringify(timesQuery(filters)), () =>
    totalDuration(timesQuery(filters)),
  );
  const sum = summed.data;
  // A change anywhere (here, the timer, another page) reloads both; what is shown stays
  // until the new answers come, so the list does not blink.
  useEffect(
    () =>
      onTimeChange(() => {
        loaded.reload();
        summed.reload();
      }),
    [],
  );
  const sortBy = (column: 'date_worked' | 'duration') =>
    go({
      ...filters,
      order: filters.order === `-${column}` ? column : `-${column}`,
      page: 1,
    });
  const sorted = (column: 'date_worked' | 'duration') =>
    filters.order === column
      ? 'ascending'
      : filters.order === `-${column}`
        ? 'descending'
        : undefined;

  const go = (f: EntryFilters) => navigate(filtersUrl(f, props.username));
  const act = async (what: string, run: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await run();
      setStatus(what);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const total = page?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Counted from the page shown, which is the one asked for once it has arrived.
  const first = ((page?.number ?? 1) - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, (page?.number ?? 1) * PAGE_SIZE);
  const me = catalog?.me;
  const projects = catalog?.projects ?? [];
  const activities = catalog?.activities ?? [];

  return (
    <section class="entries">
      <h1>Entries</h1>
      <FilterForm
        filters={filters}
        me={props.username}
        users={users}
        catalog={catalog}
        onApply={(f) => go({ ...f, page: 1 })}
      />
      <p class="status" role="status">
        {status}
      </p>
      {(error ?? catalogError) && (
        <p class="error" role="alert">
          {error ?? catalogError}
        </p>
      )}
      {!page ? (
        !error && <p>Loading…</p>
      ) : (
        <>
          <p class="muted">
            {total === 0
              ? 'No entries match.'
              : `Entries ${first}–${last} of ${total}, ${ORDER_NAMES[filters.order]}`}
            {total > 0 && sum !== undefined && (
              <>
                {' · '}
                <span class="entries-total">Total {formatDuration(sum)}</span>
              </>
            )}
          </p>
          {total > 0 && (
            <ScrollBox label="Time entries">
              <table class="list cards">
                <caption class="visually-hidden">Time entries</caption>
                <thead>
                  <tr>
                    <th scope="col" aria-sort={sorted('date_worked')}>
                      <button type="button" class="sort" onClick={() => sortBy('date_worked')}>
                        Date
                        <Arrow sort={sorted('date_worked')} />
                      </button>
                    </th>
                    <th scope="col">User</th>
                    <th scope="col">Project</th>
                    <th scope="col">Activities</th>
                    <th scope="col" aria-sort={sorted('duration')}>
                      <button type="button" class="sort" onClick={() => sortBy('duration')}>
                        Duration
                        <Arrow sort={sorted('duration')} />
                      </button>
                    </th>
                    <th scope="col">Notes</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {page.times.map((t) => {
                    const what = `entry of ${t.date_worked}, ${formatDuration(t.duration)}`;
                    return (
                      <tr key={t.uuid} class={t.deleted_at ? 'deleted' : undefined}>
                        <td class="nowrap" data-label="Date">
                          {t.date_worked}
                          {t.start_time && (
                            <span class="muted" title={`Started at ${t.start_time}`}>
                              {` ${t.start_time.slice(0, 5)}`}
                            </span>
                          )}
                          {t.deleted_at && <span class="badge">deleted</span>}
                        </td>
                        <td data-label="User">{t.user}</td>
                        <td data-label="Project">
                          {projectOf(projects, t.project)?.name ?? t.project[0]}
                        </td>
                        <td data-label="Activities">
                          {t.activities.map((a) => activityName(activities, a)).join(', ')}
                        </td>
                        <td class="num" data-label="Duration">
                          {formatDuration(t.duration)}
                        </td>
                        <td class="notes" data-label="Notes">
                          {t.notes}
                          {t.issue_uri && (
                            <>
                              {t.notes ? ' ' : ''}
                              {isWebUri(t.issue_uri) ? (
                                <a href={t.issue_uri} rel="noreferrer noopener" target="_blank">
                                  issue
                                </a>
                              ) : (
                                <span>issue: {t.issue_uri}</span>
                              )}
                            </>
                          )}
                        </td>
                        <td class="row-actions">
                          {me && mayEdit(me, t.user) && !t.deleted_at && (
                            <button
                              type="button"
                              aria-label={`Edit ${what}`}
                              onClick={() => setView({ kind: 'edit', time: t })}
                            >
                              Edit
                            </button>
                          )}
                          {me && mayDelete(me, t.user) && !t.deleted_at && (
                            <button
                              type="button"
                              aria-label={`Delete ${what}`}
                              onClick={() =>
                                act(`Deleted the ${what}`, () => api.deleteTime(t.uuid))
                              }
                            >
                              Delete
                            </button>
                          )}
                          {me && mayEdit(me, t.user) && t.deleted_at && (
                            <button
                              type="button"
                              aria-label={`Restore ${what}`}
                              onClick={() =>
                                act(`Restored the ${what}`, () => api.updateTime(t.uuid, {}))
                              }
                            >
                              Restore
                            </button>
                          )}
                          <button
                            type="button"
                            aria-label={`History of ${what}`}
                            onClick={() => setView({ kind: 'history', time: t })}
                          >
                            History
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollBox>
          )}
          {pages > 1 && (
            <nav class="pages" aria-label="Pages">
              <button
                type="button"
                disabled={filters.page <= 1}
                onClick={() => go({ ...filters, page: filters.page - 1 })}
              >
                ‹ Previous
              </button>
              <span>
                Page {filters.page} of {pages}
              </span>
              <button
                type="button"
                disabled={filters.page >= pages}
                onClick={() => go({ ...filters, page: filters.page + 1 })}
              >
                Next ›
              </button>
            </nav>
          )}
        </>
      )}
      <EntryDialog
        view={view}
        catalog={catalog}
        onClose={(saved) => {
          setView(undefined);
          if (saved) setStatus(`Saved the entry of ${saved.date_worked}`);
        }}
      />
    </section>
  );
}

/** ▲ or ▼ beside a sorted column's name; aria-sort says it to screen readers. */
function Arrow(props: { sort: 'ascending' | 'descending' | undefined }) {
  if (!props.sort) return null;
  return <span aria-hidden="true">{props.sort === 'ascending' ? ' ▲' : ' ▼'}</span>;
}
