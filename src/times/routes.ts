// Handlers of /v0/times, /v0/times/:uuid and /v0/times/:uuid/history.
import type { SignedInHandler } from '../auth/session';
import { dateRangeName, wantsCsv } from '../http/csv';
import { type RunWrite, writeHandlers } from '../http/handlers';
import { sendCsvList, sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { uuidFromPath } from '../identifiers';
import type { Actor } from '../policy';
import { TIME_CSV_HEADER, timeCsvCells } from './json';
import type { TimeService } from './service';

/** `run`: how writes are run; the server groups them per turn of the event loop. */
export function timeRoutes(times: TimeService, run?: RunWrite) {
  return {
    list: (ctx, actor) => {
      const csv = wantsCsv(ctx);
      const listing = times.list(actor, ctx.query, csv);
      if (!csv) return sendList(ctx, listing);
      const names = times.csvNames();
      return sendCsvList(ctx, listing, {
        header: TIME_CSV_HEADER,
        cells: (json) => timeCsvCells(json, names),
        filename: `timetrack-times-${dateRangeName(ctx.query)}.csv`,
      });
    },
    get: (ctx, actor) =>
      sendJson(ctx.res, 200, times.get(actor, uuidFromPath(ctx.params.uuid), ctx.query)),
    history: (ctx, actor) =>
      sendJson(ctx.res, 200, times.history(actor, uuidFromPath(ctx.params.uuid), ctx.query)),
    ...writeHandlers<Actor>(times, (params) => uuidFromPath(params.uuid), run),
  } satisfies Record<string, SignedInHandler>;
}
