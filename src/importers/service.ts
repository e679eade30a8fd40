// POST /v0/imports (issue 31 §3): a tracker's export streamed as the request body into the
// import engine, for the caller. Admins import everything; site managers too (they may
// create the projects); anyone else their own rows only (the engine skips and counts the
// others). Batches are small here and the event loop is let go between them, so that a
// million-row file does not hold other requests; each batch waits for another process's
// write lock as any write does (--lock-wait).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isTimeZone } from '../dates';
import { type Db, WriteLockBusy, whenWriteLockFree, writeTransaction } from '../db/open';
import { badObject, badQueryValue, serviceUnavailable } from '../errors';
import { booleanParam } from '../http/query';
import { isSlug } from '../identifiers';
import type { Actor } from '../policy';
import { CsvSyntaxError } from './csv';
import {
  type ImportDeps,
  ImportOptionError,
  type ImportOptions,
  type ImportReport,
  ImportStopped,
} from './engine';
import { FORMAT_NAMES, type FormatName } from './format';
import { NotThatFormat } from './read';
import { importStream } from './run';
import { XlsxError } from './xlsx';

/** Rows per write transaction of a request: ~50 ms at the engine's speed. */
export const REQUEST_BATCH_ROWS = 1_000;

export type ImportService = ReturnType<typeof createImportService>;

export function createImportService(
  deps: Omit<ImportDeps, 'runBatch' | 'batchRows'> & { db: Db; lockWaitMs: number },
) {
  const engine: ImportDeps = {
    ...deps,
    batchRows: REQUEST_BATCH_ROWS,
    runBatch: async (write) => {
      await nextTurn(); // other requests between batches
      await whenWriteLockFree(() => writeTransaction(deps.db, write), deps.lockWaitMs);
    },
  };

  /** The query of POST /v0/imports → options (kind 11 for the first bad value). */
  const optionsOf = (query: URLSearchParams): ImportOptions => {
    const format = query.get('format') ?? '';
    if (!(FORMAT_NAMES as readonly string[]).includes(format))
      throw badQueryValue('format', format);
    const defaultActivity = query.get('default_activity') ?? undefined;
    if (defaultActivity !== undefined && !isSlug(defaultActivity)) {
      throw badQueryValue('default_activity', defaultActivity);
    }
    const timezone = query.get('timezone') ?? undefined;
    if (timezone !== undefined && !isTimeZone(timezone)) throw badQueryValue('timezone', timezone);
    return {
      format: format as FormatName,
      dryRun: booleanParam(query, 'dry_run'),
      createUsers: booleanParam(query, 'create_users'),
      tagsAsActivities: booleanParam(query, 'tags_as_activities'),
      defaultActivity,
      timezone,
    };
  };

  return {
    async run(
      actor: Actor,
      query: URLSearchParams,
      body: AsyncIterable<Buffer>,
    ): Promise<ImportReport> {
      const options = optionsOf(query);
      try {
        return await importStream(engine, actor, options, body);
      } catch (err) {
        if (err instanceof NotThatFormat) throw badObject(`The file ${err.message}`);
        if (err instanceof ImportOptionError) throw badQueryValue(err.option, err.value);
        if (err instanceof ImportStopped) {
          const where = `the import stopped at line ${err.line}; nothing from line ${err.from} on was written, and sending the file again (corrected) completes it`;
          if (err.cause instanceof WriteLockBusy) {
            throw serviceUnavailable(`The database is busy: ${where}`, 1);
          }
          if (err.cause instanceof CsvSyntaxError || err.cause instanceof XlsxError) {
            throw badObject(`The file could not be read (${err.cause.message}): ${where}`);
          }
          throw err.cause;
        }
        throw err;
      }
    },
  };
}
