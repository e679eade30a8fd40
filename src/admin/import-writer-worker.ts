// Runs inside a worker thread: the writes of `admin import-from` (import-writer.ts), on a
// connection of its own. The engine checks the rows of one batch on the event loop while
// this thread writes the plan of the batch before (importers/plan-writer.ts): SQLite's inserts,
// about two thirds of a real import's time, and the checks and the CSV reading, the
// rest, run on two cores instead of one after the other.
import { parentPort, workerData } from 'node:worker_threads';
import type { NativeFiles } from '../db/native';
import { beforeCommit, openDatabase, workerOpenOptions, writeTransaction } from '../db/open';
import { createReaderPool } from '../db/readers';
import type { ImportPlan } from '../importers/plan';
import { createPlanWriter } from '../importers/plan-writer';
import { createProjectJsonStore } from '../projects/json-store';
import { importStores } from './import-stores';

export interface ImportWriterData extends NativeFiles {
  file: string;
  /** The connection's page cache, KiB. */
  cacheKib: number;
}

/** To the worker: a plan to write, or the end of the run. */
export type ImportWriterInput = ImportPlan | 'close';

/** From the worker: a plan committed, its failure (nothing of it written), or closed. */
export type ImportWriterReply = { written: true } | { failed: string } | { closed: true };

const { file, cacheKib, ...native } = workerData as ImportWriterData;
const opening = workerOpenOptions(native);
const db = openDatabase(file, opening);
db.pragma(`cache_size = -${cacheKib}`);
// Statement journals in memory. Each insert of an entry fires triggers (sql/006,
// sql/009), so inside the batch's transaction SQLite journals the pages it changes, to
// roll that statement back alone; once one statement's journal passed 64 KiB (a page
// split) it went to a file in /var/tmp for the rest of the batch, two `pwrite` calls a
// page: ~20 system calls per row, 200,000 rows in 27.6 s against 20–21 s in memory. Only
// here: the setting puts every temporary file in memory, and a large ORDER BY of another
// command (a sort of a million entries: 68 → 155 MB peak) would hold its sort there too.
db.pragma('temp_store = MEMORY');
// Its writes leave no project's JSON stale, as the server's do.
beforeCommit(db, createProjectJsonStore(db).fillAll);
const readers = createReaderPool(file, opening);
const writer = createPlanWriter(importStores(db, readers));

const port = parentPort as NonNullable<typeof parentPort>;
const post = (reply: ImportWriterReply) => port.postMessage(reply);

port.on('message', (input: ImportWriterInput) => {
  if (input === 'close') {
    readers.close();
    db.close();
    post({ closed: true });
    port.close();
    return;
  }
  try {
    writeTransaction(db, () => writer.write(input));
    post({ written: true });
  } catch (err) {
    post({ failed: err instanceof Error ? err.message : String(err) });
  }
});
