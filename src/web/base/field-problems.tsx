// A form's problems, each shown next to its field: which field a server refusal names
// (SPEC §7 texts name it: `Field duration of time should be …`, `The time does not
// contain a valid project reference`, `The timer is missing a project`, `Slug gwm
// already exists on another object`), and the text
// under the field, tied to it for screen readers (aria-describedby, aria-invalid).
// `form` is the key of a problem that names no field; FormEnd shows it above the
// form's buttons, with the form's status line.

import { useState } from 'preact/hooks';
import { errorText } from '../api';

export type Problems = Record<string, string>;

/** The API field a refusal names, if it names one of `fields`. */
export function fieldOf(text: string, fields: readonly string[]): string | undefined {
  const named =
    /^Field (\w+) of /.exec(text)?.[1] ??
    /valid (\w+) reference/.exec(text)?.[1] ??
    /is missing an? (\w+)/.exec(text)?.[1] ??
    (/^Slugs? .* already exists?\b/.test(text) ? 'slugs' : undefined);
  if (!named) return undefined;
  if (fields.includes(named)) return named;
  const singular = named.replace(/s$/, '');
  if (fields.includes(singular)) return singular;
  const plural = `${named.replace(/y$/, 'ie')}s`;
  if (fields.includes(plural)) return plural;
  // `activity reference` of a project is its default_activity field
  return fields.find((f) => f.endsWith(`_${named}`));
}

/**
 * A form's problems and busy flag around its call to the server: the submit button is
 * off while the call runs; a refusal shows at the field it names (or above the buttons)
 * and the form can be sent again. Checks made before the call set problems directly.
 */
export function useSave(fields: readonly string[]) {
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const save = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setProblems({});
    try {
      await call();
    } catch (err) {
      setProblems(problemsOf(errorText(err), fields));
    } finally {
      setBusy(false);
    }
  };
  return { problems, setProblems, busy, save };
}

/** The problems of a refusal: under its field when it names one of `fields`. */
export function problemsOf(text: string, fields: readonly string[]): Problems {
  return { [fieldOf(text, fields) ?? 'form']: text };
}

/** The attributes of a field with a problem. */
export function problemProps(id: string, field: string, problems: Problems) {
  return problems[field]
    ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-problem` }
    : {};
}

/** The text of a field's problem (or of the form's, for `form`), if any. */
export function Problem(props: { id: string; field: string; problems: Problems }) {
  const text = props.problems[props.field];
  if (!text) return null;
  return (
    <p
      id={`${props.id}-${props.field}-problem`}
      class={props.field === 'form' ? 'error' : 'field-error'}
      role="alert"
    >
      {text}
    </p>
  );
}

/**
 * The end of a form: the problem that names no field, a status line (when given) and the
 * buttons — `submit` the primary one, Cancel before it when `onCancel` is given.
 */
export function FormEnd(props: {
  id: string;
  problems: Problems;
  status?: string;
  submit: string;
  busy?: boolean;
  onCancel?: () => void;
}) {
  return (
    <>
      <Problem id={props.id} field="form" problems={props.problems} />
      {props.status !== undefined && (
        <p class="status" role="status">
          {props.status}
        </p>
      )}
      <div class="actions">
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={props.busy}>
          {props.submit}
        </button>
      </div>
    </>
  );
}
