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

/** create, update and remove of one resource; `idFromPath` checks the path's id. */
export function writeHandlers<Actor>(
  service: WritableService<Actor>,
  idFromPath: (params: Params) => string,
) {
  return {
    /** POST /v0/<things>: answers the created object. */
    async create(ctx: Ctx, actor: Actor) {
      sendJson(ctx.res, 200, service.create(actor, await requestObject(ctx)));
    },
    /** POST /v0/<things>/:id: answers the updated object. */
    async update(ctx: Ctx, actor: Actor) {
      const id = idFromPath(ctx.params);
      sendJson(ctx.res, 200, service.update(actor, id, await requestObject(ctx)));
    },
    /** DELETE /v0/<things>/:id: answers an empty 200. */
    remove(ctx: Ctx, actor: Actor) {
      service.remove(actor, idFromPath(ctx.params));
      sendEmpty(ctx.res);
    },
  };
}
