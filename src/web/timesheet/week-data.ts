// The data of the week timesheet: the user's entries of the week, kept current with
// changes made anywhere in the app (api.onTimeChange), and the week's parts with the lock
// date (issue 32), again whenever a part is submitted or decided or an entry changes.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, onPartsChange, onTimeChange, type Time, type WeekPart } from '../api';
import { sameUser } from '../base/roles';

/** The user's entries of `days` (undefined while loading). */
export function useWeekTimes(
  username: string,
  days: string[],
  weekText: string,
  onError: (text: string) => void,
): Time[] | undefined {
  const [times, setTimes] = useState<Time[] | undefined>();
  const arrived = useRef<number | undefined>();

  useEffect(() => {
    setTimes(undefined);
    let live = true;
    api.times({ user: [username], start: days[0], end: days[6] }).then(
      (list) => {
        if (!live) return;
        arrived.current = performance.now();
        setTimes(list);
      },
      (err) => live && onError(errorText(err)),
    );
    // Any change of an entry, made here or elsewhere: keep it if it belongs on this page.
    const stop = onTimeChange(({ uuid, time }) => {
      const shown =
        time &&
        !time.deleted_at &&
        sameUser(time.user, username) &&
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
  }, [username, weekText]);

  // How long the grid took from the data's arrival to the screen (the browser tests log it).
  useLayoutEffect(() => {
    if (arrived.current === undefined || !times) return;
    performance.measure('timesheet-render', { start: arrived.current });
    arrived.current = undefined;
  }, [times]);

  return times;
}

/** The week's parts (per project) and the lock date; `setParts` after a submit. */
export function useWeekParts(username: string, days: string[], weekText: string) {
  const [parts, setParts] = useState<WeekPart[]>([]);
  const [lockBefore, setLockBefore] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => {
      api.approvals({ user: [username], start: days[0], end: days[6] }).then(
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
  }, [username, weekText]);
  return { parts, setParts, lockBefore };
}
