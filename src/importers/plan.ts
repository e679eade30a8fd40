// What one batch of an import writes, as the engine (engine.ts) decides it: the people,
// projects, activities and memberships it creates, then its entries. The engine only
// checks; a plan is written by plan-writer.ts, in the request's own write transaction
// (POST /v0/imports) or on the import's writer thread (`admin import-from`,
// admin/import-writer.ts), which writes one batch while the engine checks the next.
//
// What the checks create has a made-up id below zero until the plan is written: rows of
// later batches name it by that id too, and the writer keeps the real ids for the run.
//
// The entries travel packed: a few typed arrays (moved, not copied, to the writer
// thread) and one string of all their texts: an object per row cloned into another
// thread's heap costs that thread about what making it did (so it was with the records
// of a CSV parsed on a worker thread, admin/import-from.ts), and the writer thread is the
// longer of the two.

import { randomUUID } from 'node:crypto';
import type { ImportedTime } from '../times/store';

/** Something a batch creates before its entries, in the order the checks met it. */
export type PlanOp =
  | {
      kind: 'user';
      id: number;
      username: string;
      display_name: string | null;
      email: string | null;
    }
  | { kind: 'project'; id: number; name: string; slug: string }
  | { kind: 'activity'; id: number; name: string; slug: string }
  | { kind: 'member'; projectId: number; userId: number };

/** An entry that passed every check, as the engine keeps it until its batch is written. */
export interface PlannedEntry extends Omit<ImportedTime, 'uuid' | 'activityIds'> {
  /** The row's source key (sql/015). */
  key: string;
  activityIds: number[];
}

/** A batch's plan, packed: see the comment at the top. */
export interface ImportPlan {
  ops: PlanOp[];
  /** created_at of its entries (one instant per batch) and who made them (null: the CLI). */
  createdAt: number;
  changedBy: number | null;
  /**
   * The lock date and the closed week parts its rows were checked against (lockStates'
   * fingerprint), for a writer in another transaction to compare; null when the rows were
   * checked in the transaction that writes them.
   */
  locks: string | null;
  count: number;
  /** Per entry (INTS): duration, user_id, project_id, how many activities. */
  ints: Int32Array;
  activities: Int32Array;
  /** Per entry, the lengths of date_worked, start_time, issue_uri, notes and key (-1: null). */
  lengths: Int32Array;
  /** Per entry: its uuid (36 characters), then the five texts of `lengths`. */
  text: string;
  /** Entry indexes in the order of their keys. */
  keyOrder: Int32Array;
}

const UUID_LENGTH = 36;

/**
 * Hex digits a batch's uuids share, drawn at random for each batch: the batch's inserts
 * land in one 256th of the uuid index rather than all over it. With 20,000 fresh uuids
 * spread over a 1,000,000-entry index, each batch dirtied nearly every page of it (12,491
 * of a 40,000-row batch's 18,833), and each dirty page is written to the WAL and copied
 * into the file again at the checkpoint: 1,000,000 rows in 55–69 s, against 37–45 s with
 * the prefix (side by side, batches of 20,000). They are still v4 uuids, 114 of their
 * bits random and not 122: unique past any number of imports, and as unguessable as any
 * answer needs them.
 */
const UUID_BATCH_PREFIX = 2;
/** Numbers per entry in `ints`, texts per entry in `lengths`. */
const INTS = 4;
const TEXTS = 5;

/**
 * The batch's plan. Entries go in by day and person, and fresh v4 uuids are sorted and
 * handed out in that order, so that each index of `times` is walked in order rather than
 * hit at random (on the 1,000,000-entry database a random insert was a page read and a
 * page write per index); the source keys go in sorted too (import_sources).
 */
