// The handlers every resource shares (SPEC §1): POST /v0/<things> creates,
// POST /v0/<things>/:id updates, DELETE /v0/<things>/:id removes, and for the resources
// named by slug, GET /v0/<things>/:slug reads. Each authenticates
// first (a bad token is reported before a malformed path id), then reads the id from the
// path, then hands the request's object to the resource's service, which validates it,
// checks permissions and writes.
import type { App } from '../app';
import type { Actor } from '../policy';
import { authenticate, requestObject } from './auth';
import type { Ctx, Handler } from './context';
import { booleanParam } from './query';
import { sendEmpty, sendJson } from './respond';

/** The write side of a resource's service (src/<resource>/service.ts). */
export interface WritableService {
  create(actor: Actor, input: unknown): unknown;
  update(actor: Actor, id: string, input: unknown): unknown;
  remove(actor: Actor, id: string): void;
}

/** Which service of the App a route writes through. */
type ServiceOf = (app: App) => WritableService;
/** The checked id from the request path (throws kind 5 when malformed). */
type IdFromPath = (ctx: Ctx) => string;

/** A resource read by its slug (projects, activities). */
interface SlugReadable {
  get(slug: string, withParents: boolean): unknown;
}

/**
 * GET /v0/<things>/:slug. A deleted object released its slugs, so include_deleted cannot
 * reach it by slug: the parameter is only checked, like every boolean parameter.
 */
export function getBySlugHandler(
  service: (app: App) => SlugReadable,
  slugFromPath: IdFromPath,
): Handler {
  return async (ctx) => {
    await authenticate(ctx);
    const slug = slugFromPath(ctx);
    booleanParam(ctx.query, 'include_deleted');
    const withParents = booleanParam(ctx.query, 'include_revisions');
    sendJson(ctx.res, 200, service(ctx.app).get(slug, withParents));
  };
}

/** POST /v0/<things>: answers the created object. */
export function createHandler(service: ServiceOf): Handler {
  return async (ctx) => {
    const actor = await authenticate(ctx);
    sendJson(ctx.res, 200, service(ctx.app).create(actor, await requestObject(ctx)));
  };
}

/** POST /v0/<things>/:id: answers the updated object. */
export function updateHandler(service: ServiceOf, idFromPath: IdFromPath): Handler {
  return async (ctx) => {
    const actor = await authenticate(ctx);
    const id = idFromPath(ctx);
    sendJson(ctx.res, 200, service(ctx.app).update(actor, id, await requestObject(ctx)));
  };
}

/** DELETE /v0/<things>/:id: answers an empty 200. */
export function removeHandler(service: ServiceOf, idFromPath: IdFromPath): Handler {
  return async (ctx) => {
    const actor = await authenticate(ctx);
    service(ctx.app).remove(actor, idFromPath(ctx));
    sendEmpty(ctx.res);
  };
}
