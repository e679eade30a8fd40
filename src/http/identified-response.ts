// The responses of the API server: each carries its request id (http/client.ts) as
// X-Request-Id, however its head is written. Setting the header up front with setHeader
// sent every writeHead down node:http's slower path (each header set one by one, then
// stored): ~5 % of a single GET's CPU. Adding it to the object writeHead is given keeps
// the direct path for the common answers.
import { type IncomingMessage, ServerResponse } from 'node:http';

export class IdentifiedResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** Sent as X-Request-Id; set by the server as soon as the request arrives. */
  requestId = '';

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const id = this.requestId;
    const last = rest.length > 0 ? rest[rest.length - 1] : undefined;
    if (id !== '' && !this.headersSent) {
      if (isHeaderObject(last)) rest[rest.length - 1] = { 'X-Request-Id': id, ...last };
      else this.setHeader('X-Request-Id', id); // no object: headers were set one by one
    }
    return (super.writeHead as (status: number, ...more: unknown[]) => this)(statusCode, ...rest);
  }
}

const isHeaderObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
