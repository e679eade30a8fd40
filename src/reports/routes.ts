// Handler of /v0/reports: JSON, or CSV when asked for (format=csv, Accept: text/csv).
import type { SignedInHandler } from '../auth/session';
import { attachment, CSV_TYPE, csvLine, dateRangeName, wantsCsv } from '../http/csv';
import { sendJson, sendText } from '../http/respond';
import { reportCsvLines } from './json';
import type { ReportService } from './service';

export function reportRoutes(reports: ReportService) {
  return {
    get: (ctx, actor) => {
      const csv = wantsCsv(ctx);
      const report = reports.report(actor, ctx.query);
      if (!csv) return sendJson(ctx.res, 200, report);
      const { header, rows } = reportCsvLines(report);
      const text = csvLine(header) + rows.map(csvLine).join('');
      const filename = `timetrack-report-${dateRangeName(ctx.query)}.csv`;
      sendText(ctx.res, 200, CSV_TYPE, text, attachment(filename));
    },
  } satisfies Record<string, SignedInHandler>;
}
