// A modal dialog on the native <dialog> element (focus trap, Escape, inert page).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Dialog(props: {
  open: boolean;
  label: string;
  children: ComponentChildren;
  onCancel?: () => void;
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
      onCancel={(e) => {
        if (!props.onCancel) e.preventDefault();
        else props.onCancel();
      }}
    >
      {props.open && props.children}
    </dialog>
  );
}
