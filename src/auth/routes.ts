// Handler of POST /v0/login.
import type { Socket } from 'node:net';
import { requestBody } from '../http/auth';
import type { Ctx } from '../http/context';
import { sendJson } from '../http/respond';

export async function loginHandler(ctx: Ctx): Promise<void> {
  const body = await requestBody(ctx);
  const client = { address: remoteAddress(ctx.req.socket) };
  sendJson(ctx.res, 200, await ctx.app.login.login(body, client));
}

/**
 * The connection's remote address, IPv4-mapped IPv6 written as IPv4. Not a forwarded
 * header: there is no trusted-proxy setting (yet), and a header is whatever the client says.
 */
function remoteAddress(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
