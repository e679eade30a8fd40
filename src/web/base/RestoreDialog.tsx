// Bringing back a deleted project or activity (POST …/:uuid/restore). Deleting released
// its slugs, and someone may have taken them since: the dialog offers the old ones, and
// the server's "Slug … already exists on another object" shows at the field, so another
// can be typed in place.
import { useId, useState } from 'preact/hooks';
import { Dialog } from './Dialog';
import { FormEnd, Problem, problemProps, useSave } from './field-problems';

export function RestoreDialog(props: {
  /** What is restored, e.g. "project Website"; undefined: closed. */
  what: string | undefined;
  /** `slugs` (several, separated by commas or spaces) or `slug`. */
  field: 'slugs' | 'slug';
  /** The slugs it had when deleted. */
  slugs: readonly string[];
  /** Gets the slugs typed (`slug`: one, possibly empty); throws the server's refusal. */
  onRestore: (slugs: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const label = `Restore ${props.what ?? ''}`;
  return (
    <Dialog open={props.what !== undefined} label={label} panel onCancel={props.onClose}>
      <RestoreForm {...props} label={label} />
    </Dialog>
  );
}

function RestoreForm(props: Parameters<typeof RestoreDialog>[0] & { label: string }) {
  const id = useId();
  const [text, setText] = useState(props.slugs.join(', '));
  const { problems, busy, save } = useSave([props.field]);
  const submit = (e: Event) => {
    e.preventDefault();
    // Sent as typed: the server's refusal names the field and shows under it.
    const slugs = props.field === 'slugs' ? text.split(/[\s,]+/).filter(Boolean) : [text.trim()];
    save(() => props.onRestore(slugs));
  };
  return (
    <form onSubmit={submit} noValidate aria-label={props.label}>
      <h2>{props.label}</h2>
      <p>
        It becomes live again as a new revision; its history is kept.{' '}
        {props.field === 'slugs'
          ? 'Deleting freed its slugs: keep them if they are still free, or type new ones.'
          : 'Deleting freed its slug: keep it if it is still free, or type a new one.'}
      </p>
      <label for={`${id}-s`}>{props.field === 'slugs' ? 'Slugs (comma-separated)' : 'Slug'}</label>
      <input
        id={`${id}-s`}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        {...problemProps(id, props.field, problems)}
      />
      <Problem id={id} field={props.field} problems={problems} />
      <FormEnd id={id} problems={problems} submit="Restore" busy={busy} onCancel={props.onClose} />
    </form>
  );
}
