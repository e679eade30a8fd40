// The report's settings: a range (presets or custom dates), filters and groupings.
// Applied with the button, so the URL changes once per report asked for.
import { useId } from 'preact/hooks';
import type { Grouping, User } from '../api';
import type { Catalog } from '../base/catalog';
import { today } from '../base/dates';
import { FilterSelects, Select, TextField, userOptions } from '../base/fields';
import { useFollowingState } from '../base/following-state';
import { GROUPINGS, RANGES, type Range, type ReportSettings, rangeDates } from './settings';

const GROUPING_OPTIONS = Object.entries(GROUPINGS).map(([value, label]) => ({ value, label }));

export function ReportForm(props: {
  settings: ReportSettings;
  catalog: Catalog | undefined;
  /** Everyone the caller may see, for the people filter (Reports loads them once). */
  users: User[];
  onApply: (s: ReportSettings) => void;
}) {
  const id = useId();
  const [s, setS] = useFollowingState(props.settings, JSON.stringify(props.settings));
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
        <Select
          id={`${id}-r`}
          label="Range"
          value={s.range}
          options={Object.entries(RANGES).map(([value, label]) => ({ value, label }))}
          onChange={(range) => setRange(range as Range)}
        />
      </div>
      <div>
        <TextField
          form={id}
          field="start"
          label="From"
          type="date"
          required
          value={s.start}
          onInput={(start) => set({ range: 'custom', start })}
        />
      </div>
      <div>
        <TextField
          form={id}
          field="end"
          label="To"
          type="date"
          required
          value={s.end}
          onInput={(end) => set({ range: 'custom', end })}
        />
      </div>
      <FilterSelects
        form={id}
        catalog={props.catalog}
        value={s}
        users={[{ value: '', label: 'Everyone I can see' }, ...userOptions(props.users)]}
        onChange={set}
      />
      <div>
        <Select
          id={`${id}-g`}
          label="Group by"
          value={s.group}
          options={GROUPING_OPTIONS}
          onChange={(value) => {
            const group = value as Grouping;
            set({ group, thenBy: s.thenBy === group ? '' : s.thenBy });
          }}
        />
      </div>
      <div>
        <Select
          id={`${id}-t`}
          label="Then by"
          value={s.thenBy}
          options={[
            { value: '', label: 'Nothing' },
            ...GROUPING_OPTIONS.filter((o) => o.value !== s.group),
          ]}
          onChange={(thenBy) => set({ thenBy: thenBy as Grouping | '' })}
        />
      </div>
      <button type="submit" class="primary">
        Show report
      </button>
    </form>
  );
}
