// The entries page's filters: date range, a text in the notes, project, activity, user,
// deleted ones too.
// Applied with the button (or Enter), so typing a date does not fire a request per key.
import { useId } from 'preact/hooks';
import type { User } from '../api';
import type { Catalog } from '../base/catalog';
import { FilterSelects, TextField, userOptions } from '../base/fields';
import { useFollowingState } from '../base/following-state';
import { type EntryFilters, EVERYONE } from './filters';

export function FilterForm(props: {
  filters: EntryFilters;
  me: string;
  users: User[];
  catalog: Catalog | undefined;
  onApply: (f: EntryFilters) => void;
}) {
  const id = useId();
  const [f, setF] = useFollowingState(props.filters, JSON.stringify(props.filters));
  const set = (patch: Partial<EntryFilters>) => setF((old) => ({ ...old, ...patch }));
  const others = props.users.filter((u) => u.username.toLowerCase() !== props.me.toLowerCase());
  return (
    <form
      class="filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply(f);
      }}
    >
      <div>
        <TextField
          form={id}
          field="start"
          label="From"
          type="date"
          value={f.start}
          onInput={(start) => set({ start })}
        />
      </div>
      <div>
        <TextField
          form={id}
          field="end"
          label="To"
          type="date"
          value={f.end}
          onInput={(end) => set({ end })}
        />
      </div>
      <div>
        <TextField
          form={id}
          field="notes"
          label="Search notes"
          type="search"
          value={f.notes}
          onInput={(notes) => set({ notes })}
        />
      </div>
      <FilterSelects
        form={id}
        catalog={props.catalog}
        value={f}
        users={[
          { value: props.me, label: `Me (${props.me})` },
          { value: EVERYONE, label: 'Everyone I can see' },
          ...userOptions(others),
        ]}
        onChange={set}
      />
      <label class="inline">
        <input
          type="checkbox"
          checked={f.deleted}
          onChange={(e) => set({ deleted: e.currentTarget.checked })}
        />
        Deleted too
      </label>
      <button type="submit" class="primary">
        Apply filters
      </button>
    </form>
  );
}
