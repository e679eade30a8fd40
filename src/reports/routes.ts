// Handler of /v0/reports.
import type { SignedInHandler } from '../auth/session';
import { sendJson } from '../http/respond';
import type { ReportService } from './service';

export function reportRoutes(reports: ReportService) {
  return {
    get: (ctx, actor) => sendJson(ctx.res, 200, reports.report(actor, ctx.query)),
  } satisfies Record<string, SignedInHandler>;
}
