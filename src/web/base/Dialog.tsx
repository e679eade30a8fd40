// A modal dialog on the native <dialog> element (focus trap, Escape, inert page).
// Without onCancel, Escape does nothing (the expired-session dialog must be answered).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Dialog(props: {
  open: boolean;
  label: string;
  children: ComponentChildren;
  onCancel?: () => void;
  /** A panel of its own (forms; `wide` for tables); the sign-in dialog brings its own surface. */
  panel?: boolean | 'wide';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-label={props.label}
      class={props.panel === 'wide' ? 'panel wide' : props.panel ? 'panel' : undefined}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel?.();
      }}
    >
      {props.open && props.children}
    </dialog>
  );
}

/** A question with two answers, e.g. before throwing something away. */
export function Confirm(props: {
  open: boolean;
  label: string;
  text: string;
  yes: string;
  no: string;
  onAnswer: (yes: boolean) => void;
}) {
  return (
    <Dialog open={props.open} label={props.label} panel onCancel={() => props.onAnswer(false)}>
      <h2>{props.label}</h2>
      <p>{props.text}</p>
      <div class="actions">
        <button type="button" onClick={() => props.onAnswer(false)}>
          {props.no}
        </button>
        <button type="button" class="primary" onClick={() => props.onAnswer(true)}>
          {props.yes}
        </button>
      </div>
    </Dialog>
  );
}
