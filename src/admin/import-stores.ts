// The stores an import works through, made on one connection: the command's (which only
// reads while its writer thread writes) and the writer thread's own.
import { createActivityStore } from '../activities/store';
import type { Db } from '../db/open';
import type { ReaderPool } from '../db/readers';
import type { PlanWriterDeps } from '../importers/plan-writer';
import { createImportStore } from '../importers/store';
import { createProjectStore } from '../projects/store';
import { createTimeImportStatements } from '../times/store';
import { createUserStore } from '../users/store';

export function importStores(db: Db, readers: ReaderPool): PlanWriterDeps {
  return {
    db,
    store: createImportStore(db),
    inserts: createTimeImportStatements(db),
    users: createUserStore(db, readers),
    projects: createProjectStore(db, readers),
    activities: createActivityStore(db, readers),
  };
}
