// What a handler gets: the raw request/response, the parsed URL and path params, the
// application's services, and (once authenticated) the actor.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app';
import type { Actor } from '../policy';
import type { Params } from './router';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
  params: Params;
  app: App;
  actor?: Actor;
  /** The parsed JSON body of a POST, read once. */
  body?: unknown;
}

export type Handler = (ctx: Ctx) => Promise<void> | void;