export function packPlan(
  entries: PlannedEntry[],
  ops: PlanOp[],
  createdAt: number,
  changedBy: number | null,
  locks: string | null,
): ImportPlan {
  entries.sort((a, b) =>
    a.date_worked < b.date_worked ? -1 : a.date_worked > b.date_worked ? 1 : a.user_id - b.user_id,
  );
  const count = entries.length;
  const uuids: string[] = new Array(count);
  const prefix = randomUUID().slice(0, UUID_BATCH_PREFIX);
  for (let i = 0; i < count; i++) uuids[i] = prefix + randomUUID().slice(UUID_BATCH_PREFIX);
  uuids.sort();
  const ints = new Int32Array(count * INTS);
  const lengths = new Int32Array(count * TEXTS);
  let activityCount = 0;
  for (const entry of entries) activityCount += entry.activityIds.length;
  const activities = new Int32Array(activityCount);
  const texts: string[] = new Array(count * (TEXTS + 1));
  let a = 0;
  let t = 0;
  const text = (i: number, value: string | null) => {
    lengths[i] = value === null ? -1 : value.length;
    texts[t++] = value ?? '';
  };
  for (let i = 0; i < count; i++) {
    const e = entries[i] as PlannedEntry;
    const n = INTS * i;
    ints[n] = e.duration;
    ints[n + 1] = e.user_id;
    ints[n + 2] = e.project_id;
    ints[n + 3] = e.activityIds.length;
    for (const id of e.activityIds) activities[a++] = id;
    texts[t++] = uuids[i] as string;
    const l = TEXTS * i;
    text(l, e.date_worked);
    text(l + 1, e.start_time);
    text(l + 2, e.issue_uri);
    text(l + 3, e.notes);
    text(l + 4, e.key);
  }
  const keyOrder = Int32Array.from({ length: count }, (_, i) => i).sort((x, y) => {
    const kx = (entries[x] as PlannedEntry).key;
    const ky = (entries[y] as PlannedEntry).key;
    return kx < ky ? -1 : kx > ky ? 1 : 0;
  });
  return {
    ops,
    createdAt,
    changedBy,
    locks,
    count,
    ints,
    activities,
    lengths,
    text: texts.join(''),
    keyOrder,
  };
}

/** An entry of a plan as the writer inserts it (ids as the plan has them). */
export interface UnpackedEntry extends ImportedTime {
  activityIds: Int32Array;
}

/**
 * The plan's entries one after the other, in the order they are to be inserted, each
 * written into the same object (`next()` answers it): the writer thread makes no object
 * per entry. `keyOf(i)` answers entry i's key once all have been read.
 */
export function planEntries(plan: ImportPlan) {
  const { ints, lengths, activities, text } = plan;
  const keyAt = new Int32Array(plan.count);
  const entry: UnpackedEntry = {
    uuid: '',
    duration: 0,
    user_id: 0,
    project_id: 0,
    date_worked: '',
    start_time: null,
    issue_uri: null,
    notes: null,
    activityIds: activities.subarray(0, 0),
  };
  let i = 0;
  let at = 0;
  let a = 0;
  const next = (length: number) => {
    if (length < 0) return null;
    const s = text.slice(at, at + length);
    at += length;
    return s;
  };
  return {
    next(): UnpackedEntry {
      entry.uuid = text.slice(at, at + UUID_LENGTH);
      at += UUID_LENGTH;
      const l = TEXTS * i;
      const n = INTS * i;
      const activityCount = ints[n + 3] as number;
      entry.activityIds = activities.subarray(a, a + activityCount);
      a += activityCount;
      entry.duration = ints[n] as number;
      entry.user_id = ints[n + 1] as number;
      entry.project_id = ints[n + 2] as number;
      entry.date_worked = next(lengths[l] as number) as string;
      entry.start_time = next(lengths[l + 1] as number);
      entry.issue_uri = next(lengths[l + 2] as number);
      entry.notes = next(lengths[l + 3] as number);
      keyAt[i] = at;
      at += lengths[l + 4] as number;
      i++;
      return entry;
    },
    keyOf(k: number): string {
      const start = keyAt[k] as number;
      return text.slice(start, start + (lengths[TEXTS * k + 4] as number));
    },
  };
}

/** The typed arrays of a plan, moved rather than copied to the writer thread. */
export const planBuffers = (plan: ImportPlan): ArrayBuffer[] => [
  plan.ints.buffer as ArrayBuffer,
  plan.activities.buffer as ArrayBuffer,
  plan.lengths.buffer as ArrayBuffer,
  plan.keyOrder.buffer as ArrayBuffer,
];
