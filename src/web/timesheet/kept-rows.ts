// The rows of a week added and not yet filled ("Add row", "Copy last week"), kept on the
// server per person and week (GET/PUT /v0/weeks/:username/:week/rows, issue 34), so that
// they stay across reloads and devices. Every change is shown at once and sent as the
// week's whole list; the server's answer (which leaves out rows filled meanwhile) is
// shown unless a later change was sent since.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, type KeptRow } from '../api';

export interface KeptRows {
  /** The kept rows, in the order they were added. */
  rows: KeptRow[];
  /** Adds rows at the end (a row already kept is not added twice: the server collapses it). */
  add: (rows: KeptRow[]) => Promise<void>;
  /** Drops the rows `drop` picks (removed by the user, or filled); nothing sent if none. */
  remove: (drop: (row: KeptRow) => boolean) => Promise<void>;
}

/** The rows kept for `username`'s `week` (YYYY-Www); `onError` tells why a change failed. */
export function useKeptRows(
  username: string,
  week: string,
  onError: (text: string) => void,
): KeptRows {
  const [rows, setRows] = useState<KeptRow[]>([]);
  // What is shown, for changes made before the next render; and the latest request.
  const current = useRef<KeptRow[]>([]);
  const latest = useRef(0);
  const show = (list: KeptRow[]) => {
    current.current = list;
    setRows(list);
  };

  useEffect(() => {
    show([]);
    const ask = ++latest.current;
    api.keptRows(username, week).then(
      (answer) => ask === latest.current && show(answer.rows),
      () => {}, // the grid works without them: the rows of the week's entries
    );
  }, [username, week]);

  const send = async (list: KeptRow[]) => {
    show(list);
    const ask = ++latest.current;
    try {
      const sent = list.map((r) => ({ project: r.project[0] ?? '', activities: r.activities }));
      const answer = await api.keepRows(username, week, sent);
      if (ask === latest.current) show(answer.rows);
    } catch (err) {
      onError(`The added rows could not be kept: ${errorText(err)}`);
    }
  };

  return {
    rows,
    add: (added) => send([...current.current, ...added]),
    remove: async (drop) => {
      const list = current.current;
      if (list.some(drop)) await send(list.filter((r) => !drop(r)));
    },
  };
}
