// What a handler gets: the raw request/response, the parsed URL, query and path params.
// Nothing of the application: a handler reaches only the service its route was built with.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from './router';
import type { ListStreams } from './streams';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
  params: Params;
  /** The server's limits of streamed lists (http/streams.ts), shared by all requests. */
  lists: ListStreams;
  /**
   * The client's address (http/client.ts): the connection's, or behind a trusted proxy the
   * address it forwarded. Login throttling counts failures per this address.
   */
  client: string | undefined;
  /** The authenticated caller's username, once known (for the request's log line). */
  caller?: string;
  /** The parsed JSON body of a POST, read once. */
  body?: unknown;
  /**
   * Called once when the request's write first finds another process's write lock and
   * waits for it (db/open.ts whenWriteLockFree): the server logs it.
   */
  lockWaited?: () => void;
}

export type Handler = (ctx: Ctx) => Promise<void> | void;

/**
 * A handler given its authenticated caller: a resource's route handler. auth/session.ts
 * authenticates first (`signedIn`) and names the one for our `Actor` (SignedInHandler).
 */
export type CallerHandler<Caller> = (ctx: Ctx, caller: Caller) => Promise<void> | void;
