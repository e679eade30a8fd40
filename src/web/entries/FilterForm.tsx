// The entries page's filters: date range, project, activity, user, deleted ones too.
// Applied with the button (or Enter), so typing a date does not fire a request per key.
import { useEffect, useId, useState } from 'preact/hooks';
import type { User } from '../api';
import type { Catalog } from '../base/catalog';
import { type EntryFilters, EVERYONE } from './filters';

export function FilterForm(props: {
  filters: EntryFilters;
  me: string;
  users: User[];
  catalog: Catalog | undefined;
  onApply: (f: EntryFilters) => void;
}) {
  const id = useId();
  const [f, setF] = useState(props.filters);
  useEffect(() => setF(props.filters), [JSON.stringify(props.filters)]);
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
        <label for={`${id}-s`}>From</label>
        <input
          id={`${id}-s`}
          type="date"
          value={f.start}
          onInput={(e) => set({ start: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for={`${id}-e`}>To</label>
        <input
          id={`${id}-e`}
          type="date"
          value={f.end}
          onInput={(e) => set({ end: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for={`${id}-p`}>Project</label>
        <select
          id={`${id}-p`}
          value={f.project}
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
          value={f.activity}
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
          value={f.user}
          onChange={(e) => set({ user: e.currentTarget.value })}
        >
          <option value={props.me}>Me ({props.me})</option>
          <option value={EVERYONE}>Everyone I can see</option>
          {others.map((u) => (
            <option key={u.username} value={u.username}>
              {u.display_name ? `${u.display_name} (${u.username})` : u.username}
            </option>
          ))}
        </select>
      </div>
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
