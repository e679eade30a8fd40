// State a form or a cell edits, starting from a value it is given and following that
// value when it changes (a save, a refresh, the back button), while edits in between stay.
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * `useState(value)` that is set to `value` again whenever `key` (by default the value
 * itself) changes, not when the component mounts. Preact runs effects after the browser
 * paints: an effect that set the state on mount as well put the starting value back over
 * whatever had been typed in between (a test's fill of a new timesheet cell was lost so,
 * and the cell then saved nothing).
 */
export function useFollowingState<T>(value: T, key: unknown = value) {
  const [state, setState] = useState(value);
  const followed = useRef(key);
  useEffect(() => {
    if (Object.is(followed.current, key)) return;
    followed.current = key;
    setState(value);
  }, [key]);
  return [state, setState] as const;
}
