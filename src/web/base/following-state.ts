// State a form or a cell edits, starting from a value it is given and following that
// value when it changes (a save, a refresh, the back button, the catalog arriving),
// while edits in between stay.
import { useRef, useState } from 'preact/hooks';

/**
 * `useState(value)` that is set to `value` again whenever `key` (by default the value
 * itself) changes, in the render that sees the change. An effect did it before: Preact
 * runs effects after the browser paints, so the state was stale for a frame, and one on
 * mount put the starting value back over whatever had been typed meanwhile (a test's
 * fill of a new timesheet cell was lost so, and the cell saved nothing; "Add row" asked
 * for at once added a row without the project's default activity).
 */
export function useFollowingState<T>(value: T, key: unknown = value) {
  const [state, setState] = useState(value);
  const followed = useRef(key);
  if (Object.is(followed.current, key)) return [state, setState] as const;
  // Render with the new value now; the state holds it from the next render on.
  followed.current = key;
  setState(value);
  return [value, setState] as const;
}
