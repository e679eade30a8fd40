// Handlers of /v0/weeks/:username/:week/submit, /v0/approvals… and /v0/lock (issue 32).
import type { SignedInHandler } from '../auth/session';
import { requestObject } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendList } from '../http/list';
import { sendJson } from '../http/respond';
import { slugFromPath, usernameFromPath, weekFromPath } from '../identifiers';
import type { ApprovalService, DecisionAction } from './service';

/** A part's path: user, week and project, each checked in that order (kind 5). */
const partOf = (ctx: Ctx) => ({
  username: usernameFromPath(ctx.params.username),
  week: weekFromPath(ctx.params.week),
  slug: slugFromPath(ctx.params.slug),
});

export function approvalRoutes(approvals: ApprovalService) {
  const decision =
    (action: DecisionAction): SignedInHandler =>
    async (ctx, actor) => {
      const names = partOf(ctx);
      const input = await requestObject(ctx);
      sendJson(ctx.res, 200, approvals.decide(actor, action, names, input));
    };
  return {
    submit: async (ctx, actor) => {
      const username = usernameFromPath(ctx.params.username);
      const week = weekFromPath(ctx.params.week);
      const input = await requestObject(ctx);
      sendJson(ctx.res, 200, approvals.submit(actor, username, week, input));
    },
    approve: decision('approve'),
    reject: decision('reject'),
    reopen: decision('reopen'),
    history: (ctx, actor) => sendJson(ctx.res, 200, approvals.history(actor, partOf(ctx))),
    list: (ctx, actor) => sendList(ctx, approvals.list(actor, ctx.query)),
    getLock: (ctx) => sendJson(ctx.res, 200, approvals.lock()),
    setLock: async (ctx, actor) =>
      sendJson(ctx.res, 200, approvals.setLock(actor, await requestObject(ctx))),
  } satisfies Record<string, SignedInHandler>;
}
