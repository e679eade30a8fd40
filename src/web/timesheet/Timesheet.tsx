// The week timesheet (the home page): one row per (project, activities), Monday to
// Sunday, with day, row and week totals. A cell saves on Enter (or when focus leaves it
// changed): a new entry, the one entry updated, or deleted when emptied. A cell holding
// several entries takes a new total on its most recent entry (cell-total.ts), else
// opens them as a list (DayEntries) saying why. Each row can start the timer (RowTimer).
// The week shown lives in the URL (?week=2024-W05). Changes made elsewhere (the timer,
// an entry's dialog) arrive through api.onTimeChange. Each row shows its week part's
// status (issue 32); a submitted or approved part's cells, and days before the lock date,
// are read-only and say why; Submit week sends the week for approval. Rows added and not
// yet filled (Add row, Copy last week) are kept on the server (kept-rows.ts, issue 34).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, errorText, onPartsChange, onTimeChange, type Time, type WeekPart } from '../api';
import { activityName, memberProjects, projectOf, useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import {
  daysOfWeek,
  formatWeek,
  type IsoWeek,
  isoWeekOf,
  parseWeek,
  shiftWeek,
  today,
} from '../base/dates';
import { DURATION_HINT, formatDuration } from '../base/duration';
import { ScrollBox } from '../base/ScrollBox';
import { navigate, onLinkClick } from '../router';
import { AddRow } from './AddRow';
import { Cell } from './Cell';
import { CopyLastWeek } from './CopyLastWeek';
import { cellChange } from './cell-total';
import { DayEntries } from './DayEntries';
import { DayView } from './DayView';
import { FirstProject } from './FirstProject';
import { useKeptRows } from './kept-rows';
import { RowTimer } from './RowTimer';
import { dayShown, useNarrow, weekUrl } from './useDay';

export interface Row {
  key: string;
  /** The slug entries are created with. */
  project: string;
  projectName: string;
  activities: string[];
  activityNames: string;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const STATUS_TEXT: Record<WeekPart['status'], string> = {
  open: 'Open',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** Why a cell cannot be changed, or undefined when it can. */
function lockReason(part: WeekPart | undefined, date: string, lockBefore: string | null) {
  if (lockBefore !== null && date < lockBefore) {
    return `Locked: entries before ${lockBefore} are locked`;
  }
  if (part?.status === 'submitted') return 'Locked: submitted for approval';
  if (part?.status === 'approved') return `Locked: approved by ${part.decided_by ?? 'a manager'}`;
  return undefined;
}

export function Timesheet(props: { username: string; query: URLSearchParams }) {
  const thisWeek = isoWeekOf(today());
  const week: IsoWeek = parseWeek(props.query.get('week')) ?? thisWeek;
  const weekText = formatWeek(week);
  const days = daysOfWeek(week);
  const { catalog, error: catalogError } = useCatalog(props.username);
  const projects = catalog?.projects ?? [];
  const activities = catalog?.activities ?? [];
  const [times, setTimes] = useState<Time[] | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();
  // Rows added and not yet filled, kept on the server (issue 34).
  const kept = useKeptRows(props.username, weekText, setError);
  const [open, setOpen] = useState<{ row: Row; date: string; reason?: string } | undefined>();
  const arrived = useRef<number | undefined>();
  const [parts, setParts] = useState<WeekPart[]>([]);
  const [lockBefore, setLockBefore] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A phone shows one day at a time (DayView); the day is in the URL beside the week.
  const narrow = useNarrow();
  const day = dayShown(days, props.query);

  // The week's parts and the lock date, again whenever a part is submitted or decided.
  useEffect(() => {
    let live = true;
    const load = () => {
      api.approvals({ user: [props.username], start: days[0], end: days[6] }).then(
        (list) => live && setParts(list),
        () => {},
      );
      api.lock().then(
        (lock) => live && setLockBefore(lock.before),
        () => {},
      );
    };
    load();
    const stopParts = onPartsChange(load);
    // An entry added, moved or deleted changes the parts' totals and which parts exist.
    const stopTimes = onTimeChange(load);
    return () => {
      live = false;
      stopParts();
      stopTimes();
    };
  }, [props.username, weekText]);

  useEffect(() => {
    setTimes(undefined);
    let live = true;
    api.times({ user: [props.username], start: days[0], end: days[6] }).then(
      (list) => {
        if (!live) return;
        arrived.current = performance.now();
        setTimes(list);
      },
      (err) => live && setError(errorText(err)),
    );
    // Any change of an entry, made here or elsewhere: keep it if it belongs on this page.
    const stop = onTimeChange(({ uuid, time }) => {
      const shown =
        time &&
        !time.deleted_at &&
        sameUser(time.user, props.username) &&
        days.includes(time.date_worked);
      // In place, so a cell's entries keep their order as they change.
      setTimes((list) => {
        if (!list) return list;
        if (!list.some((t) => t.uuid === uuid)) return shown ? [...list, time] : list;
        return shown
          ? list.map((t) => (t.uuid === uuid ? time : t))
          : list.filter((t) => t.uuid !== uuid);
      });
    });
    return () => {
      live = false;
      stop();
    };
  }, [props.username, weekText]);

  // How long the grid took from the data's arrival to the screen (the browser tests log it).
  useLayoutEffect(() => {
    if (arrived.current === undefined || !times) return;
    performance.measure('timesheet-render', { start: arrived.current });
    arrived.current = undefined;
  }, [times]);

  const rowFor = (projectSlugs: string[], acts: string[]): Row => {
    const project = projectOf(projects, projectSlugs);
    const sorted = [...acts].sort();
    const slug = project?.slugs[0] ?? (projectSlugs[0] as string);
    return {
      key: `${project?.uuid ?? slug}|${sorted.join(',')}`,
      project: slug,
      projectName: project?.name ?? slug,
      activities: sorted,
      activityNames: sorted.map((a) => activityName(activities, a)).join(', ') || 'no activity',
    };
  };

  const { rows, cells } = useMemo(() => {
    const rows: Row[] = [];
    const cells = new Map<string, Time[]>();
    const seen = new Set<string>();
    for (const t of times ?? []) {
      const row = rowFor(t.project, t.activities);
      if (!seen.has(row.key)) {
        seen.add(row.key);
        rows.push(row);
      }
      const k = `${row.key}@${t.date_worked}`;
      cells.set(k, [...(cells.get(k) ?? []), t]);
    }
    rows.sort(
      (a, b) =>
        a.projectName.localeCompare(b.projectName) ||
        a.activityNames.localeCompare(b.activityNames),
    );
    for (const k of kept.rows) {
      const fresh = rowFor(k.project, k.activities);
      if (!seen.has(fresh.key)) {
        seen.add(fresh.key);
        rows.push(fresh);
      }
    }
    return { rows, cells };
  }, [times, kept.rows, catalog]);

  const entriesAt = (row: Row, date: string) => cells.get(`${row.key}@${date}`) ?? [];
  const sum = (list: Time[]) => list.reduce((n, t) => n + t.duration, 0);

  /** Saves one cell; the returned text is shown when it could not be saved. */
  const save = async (row: Row, date: string, seconds: number | null) => {
    const where = `${row.projectName}, ${row.activityNames}, ${date}`;
    setError(undefined);
    const change = cellChange(entriesAt(row, date), seconds);
    if (change.do === 'nothing') return undefined;
    if (change.do === 'list') {
      setOpen({ row, date, reason: change.reason });
      return { revert: true } as const;
    }
    try {
      setStatus(`${change.do === 'delete' ? 'Deleting' : 'Saving'} ${where}…`);
      if (change.do === 'create') {
        await api.createTime({
          duration: change.seconds,
          user: props.username,
          project: row.project,
          activities: row.activities,
          date_worked: date,
        });
        // Filled: a row of its entries now, no longer kept.
        void kept.remove((k) => rowFor(k.project, k.activities).key === row.key);
      } else if (change.do === 'delete') await api.deleteTime(change.entry.uuid);
      else await api.updateTime(change.entry.uuid, { duration: change.seconds });
      setStatus(`Saved ${where}`);
      return undefined;
    } catch (err) {
      setStatus('');
      const text = errorText(err);
      setError(`${where}: ${text}`);
      return text;
    }
  };

  const partOf = (row: Row) => parts.find((p) => p.project.includes(row.project));
  const weekTotal = sum(times ?? []);
  const submittable = parts.some((p) => p.status === 'open' || p.status === 'rejected');

  const submitWeek = async () => {
    setConfirming(false);
    setError(undefined);
    setStatus(`Submitting week ${week.week}…`);
    try {
      setParts(await api.submitWeek(props.username, weekText));
      setStatus(`Submitted week ${week.week} for approval`);
    } catch (err) {
      setStatus('');
      setError(errorText(err));
    }
  };

  const rowHead = (row: Row) => (
    <>
      <span class="project">{row.projectName}</span>
      <span class="activity">{row.activityNames}</span>
      <PartStatus part={partOf(row)} />
      <RowTimer row={row} onError={setError} />
      {!days.some((d) => entriesAt(row, d).length > 0) && (
        <button
          type="button"
          class="remove-row"
          aria-label={`Remove row ${row.projectName}, ${row.activityNames}`}
          title="Remove this row"
          onClick={() => void kept.remove((k) => rowFor(k.project, k.activities).key === row.key)}
        >
          ×
        </button>
      )}
    </>
  );
  const cellFor = (row: Row, r: number, d: string, c: number) => (
    <Cell
      locked={lockReason(partOf(row), d, lockBefore)}
      row={r}
      col={c}
      label={`${row.projectName}, ${row.activityNames}, ${WEEKDAYS[c]} ${d}`}
      entries={entriesAt(row, d)}
      onSave={(seconds) => save(row, d, seconds)}
      onOpen={() => setOpen({ row, date: d })}
    />
  );
  const dayTotal = (d: string) => sum((times ?? []).filter((t) => t.date_worked === d));

  const go = (w: IsoWeek) => navigate(weekUrl(w, narrow ? day : undefined, days));
  const range = `${days[0]} – ${days[6]}`;

  return (
    <section class="timesheet">
      <div class="toolbar">
        <h1>
          Week {week.week}, {week.year}
        </h1>
        <nav class="weeks" aria-label="Weeks">
          <button type="button" onClick={() => go(shiftWeek(week, -1))} aria-label="Previous week">
            ‹ Previous
          </button>
          <a
            href="/"
            onClick={onLinkClick}
            aria-current={formatWeek(thisWeek) === weekText ? 'page' : undefined}
          >
            This week
          </a>
          <button type="button" onClick={() => go(shiftWeek(week, 1))} aria-label="Next week">
            Next ›
          </button>
        </nav>
        <div class="toolbar-end">
          <CopyLastWeek
            username={props.username}
            week={week}
            keyOf={(project, acts) => rowFor(project, acts).key}
            shown={new Set(rows.map((r) => r.key))}
            mayBook={(slugs) =>
              memberProjects(projects, props.username).some((p) =>
                p.slugs.some((s) => slugs.includes(s)),
              )
            }
            onCopy={(list) => void kept.add(list)}
            onStatus={setStatus}
            onError={setError}
          />
          <button
            type="button"
            class="primary"
            disabled={!submittable}
            title={submittable ? undefined : 'Nothing in this week waits to be submitted'}
            onClick={() => setConfirming(true)}
          >
            Submit week
          </button>
        </div>
      </div>
      <Confirm
        open={confirming}
        label={`Submit week ${week.week}`}
        text={`Submit ${formatDuration(weekTotal)} h of ${range} for approval? Until a manager decides, these hours cannot be changed.`}
        yes="Submit"
        no="Cancel"
        onAnswer={(yes) => (yes ? void submitWeek() : setConfirming(false))}
      />
      <p class="status" role="status">
        {status}
      </p>
      {(error ?? catalogError) && (
        <p class="error" role="alert">
          {error ?? catalogError}
        </p>
      )}
      {times === undefined ? (
        <p>Loading…</p>
      ) : narrow ? (
        <DayView
          days={days}
          day={day}
          rows={rows}
          dayTotals={days.map(dayTotal)}
          weekTotal={weekTotal}
          rowHead={rowHead}
          cell={cellFor}
        />
      ) : (
        <ScrollBox label="Timesheet" class="grid-scroll">
          <table class="grid">
            <caption>
              Hours of {props.username}, {range}
            </caption>
            <thead>
              <tr>
                <th scope="col">Project, activity</th>
                {days.map((d, i) => (
                  <th scope="col" key={d} class={d === today() ? 'today' : undefined}>
                    <abbr title={d}>{WEEKDAYS[i]}</abbr> <span class="date">{d.slice(8)}</span>
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={9} class="empty">
                    Nothing booked this week yet: add a row below.
                  </td>
                </tr>
              )}
              {rows.map((row, r) => (
                <tr key={row.key} data-key={row.key}>
                  <th scope="row">{rowHead(row)}</th>
                  {days.map((d, c) => (
                    <td key={d}>{cellFor(row, r, d, c)}</td>
                  ))}
                  <td class="total">
                    {formatDuration(days.reduce((n, d) => n + sum(entriesAt(row, d)), 0))}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Day total</th>
                {days.map((d) => {
                  const total = dayTotal(d);
                  return (
                    <td key={d} class={total ? 'total' : 'total zero'}>
                      {formatDuration(total)}
                    </td>
                  );
                })}
                <td class="total week-total">{formatDuration(weekTotal)}</td>
              </tr>
            </tfoot>
          </table>
        </ScrollBox>
      )}
      <p class="hint muted">
        {narrow
          ? `${DURATION_HINT}. ⋯ opens the day’s entries for notes and issue links.`
          : `${DURATION_HINT}; Enter saves, Escape undoes, arrows move. Shift+Enter or ⋯ opens a day’s entries for notes and issue links.`}
      </p>
      {open && catalog && (
        <DayEntries
          label={`${open.row.projectName}, ${open.row.activityNames}, ${open.date}`}
          entries={entriesAt(open.row, open.date)}
          reason={open.reason}
          catalog={catalog}
          onClose={() => setOpen(undefined)}
        />
      )}
      {catalog &&
      memberProjects(projects, props.username).length === 0 &&
      (catalog.me.site_admin || catalog.me.site_manager) ? (
        <FirstProject catalog={catalog} />
      ) : (
        <AddRow
          loading={!catalog}
          projects={memberProjects(projects, props.username)}
          activities={activities}
          onAdd={(project, activity) => {
            const row = rowFor(project.slugs, activity ? [activity] : []);
            void kept.add([{ project: project.slugs, activities: row.activities }]);
            setStatus(`Added the row ${row.projectName}, ${row.activityNames}`);
            // The new row's first cell: Monday in the grid, the day shown in the day view.
            requestAnimationFrame(() => {
              document
                .querySelector<HTMLElement>(`[data-key="${CSS.escape(row.key)}"] [data-cell]`)
                ?.focus();
            });
          }}
        />
      )}
    </section>
  );
}

/** A row's week part: its status, and a rejection's comment (what to fix). */
function PartStatus(props: { part: WeekPart | undefined }) {
  const { part } = props;
  if (!part || part.status === 'open') return null;
  return (
    <span class={`part-status ${part.status}`}>
      <span class="badge">{STATUS_TEXT[part.status]}</span>
      {part.status === 'rejected' && part.comment && (
        <span class="comment">
          {part.decided_by ?? 'A manager'}: “{part.comment}”
        </span>
      )}
    </span>
  );
}
