// The week timesheet (the home page): one row per (project, activities), Monday to
// Sunday, with day, row and week totals. A cell saves on Enter (or when focus leaves it
// changed): a new entry, the one entry updated, or deleted when emptied. A cell holding
// several entries takes a new total on its most recent entry (cell-total.ts), else
// opens them as a list (DayEntries) saying why. Each row can start the timer (RowTimer).
// The week shown lives in the URL (?week=2024-W05); its entries and parts come from
// week-data.ts, kept current with changes made elsewhere. It is drawn as a grid
// (WeekGrid) on a desktop, a day at a time (DayView) on a phone. Each row shows its week part's
// status (issue 32); a submitted or approved part's cells, and days before the lock date,
// are read-only and say why; Submit week sends the week for approval. Rows added and not
// yet filled (Add row, Copy last week) are kept on the server (kept-rows.ts, issue 34).
import { useMemo, useState } from 'preact/hooks';
import { api, errorText, type Time } from '../api';
import { activityName, useCatalog } from '../base/catalog';
import { Confirm } from '../base/Dialog';
import { daysOfWeek, formatWeek, type IsoWeek, isoWeekOf, parseWeek, today } from '../base/dates';
import { DURATION_HINT, formatDuration } from '../base/duration';
import { memberProjects, projectOf } from '../base/roles';
import { WEEKDAYS, WeekNav } from '../base/week';
import { navigate } from '../router';
import { AddRow } from './AddRow';
import { Cell } from './Cell';
import { CopyLastWeek } from './CopyLastWeek';
import { cellChange } from './cell-total';
import { DayEntries } from './DayEntries';
import { DayView } from './DayView';
import { FirstProject } from './FirstProject';
import { useKeptRows } from './kept-rows';
import { lockReason, PartStatus } from './PartStatus';
import { RowTimer } from './RowTimer';
import { dayShown, useNarrow, weekUrl } from './useDay';
import { WeekGrid } from './WeekGrid';
import { useWeekParts, useWeekTimes } from './week-data';

export interface Row {
  key: string;
  /** The slug entries are created with. */
  project: string;
  projectName: string;
  activities: string[];
  activityNames: string;
}

export function Timesheet(props: { username: string; query: URLSearchParams }) {
  const thisWeek = isoWeekOf(today());
  const week: IsoWeek = parseWeek(props.query.get('week')) ?? thisWeek;
  const weekText = formatWeek(week);
  const days = daysOfWeek(week);
  const { catalog, error: catalogError } = useCatalog(props.username);
  const projects = catalog?.projects ?? [];
  const activities = catalog?.activities ?? [];
  // Where the user may log time: the projects they are a member of.
  const mine = memberProjects(projects, props.username);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();
  const times = useWeekTimes(props.username, days, weekText, setError);
  const { parts, setParts, lockBefore } = useWeekParts(props.username, days, weekText);
  // Rows added and not yet filled, kept on the server (issue 34).
  const kept = useKeptRows(props.username, weekText, setError);
  const [open, setOpen] = useState<{ row: Row; date: string; reason?: string } | undefined>();
  const [confirming, setConfirming] = useState(false);
  // A phone shows one day at a time (DayView); the day is in the URL beside the week.
  const narrow = useNarrow();
  const day = dayShown(days, props.query);

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
        <WeekNav week={week} thisWeekHref="/" go={go} />
        <div class="toolbar-end">
          <CopyLastWeek
            username={props.username}
            week={week}
            keyOf={(project, acts) => rowFor(project, acts).key}
            shown={new Set(rows.map((r) => r.key))}
            mayBook={(slugs) => !!projectOf(mine, slugs)}
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
        <WeekGrid
          username={props.username}
          days={days}
          rows={rows}
          rowHead={rowHead}
          cell={cellFor}
          rowTotal={(row) => days.reduce((n, d) => n + sum(entriesAt(row, d)), 0)}
          dayTotals={days.map(dayTotal)}
          weekTotal={weekTotal}
        />
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
      {catalog && mine.length === 0 && (catalog.me.site_admin || catalog.me.site_manager) ? (
        <FirstProject catalog={catalog} />
      ) : (
        <AddRow
          loading={!catalog}
          projects={mine}
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
