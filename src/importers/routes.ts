// Handler of POST /v0/imports: the body is the export itself, read as it arrives.
import type { SignedInHandler } from '../auth/session';
import type { Handler } from '../http/context';
import { sendJson } from '../http/respond';
import type { ImportService } from './service';

export function importRoutes(imports: ImportService) {
  return {
    run: async (ctx, actor) =>
      sendJson(ctx.res, 200, await imports.run(actor, ctx.query, ctx.req as AsyncIterable<Buffer>)),
  } satisfies Record<string, SignedInHandler>;
}

/**
 * A route whose body is not a JSON object: its token comes from the Authorization header
 * alone (http/auth.ts finds no `auth` block), and the body is left for the handler to stream.
 */
export const rawBody =
  (handler: Handler): Handler =>
  (ctx) => {
    ctx.body = {};
    return handler(ctx);
  };
