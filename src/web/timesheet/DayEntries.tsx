// The entries of one timesheet cell, opened by Shift+Enter or the cell's ⋯ button (and
// by Enter on a cell holding several, which the grid cannot edit as one number): one
// entry opens straight in its form (notes, issue URI, …); several are listed, each to
// edit or delete on its own.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, type Time } from '../api';
import type { Catalog } from '../base/catalog';
import { Dialog } from '../base/Dialog';
import { formatDuration } from '../base/duration';
import { EntryForm } from '../entry/EntryForm';

export function DayEntries(props: {
  label: string;
  entries: Time[];
  /** Why the list opened instead of a typed total being saved (cell-total.ts). */
  reason?: string;
  catalog: Catalog;
  onClose: () => void;
}) {
  const single = props.entries.length === 1 ? props.entries[0] : undefined;
  const [editing, setEditing] = useState<string | undefined>(single?.uuid);
  const [error, setError] = useState<string | undefined>();
  const entry = props.entries.find((t) => t.uuid === editing);
  useEffect(() => {
    if (props.entries.length === 0) props.onClose();
  }, [props.entries.length]);
  const back = () => (single ? props.onClose() : setEditing(undefined));
  const remove = async (t: Time) => {
    setError(undefined);
    try {
      await api.deleteTime(t.uuid);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <Dialog open label={`Entries of ${props.label}`} panel onCancel={props.onClose}>
      <h2>{props.label}</h2>
      {props.reason && !entry && (
        <p class="reason" role="alert">
          {props.reason}
        </p>
      )}
      {entry ? (
        <EntryForm time={entry} catalog={props.catalog} onSaved={back} onCancel={back} />
      ) : (
        <>
          <ul class="day-entries">
            {props.entries.map((t, i) => (
              <li key={t.uuid}>
                <span class="num">{formatDuration(t.duration)}</span>
                <span class="notes">{t.notes ?? <span class="muted">no notes</span>}</span>
                <button
                  type="button"
                  aria-label={`Edit entry ${i + 1} (${formatDuration(t.duration)})`}
                  onClick={() => setEditing(t.uuid)}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`Delete entry ${i + 1} (${formatDuration(t.duration)})`}
                  onClick={() => remove(t)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="actions">
            <button type="button" class="primary" onClick={props.onClose}>
              Close
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
