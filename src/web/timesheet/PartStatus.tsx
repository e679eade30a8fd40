// A timesheet row's week part (issue 32): its status badge, a rejection's comment, and
// why a cell of it cannot be changed.
import type { WeekPart } from '../api';

const STATUS_TEXT: Record<WeekPart['status'], string> = {
  open: 'Open',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** Why a cell cannot be changed, or undefined when it can. */
export function lockReason(part: WeekPart | undefined, date: string, lockBefore: string | null) {
  if (lockBefore !== null && date < lockBefore) {
    return `Locked: entries before ${lockBefore} are locked`;
  }
  if (part?.status === 'submitted') return 'Locked: submitted for approval';
  if (part?.status === 'approved') return `Locked: approved by ${part.decided_by ?? 'a manager'}`;
  return undefined;
}

/** A row's week part: its status, and a rejection's comment (what to fix). */
export function PartStatus(props: { part: WeekPart | undefined }) {
  const { part } = props;
  if (!part || part.status === 'open') return null;
  return (
    <span class={`part-status ${part.status}`}>
      <span class="badge">{STATUS_TEXT[part.status]}</span>
      {part.status === 'rejected' && part.comment && (
        <span class="comment">
          {part.decided_by ?? 'A manager'}: “{part.comment}”
        </span>
      )}
    </span>
  );
}
