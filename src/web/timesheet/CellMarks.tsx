// The marks of a timesheet cell whose entries carry notes or an issue link (issue 34): a
// small sign beside the digits that the eye catches, and for a screen reader the words
// "Has notes" / "Has an issue link" as the cell's description (aria-describedby).
import type { Time } from '../api';

/** The marks of `entries`, and the ids of their descriptions (for aria-describedby). */
export function cellMarks(entries: readonly Time[], idBase: string) {
  const notes = entries.some((t) => t.notes);
  const issue = entries.some((t) => t.issue_uri);
  const ids = [notes && `${idBase}-notes`, issue && `${idBase}-issue`].filter(
    (id): id is string => typeof id === 'string',
  );
  const marks =
    notes || issue ? (
      <span class="cell-marks">
        {notes && (
          <span class="mark" aria-hidden="true" title="Has notes">
            ✎
          </span>
        )}
        {issue && (
          <span class="mark" aria-hidden="true" title="Has an issue link">
            #
          </span>
        )}
        {notes && (
          <span id={`${idBase}-notes`} class="visually-hidden">
            Has notes
          </span>
        )}
        {issue && (
          <span id={`${idBase}-issue`} class="visually-hidden">
            Has an issue link
          </span>
        )}
      </span>
    ) : null;
  return { ids, marks };
}
