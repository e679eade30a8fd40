// Handler of /v0/reports: JSON, or CSV when asked for (format=csv, Accept: text/csv). A
// small report is sent in one piece; a large one is streamed (http/text-body.ts).
import type { SignedInHandler } from '../auth/session';
import { attachment, CSV_TYPE, dateRangeName, wantsCsv } from '../http/csv';
import { JSON_TYPE, sendText } from '../http/respond';
import { sendPieces } from '../http/text-body';
import type { ReportService } from './service';

export function reportRoutes(reports: ReportService) {
  return {
    get: (ctx, actor) => {
      const csv = wantsCsv(ctx);
      const body = reports.report(actor, ctx.query, csv);
      const type = csv ? CSV_TYPE : JSON_TYPE;
      const headers = csv ? attachment(`timetrack-report-${dateRangeName(ctx.query)}.csv`) : {};
      if ('whole' in body) return sendText(ctx.res, 200, type, body.whole, headers);
      return sendPieces(ctx, body.stream, type, headers);
    },
  } satisfies Record<string, SignedInHandler>;
}
