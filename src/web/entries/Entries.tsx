// The entries page: the caller's entries (and, for those allowed, others' — the API
// shows only what SPEC §3 lets the caller see), filtered by dates, project, activity
// and user, 50 to a page, most recently changed first; edit, delete, restore and the
// history of each.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, onTimeChange, type Time, type User } from '../api';
import { activityName, mayDelete, mayEdit, projectOf, useCatalog } from '../base/catalog';
import { formatDuration } from '../base/duration';
import { isWebUri } from '../base/links';
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

export function Entries(props: { username: string; query: URLSearchParams }) {
  const { catalog, error: catalogError } = useCatalog(props.username);
  const filters = readFilters(props.query, props.username);
  const key = filtersUrl(filters, props.username);
  const [users, setUsers] = useState<User[]>([]);
  const [page, setPage] = useState<{ times: Time[]; total: number; number: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [view, setView] = useState<EntryView | undefined>();
  const [changes, setChanges] = useState(0);

  useEffect(() => {
    api.users().then(setUsers, () => setUsers([]));
  }, []);
  useEffect(() => onTimeChange(() => setChanges((n) => n + 1)), []);

  useEffect(() => {
    let live = true;
    setError(undefined);
    const query = timesQuery(filters);
    (async () => {
      const { total } = await api.timesPage({ ...query, limit: '1' });
      const { skip, limit } = pageWindow(total, filters.page);
      const { times } = limit
        ? await api.timesPage({ ...query, skip: String(skip), limit: String(limit) })
        : { times: [] };
      if (live) setPage({ times: times.reverse(), total, number: filters.page });
    })().catch((err) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [key, changes]);

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
              : `Entries ${first}–${last} of ${total}, most recently changed first`}
          </p>
          {total > 0 && (
            <ScrollBox label="Time entries">
              <table class="list">
                <caption class="visually-hidden">Time entries</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">User</th>
                    <th scope="col">Project</th>
                    <th scope="col">Activities</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Notes</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {page.times.map((t) => {
                    const what = `entry of ${t.date_worked}, ${formatDuration(t.duration)}`;
                    return (
                      <tr key={t.uuid} class={t.deleted_at ? 'deleted' : undefined}>
                        <td class="nowrap">
                          {t.date_worked}
                          {t.start_time && (
                            <span class="muted" title={`Started at ${t.start_time}`}>
                              {` ${t.start_time.slice(0, 5)}`}
                            </span>
                          )}
                          {t.deleted_at && <span class="badge">deleted</span>}
                        </td>
                        <td>{t.user}</td>
                        <td>{projectOf(projects, t.project)?.name ?? t.project[0]}</td>
                        <td>{t.activities.map((a) => activityName(activities, a)).join(', ')}</td>
                        <td class="num">{formatDuration(t.duration)}</td>
                        <td class="notes">
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
                ‹ Newer
              </button>
              <span>
                Page {filters.page} of {pages}
              </span>
              <button
                type="button"
                disabled={filters.page >= pages}
                onClick={() => go({ ...filters, page: filters.page + 1 })}
              >
                Older ›
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
