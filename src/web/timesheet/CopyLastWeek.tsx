// "Copy last week": the rows (project and activities, no hours) that had entries in the
// week before the one shown and are not rows of it yet, added as kept rows (issue 34).
import { useState } from 'preact/hooks';
import { api, errorText, type KeptRow } from '../api';
import { daysOfWeek, type IsoWeek, shiftWeek } from '../base/dates';

export function CopyLastWeek(props: {
  username: string;
  week: IsoWeek;
  /** The row key of a project (its slugs) and activities, as the grid keys its rows. */
  keyOf: (project: string[], activities: string[]) => string;
  /** The keys of the rows shown now. */
  shown: ReadonlySet<string>;
  /** Whether the user may book on the project (still a member). */
  mayBook: (project: string[]) => boolean;
  onCopy: (rows: KeptRow[]) => void;
  onStatus: (text: string) => void;
  onError: (text: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    const last = shiftWeek(props.week, -1);
    const days = daysOfWeek(last);
    setBusy(true);
    try {
      const times = await api.times({ user: [props.username], start: days[0], end: days[6] });
      const seen = new Set(props.shown);
      const rows: KeptRow[] = [];
      for (const t of times) {
        const activities = [...t.activities].sort();
        const key = props.keyOf(t.project, activities);
        if (seen.has(key) || !props.mayBook(t.project)) continue;
        seen.add(key);
        rows.push({ project: t.project, activities });
      }
      if (rows.length > 0) props.onCopy(rows);
      props.onStatus(
        times.length === 0
          ? `Nothing to copy: week ${last.week} has no entries`
          : rows.length === 0
            ? `Nothing to copy: every row of week ${last.week} is here already`
            : `Copied ${rows.length} ${rows.length === 1 ? 'row' : 'rows'} from week ${last.week}`,
      );
    } catch (err) {
      props.onError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" disabled={busy} onClick={() => void copy()}>
      Copy last week
    </button>
  );
}
