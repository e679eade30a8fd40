// The report's settings: a range (presets or custom dates), filters and groupings.
// Applied with the button, so the URL changes once per report asked for.
import { useEffect, useId, useState } from 'preact/hooks';
import { api, type Grouping, type User } from '../api';
import type { Catalog } from '../base/catalog';
import { today } from '../base/dates';
import { GROUPINGS, RANGES, type Range, type ReportSettings, rangeDates } from './settings';

export function ReportForm(props: {
  settings: ReportSettings;
  catalog: Catalog | undefined;
  onApply: (s: ReportSettings) => void;
}) {
  const id = useId();
  const [s, setS] = useState(props.settings);
  const [users, setUsers] = useState<User[]>([]);
  useEffect(() => setS(props.settings), [JSON.stringify(props.settings)]);
  useEffect(() => {
    api.users().then(setUsers, () => setUsers([]));
  }, []);
  const set = (patch: Partial<ReportSettings>) => setS((old) => ({ ...old, ...patch }));
  const setRange = (range: Range) => {
    if (range === 'custom') set({ range });
    else {
      const [start, end] = rangeDates(range, today());
      set({ range, start, end });
    }
  };
  return (
    <form
      class="filters"
      aria-label="Report settings"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(s);
      }}
    >
      <div>
        <label for={`${id}-r`}>Range</label>
        <select
          id={`${id}-r`}
          value={s.range}
          onChange={(e) => setRange(e.currentTarget.value as Range)}
        >
          {Object.entries(RANGES).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for={`${id}-s`}>From</label>
        <input
          id={`${id}-s`}
          type="date"
          required
          value={s.start}
          onInput={(e) => set({ range: 'custom', start: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for={`${id}-e`}>To</label>
        <input
          id={`${id}-e`}
          type="date"
          required
          value={s.end}
          onInput={(e) => set({ range: 'custom', end: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for={`${id}-p`}>Project</label>
        <select
          id={`${id}-p`}
          value={s.project}
          onChange={(e) => set({ project: e.currentTarget.value })}
        >
          <option value="">All projects</option>
          {props.catalog?.projects.map((p) => (
            <option key={p.uuid} value={p.slugs[0]}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for={`${id}-a`}>Activity</label>
        <select
          id={`${id}-a`}
          value={s.activity}
          onChange={(e) => set({ activity: e.currentTarget.value })}
        >
          <option value="">All activities</option>
          {props.catalog?.activities.map((a) => (
            <option key={a.uuid} value={a.slug}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for={`${id}-u`}>User</label>
        <select
          id={`${id}-u`}
          value={s.user}
          onChange={(e) => set({ user: e.currentTarget.value })}
        >
          <option value="">Everyone I can see</option>
          {users.map((u) => (
            <option key={u.username} value={u.username}>
              {u.display_name ? `${u.display_name} (${u.username})` : u.username}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for={`${id}-g`}>Group by</label>
        <select
          id={`${id}-g`}
          value={s.group}
          onChange={(e) => {
            const group = e.currentTarget.value as Grouping;
            set({ group, thenBy: s.thenBy === group ? '' : s.thenBy });
          }}
        >
          {Object.entries(GROUPINGS).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for={`${id}-t`}>Then by</label>
        <select
          id={`${id}-t`}
          value={s.thenBy}
          onChange={(e) => set({ thenBy: e.currentTarget.value as Grouping | '' })}
        >
          <option value="">Nothing</option>
          {Object.entries(GROUPINGS)
            .filter(([value]) => value !== s.group)
            .map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
        </select>
      </div>
      <button type="submit" class="primary">
        Show report
      </button>
    </form>
  );
}
