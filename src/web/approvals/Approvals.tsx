// Approvals (issue 32): the week parts waiting for the caller's decision, by person, with
// hours per day; a person's week opened read-only; approve one or many at once, reject
// with a comment (what to fix), reopen an approved one. Admins also set the lock date.
import { useEffect, useMemo, useState } from 'preact/hooks';
import {
  api,
  errorText,
  onPartsChange,
  type Time,
  type WeekPart,
  type WeekPartDecision,
} from '../api';
import { activityName, useCatalog } from '../base/catalog';
import { Dialog } from '../base/Dialog';
import { daysOfWeek, formatInstant, parseWeek } from '../base/dates';
import { formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';
import { WEEKDAYS } from '../base/week';
import { navigate } from '../router';
import { LockDate } from './LockDate';
import { mayDecide } from './rules';

type Status = WeekPart['status'];
const STATUSES: { value: Status; label: string }[] = [
  { value: 'submitted', label: 'Waiting for approval' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'open', label: 'Open (not submitted)' },
];

const keyOf = (p: Pick<WeekPart, 'user' | 'week' | 'project'>) =>
  `${p.user}|${p.week}|${p.project[0] ?? ''}`;
const daysOf = (week: string) => {
  const w = parseWeek(week);
  return w ? daysOfWeek(w) : [];
};
/** The status filter of GET /v0/times whose entries a part of this status holds. */
const timesStatus = (s: Status) => (s === 'approved' || s === 'submitted' ? s : 'open');

export function Approvals(props: { username: string; query: URLSearchParams }) {
  const { catalog, error: catalogError } = useCatalog(props.username);
  const status = (STATUSES.find((s) => s.value === props.query.get('status'))?.value ??
    'submitted') as Status;
  const [parts, setParts] = useState<WeekPart[] | undefined>();
  const [times, setTimes] = useState<Time[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState<WeekPart[] | undefined>();
  const [viewing, setViewing] = useState<WeekPart | undefined>();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [version, setVersion] = useState(0);

  useEffect(() => onPartsChange(() => setVersion((v) => v + 1)), []);
  useEffect(() => {
    let live = true;
    setSelected(new Set());
    api.approvals({ status }).then(
      async (list) => {
        const first = list.map((p) => daysOf(p.week)[0] ?? '').sort()[0];
        const last = list
          .map((p) => daysOf(p.week)[6] ?? '')
          .sort()
          .at(-1);
        const users = [...new Set(list.map((p) => p.user))];
        const entries =
          list.length === 0
            ? []
            : await api.times({
                user: users,
                start: first,
                end: last,
                status: timesStatus(status),
              });
        if (!live) return;
        setParts(list);
        setTimes(entries);
      },
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [status, version]);

  const me = catalog?.me;
  const decidable = useMemo(
    () => (parts ?? []).filter((p) => me && catalog && mayDecide(me, catalog.projects, p)),
    [parts, catalog],
  );
  /** Seconds per day of each part, from its entries. */
  const perDay = useMemo(() => {
    const map = new Map<string, Map<string, number>>();
    for (const p of decidable) {
      const days = new Map(daysOf(p.week).map((d) => [d, 0]));
      const entries = times.filter(
        (t) =>
          t.user === p.user && t.project.includes(p.project[0] ?? '') && days.has(t.date_worked),
      );
      for (const t of entries) days.set(t.date_worked, (days.get(t.date_worked) ?? 0) + t.duration);
      map.set(keyOf(p), days);
    }
    return map;
  }, [decidable, times]);
  const people = [...new Set(decidable.map((p) => p.user))].sort();

  const decide = async (
    list: WeekPart[],
    action: 'approve' | 'reject' | 'reopen',
    comment?: string,
  ) => {
    setError(undefined);
    const done: string[] = [];
    for (const part of list) {
      try {
        await api.decide(part, action, comment);
        done.push(`${part.user} ${part.week} ${part.project[0]}`);
      } catch (err) {
        setError(`${part.user}, ${part.week}, ${part.project[0]}: ${errorText(err)}`);
        break;
      }
    }
    const verb = { approve: 'Approved', reject: 'Rejected', reopen: 'Reopened' }[action];
    if (done.length)
      setMessage(`${verb} ${done.length === 1 ? done[0] : `${done.length} week parts`}`);
  };

  const toggle = (part: WeekPart) =>
    setSelected((s) => {
      const next = new Set(s);
      const k = keyOf(part);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });
  const chosen = decidable.filter((p) => selected.has(keyOf(p)));

  return (
    <section class="approvals">
      <div class="toolbar">
        <h1>Approvals</h1>
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <div>
            <label for="approvals-status">Show</label>
            <select
              id="approvals-status"
              value={status}
              onChange={(e) => navigate(`/approvals?status=${e.currentTarget.value}`)}
            >
              {STATUSES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        </form>
        {status === 'submitted' && (
          <div class="toolbar-end">
            <button
              type="button"
              class="primary"
              disabled={chosen.length === 0}
              onClick={() => void decide(chosen, 'approve').then(() => setSelected(new Set()))}
            >
              Approve selected ({chosen.length})
            </button>
          </div>
        )}
      </div>
      <p class="status" role="status">
        {message}
      </p>
      {(error ?? catalogError) && (
        <p class="error" role="alert">
          {error ?? catalogError}
        </p>
      )}
      {parts === undefined || !catalog ? (
        <p>Loading…</p>
      ) : people.length === 0 ? (
        <p class="empty">
          {status === 'submitted' ? 'Nothing waits for your approval.' : 'No week parts here.'}
        </p>
      ) : (
        people.map((person) => (
          <ScrollBox key={person} label={`Week parts of ${person}`} class="grid-scroll">
            <table class="grid approvals-table cards">
              <caption>{person}</caption>
              <thead>
                <tr>
                  {status === 'submitted' && (
                    <th scope="col">
                      <span class="visually-hidden">Select</span>
                    </th>
                  )}
                  <th scope="col">Week, project</th>
                  {WEEKDAYS.map((d) => (
                    <th scope="col" key={d}>
                      {d}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {decidable
                  .filter((p) => p.user === person)
                  .map((part) => {
                    const name = `${part.user}, ${part.week}, ${part.project[0]}`;
                    const days = perDay.get(keyOf(part)) ?? new Map<string, number>();
                    return (
                      <tr key={keyOf(part)}>
                        {status === 'submitted' && (
                          <td class="select" data-label="Select">
                            <input
                              type="checkbox"
                              aria-label={`Select ${name}`}
                              checked={selected.has(keyOf(part))}
                              onChange={() => toggle(part)}
                            />
                          </td>
                        )}
                        <th scope="row">
                          <span class="project">{part.week}</span>
                          <span class="activity">{part.project[0]}</span>
                          {part.comment && <span class="comment">“{part.comment}”</span>}
                        </th>
                        {[...days.values()].map((seconds, i) => (
                          <td
                            key={WEEKDAYS[i]}
                            class={seconds ? 'day total' : 'day total zero'}
                            data-label={WEEKDAYS[i]}
                          >
                            {formatDuration(seconds)}
                          </td>
                        ))}
                        <td class="total" data-label="Total">
                          {formatDuration(part.duration)}
                        </td>
                        <td class="row-actions">
                          <button
                            type="button"
                            aria-label={`View ${name}`}
                            onClick={() => setViewing(part)}
                          >
                            View
                          </button>
                          {part.status === 'submitted' && (
                            <>
                              <button
                                type="button"
                                aria-label={`Approve ${name}`}
                                onClick={() => void decide([part], 'approve')}
                              >
                                Approve
                              </button>
                              <button
                                type="button"
                                aria-label={`Reject ${name}`}
                                onClick={() => setRejecting([part])}
                              >
                                Reject
                              </button>
                            </>
                          )}
                          {part.status === 'approved' && (
                            <button
                              type="button"
                              aria-label={`Reopen ${name}`}
                              onClick={() => void decide([part], 'reopen')}
                            >
                              Reopen
                            </button>
                          )}
                        </td>
                      </tr>
                    );
                  })}
              </tbody>
            </table>
          </ScrollBox>
        ))
      )}
      {rejecting && (
        <RejectDialog
          parts={rejecting}
          onCancel={() => setRejecting(undefined)}
          onReject={(comment) => {
            const list = rejecting;
            setRejecting(undefined);
            void decide(list, 'reject', comment);
          }}
        />
      )}
      {viewing && (
        <PartDialog
          part={viewing}
          entries={times.filter(
            (t) =>
              t.user === viewing.user &&
              t.project.includes(viewing.project[0] ?? '') &&
              daysOf(viewing.week).includes(t.date_worked),
          )}
          activityNameOf={(slug) => activityName(catalog?.activities ?? [], slug)}
          onClose={() => setViewing(undefined)}
        />
      )}
      {me?.site_admin && <LockDate />}
    </section>
  );
}

function RejectDialog(props: {
  parts: WeekPart[];
  onCancel: () => void;
  onReject: (comment: string) => void;
}) {
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const part = props.parts[0];
  const label = `Reject ${part?.user}, ${part?.week}, ${part?.project[0]}`;
  return (
    <Dialog open label={label} panel onCancel={props.onCancel}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (comment.trim() === '') {
            setProblem('Say what should be fixed');
            return;
          }
          props.onReject(comment.trim());
        }}
      >
        <h2>{label}</h2>
        <label for="reject-comment">What should be fixed?</label>
        <textarea
          id="reject-comment"
          rows={3}
          maxLength={2000}
          required
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'reject-problem' : undefined}
          value={comment}
          onInput={(e) => setComment(e.currentTarget.value)}
        />
        {problem && (
          <p id="reject-problem" class="error" role="alert">
            {problem}
          </p>
        )}
        <div class="actions">
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Reject
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A person's week part, read-only: its entries and its history. */
function PartDialog(props: {
  part: WeekPart;
  entries: Time[];
  activityNameOf: (slug: string) => string;
  onClose: () => void;
}) {
  const { part } = props;
  const [history, setHistory] = useState<WeekPartDecision[] | undefined>();
  useEffect(() => {
    api.partHistory(part).then(setHistory, () => setHistory([]));
  }, [keyOf(part)]);
  const label = `${part.user}, week ${part.week}, ${part.project[0]}`;
  const entries = [...props.entries].sort((a, b) => a.date_worked.localeCompare(b.date_worked));
  return (
    <Dialog open label={label} panel="wide" onCancel={props.onClose}>
      <h2>{label}</h2>
      <ScrollBox label="Entries" class="grid-scroll">
        <table class="list cards">
          <caption>Entries ({formatDuration(part.duration)} in all)</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Activities</th>
              <th scope="col">Hours</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((t) => (
              <tr key={t.uuid}>
                <td class="nowrap" data-label="Date">
                  {t.date_worked}
                </td>
                <td data-label="Activities">{t.activities.map(props.activityNameOf).join(', ')}</td>
                <td class="num" data-label="Hours">
                  {formatDuration(t.duration)}
                </td>
                <td class="notes" data-label="Notes">
                  {t.notes ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <h3>History</h3>
      {history === undefined ? (
        <p>Loading…</p>
      ) : (
        <ul class="history">
          {history.map((d) => (
            <li key={`${d.at}-${d.action}`}>
              {formatInstant(d.at)} — {d.by}: {d.action}
              {d.comment ? ` (“${d.comment}”)` : ''}
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" class="primary" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
