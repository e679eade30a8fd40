// One day of one row: a text input showing h:mm. Enter saves, Escape puts back what is
// saved, leaving a changed cell saves it; arrows move between cells (left/right when
// the caret is at the edge or all is selected). Shift+Enter (or the ⋯ button) opens
// the day's entries (notes, issue URI); a cell holding several entries stays typeable:
// a new total changes the most recent entry (cell-total.ts). A locked cell (its week
// submitted or approved, or before the lock date) is read-only and says why. Notes and
// issue links show as marks (CellMarks).
import { useRef, useState } from 'preact/hooks';
import type { Time } from '../api';
import { formatDuration, parseDuration } from '../base/duration';
import { useFollowingState } from '../base/following-state';
import { cellMarks } from './CellMarks';

function focusCell(row: number, col: number): boolean {
  const el = document.querySelector<HTMLInputElement>(`[data-cell="${row}-${col}"]`);
  if (!el) return false;
  el.focus();
  el.select();
  return true;
}

export function Cell(props: {
  row: number;
  col: number;
  label: string;
  entries: Time[];
  /** A text: why it was not saved; `revert`: not saved, shown elsewhere (the list opened). */
  onSave: (seconds: number | null) => Promise<string | undefined | { revert: true }>;
  onOpen: () => void;
  /** Why the cell cannot be changed (a submitted or approved week, the lock date). */
  locked?: string;
}) {
  const total = props.entries.reduce((n, t) => n + t.duration, 0);
  const shown = props.entries.length ? formatDuration(total) : '';
  const [text, setText] = useFollowingState(shown);
  const [problem, setProblem] = useState<string | undefined>();
  const ref = useRef<HTMLInputElement>(null);
  const several = props.entries.length > 1;
  const readOnly = props.locked !== undefined;

  // One save at a time: a save waiting for the network (or a new sign-in) is not sent
  // twice when focus leaves the cell, e.g. for the banner's Retry.
  const saving = useRef(false);
  const commit = async () => {
    if (readOnly || saving.current) return;
    if (text.trim() === shown) {
      setProblem(undefined);
      setText(shown);
      return;
    }
    const parsed = parseDuration(text);
    if (!parsed.ok) {
      setProblem(parsed.message);
      return;
    }
    saving.current = true;
    try {
      const result = await props.onSave(parsed.seconds);
      if (typeof result === 'object') {
        setText(shown);
        setProblem(undefined);
      } else setProblem(result);
    } finally {
      saving.current = false;
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const el = e.currentTarget as HTMLInputElement;
    const all = el.selectionStart === 0 && el.selectionEnd === el.value.length;
    const { row, col } = props;
    if (e.key === 'Enter') {
      e.preventDefault();
      if (e.shiftKey && props.entries.length) props.onOpen();
      else void commit();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setText(shown);
      setProblem(undefined);
    } else if (e.key === 'ArrowUp' && focusCell(row - 1, col)) {
      e.preventDefault();
    } else if (e.key === 'ArrowDown' && focusCell(row + 1, col)) {
      e.preventDefault();
    } else if (e.key === 'ArrowLeft' && (all || el.selectionEnd === 0) && focusCell(row, col - 1)) {
      e.preventDefault();
    } else if (
      e.key === 'ArrowRight' &&
      (all || el.selectionStart === el.value.length) &&
      focusCell(row, col + 1)
    ) {
      e.preventDefault();
    }
  };

  const problemId = problem ? `cell-${props.row}-${props.col}-problem` : undefined;
  const lockedId = props.locked ? `cell-${props.row}-${props.col}-locked` : undefined;
  const { ids: markIds, marks } = cellMarks(props.entries, `cell-${props.row}-${props.col}`);
  const describedBy = [problemId, lockedId, ...markIds].filter(Boolean).join(' ') || undefined;
  return (
    <div
      class={`cell${several ? ' several' : ''}${problem ? ' invalid' : ''}${props.locked ? ' locked' : ''}`}
    >
      <input
        ref={ref}
        data-cell={`${props.row}-${props.col}`}
        aria-label={several ? `${props.label} (${props.entries.length} entries)` : props.label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
        inputMode="text"
        autoComplete="off"
        spellcheck={false}
        readOnly={readOnly}
        aria-readonly={readOnly || undefined}
        title={
          props.locked ??
          (several
            ? `${props.entries.length} entries: a new total changes the most recent; Shift+Enter lists them`
            : undefined)
        }
        value={text}
        onFocus={(e) => e.currentTarget.select()}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!readOnly && text.trim() !== shown) void commit();
        }}
      />
      {marks}
      {lockedId && (
        <span id={lockedId} class="visually-hidden">
          {props.locked}
        </span>
      )}
      {props.entries.length > 0 && (
        <button
          type="button"
          class="open"
          tabIndex={-1}
          aria-label={`Entries of ${props.label}`}
          title="Notes, issue URI, entries (Shift+Enter)"
          onClick={props.onOpen}
        >
          ⋯
        </button>
      )}
      {problem && (
        <span id={problemId} class="problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
