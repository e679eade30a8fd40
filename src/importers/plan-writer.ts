// Writes the plans of one import run (plan.ts), each inside the caller's write
// transaction: what the batch creates, then its entries, their derived rows (sql/018) and
// their source keys (sql/015). The real ids of what earlier batches created are kept for
// the run, since later rows name it by its made-up id.

import type { ActivityStore } from '../activities/store';
import type { Db } from '../db/open';
import type { ProjectStore } from '../projects/store';
import type { TimeImportStatements } from '../times/store';
import { registerUser } from '../users/register';
import type { UserStore } from '../users/store';
import { type ImportPlan, planEntries } from './plan';
import type { ImportStore } from './store';

export interface PlanWriterDeps {
  db: Db;
  store: ImportStore;
  inserts: TimeImportStatements;
  users: UserStore;
  projects: ProjectStore;
  activities: ActivityStore;
}

/**
 * The lock date or a week part's approval changed between a batch's checks and its write
 * (another process, while the import's writer thread was a batch behind): the batch is
 * not written, and running the file again completes the import under the new locks.
 */
export class LocksChanged extends Error {
  constructor() {
    super('the lock date or the approval of a week changed while the file was read');
  }
}

export type PlanWriter = ReturnType<typeof createPlanWriter>;

export function createPlanWriter(deps: PlanWriterDeps) {
  const { db, store, inserts, users, projects, activities } = deps;
  /** made-up id → the id it was created with. */
  const created = new Map<number, number>();
  const real = (id: number): number => {
    if (id >= 0) return id;
    const known = created.get(id);
    if (known === undefined) throw new Error(`an import plan names ${id} before creating it`);
    return known;
  };
  return {
    /** Writes the plan; the caller's transaction makes it all or nothing. */
    write(plan: ImportPlan): void {
      if (plan.locks !== null && inserts.lockStates().fingerprint() !== plan.locks) {
        throw new LocksChanged();
      }
      const now = Date.now();
      for (const op of plan.ops) {
        if (op.kind === 'user') {
          const fields = { display_name: op.display_name, email: op.email, active: false };
          created.set(op.id, registerUser(db, users, { username: op.username, fields }).id);
        } else if (op.kind === 'project') {
          const fields = { name: op.name, uri: null, owner_id: null, default_activity_id: null };
          const id = projects.insert(fields, now, plan.changedBy);
          projects.replaceSlugs(id, [op.slug]);
          created.set(op.id, id);
        } else if (op.kind === 'activity') {
          created.set(op.id, activities.insert(op.name, op.slug, now, plan.changedBy));
        } else projects.addMember(real(op.projectId), real(op.userId));
      }
      const entries = planEntries(plan);
      const next =
        created.size === 0
          ? entries.next
          : () => {
              const e = entries.next();
              e.user_id = real(e.user_id);
              e.project_id = real(e.project_id);
              for (let i = 0; i < e.activityIds.length; i++) {
                e.activityIds[i] = real(e.activityIds[i] as number);
              }
              return e;
            };
      const ids = inserts.insertBatch(plan.count, next, plan.createdAt, plan.changedBy);
      for (const i of plan.keyOrder) store.addSource(entries.keyOf(i), ids[i] as number);
    },
  };
}
