// A user's time zone (issue 31) as a labelled select with its hint and problem: the
// profile and an admin's user page share it. The choices are none (the server's zone)
// and every zone this browser knows, its own marked.

import { Problem, type Problems, problemProps } from './field-problems';
import { type Option, Select } from './fields';

/**
 * The time zones to choose from: none (the server's), then every zone this browser knows,
 * its own marked; a zone set elsewhere that the browser does not list is kept as a choice.
 */
function zoneOptions(current: string | null): Option[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zones = Intl.supportedValuesOf('timeZone');
  if (current && !zones.includes(current)) zones.unshift(current);
  return [
    { value: '', label: "Not set: the server's" },
    ...zones.map((z) => ({ value: z, label: z === own ? `${z} (this device)` : z })),
  ];
}

export function TimeZoneField(props: {
  /** The form's id (useId): the select's is `${form}-timezone`. */
  form: string;
  /** '' for none */
  value: string;
  /** The zone the user has now, kept as a choice even if this browser does not list it. */
  saved: string | null;
  onChange: (zone: string) => void;
  problems: Problems;
  disabled?: boolean;
}) {
  const { form, problems } = props;
  // Described by its hint, and by its problem when there is one.
  const problem: { 'aria-describedby'?: string } = problemProps(form, 'timezone', problems);
  return (
    <>
      <Select
        id={`${form}-timezone`}
        label="Time zone"
        value={props.value}
        options={zoneOptions(props.saved)}
        onChange={props.onChange}
        disabled={props.disabled}
        {...problem}
        aria-describedby={`${form}-timezone-hint ${problem['aria-describedby'] ?? ''}`.trim()}
      />
      <p id={`${form}-timezone-hint`} class="field-hint muted">
        The timer writes the time it started on this clock.
      </p>
      <Problem id={form} field="timezone" problems={problems} />
    </>
  );
}
