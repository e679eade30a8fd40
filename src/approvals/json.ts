// A week part and a decision as the API shows them (src/shapes/approval.ts).
import { formatTimestamp } from '../dates';
import type { WeekPart, WeekPartDecision } from '../shapes/approval';
import type { DecisionRow, WeekPartRow } from './store';

const moment = (ms: number | null) => (ms === null ? null : formatTimestamp(ms));

export const toWeekPartJson = (row: WeekPartRow): WeekPart => ({
  user: row.user,
  week: row.week,
  project: JSON.parse(row.project) as string[],
  status: row.status,
  duration: row.duration,
  entries: row.entries,
  submitted_at: moment(row.submitted_at),
  decided_by: row.decided_by,
  decided_at: moment(row.decided_at),
  comment: row.comment,
});

export const toDecisionJson = (row: DecisionRow): WeekPartDecision => ({
  action: row.action,
  by: row.by,
  at: formatTimestamp(row.at),
  comment: row.comment,
});
