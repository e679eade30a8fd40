// A modal dialog on the native <dialog> element (focus trap, Escape, inert page).
// Without onCancel, Escape does nothing (the expired-session dialog must be answered).
// Closing (Escape, a save, Cancel) or unmounting gives the focus back to the control
// that had it when the dialog opened, as a keyboard user expects; the browser alone
// does not when the dialog leaves the page instead of closing.
// It opens and closes in the render that changes `open` (a layout effect), not a frame
// later: in between, an open dialog would show no content under its next label, with
// the focus on the page's body.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

export function Dialog(props: {
  open: boolean;
  label: string;
  children: ComponentChildren;
  onCancel?: () => void;
  /** A panel of its own (forms; `wide` for tables); the sign-in dialog brings its own surface. */
  panel?: boolean | 'wide';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      opener.current = document.activeElement;
      d.showModal();
    }
    if (!props.open && d.open) {
      d.close();
      giveFocusBack(opener);
    }
  }, [props.open]);
  useEffect(() => () => giveFocusBack(opener), []);
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

/** Focus back on the opener, if it is still on the page and nothing else took the focus. */
function giveFocusBack(opener: { current: Element | null }): void {
  const el = opener.current;
  opener.current = null;
  if (!(el instanceof HTMLElement) || el === document.body) return;
  // After the dialog has left; not into a page that another dialog now covers.
  queueMicrotask(() => {
    if (el.isConnected && !document.activeElement?.closest('dialog[open]')) el.focus();
  });
}
