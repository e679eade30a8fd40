// The write handlers every resource shares (SPEC §1): POST /v0/<things> creates,
// POST /v0/<things>/:id updates, DELETE /v0/<things>/:id removes. Each is given its
// caller (authenticated by the route table), reads the id from the path (kind 5 when
// malformed), then hands the request's object to the resource's service, which
// validates it, checks permissions and writes.
import { requestObject } from './auth';
import type { Ctx } from './context';
import { sendEmpty, sendJson } from './respond';
import type { Params } from './router';

/** The write side of a resource's service (src/<resource>/service.ts). */
export interface WritableService<Actor> {
  create(actor: Actor, input: unknown): unknown;
  update(actor: Actor, id: string, input: unknown): unknown;
  remove(actor: Actor, id: string): void;
}

/**
 * How a write is run: at once (the default), or grouped with others in one transaction
 * (db/write-queue.ts), settling after its COMMIT.
 */
export type RunWrite = <T>(write: () => T) => T | Promise<T>;

const atOnce: RunWrite = (write) => write();

/**
 * create, update and remove of one resource; `idFromPath` checks the path's id, `run`
 * runs each write (its answer is sent only once `run` has settled).
 */
export function writeHandlers<Actor>(
  service: WritableService<Actor>,
  idFromPath: (params: Params) => string,
  run: RunWrite = atOnce,
) {
  return {
    /** POST /v0/<things>: answers the created object. */
    async create(ctx: Ctx, actor: Actor) {
      const input = await requestObject(ctx);
      sendJson(ctx.res, 200, await run(() => service.create(actor, input)));
    },
    /** POST /v0/<things>/:id: answers the updated object. */
    async update(ctx: Ctx, actor: Actor) {
      const id = idFromPath(ctx.params);
      const input = await requestObject(ctx);
      sendJson(ctx.res, 200, await run(() => service.update(actor, id, input)));
    },
    /** DELETE /v0/<things>/:id: answers an empty 200. */
    async remove(ctx: Ctx, actor: Actor) {
      const id = idFromPath(ctx.params);
      await run(() => service.remove(actor, id));
      sendEmpty(ctx.res);
    },
  };
}
