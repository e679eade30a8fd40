// How a streamed response is doing on its connection: closed, its turn among pipelined
// requests, progress of its writes (drain or stall), and the cut-off of a stalled one.
// http/list.ts uses these so that a list never holds its reader for a client that has
// gone or stopped reading.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Ctx } from './context';

/**
 * An AbortSignal fired when the request's connection closes, made when it is first read
 * (aborted at once if the connection has closed by then): a short list sent whole, the
 * commonest, waits on nothing, and an AbortController per request was a few % of the
 * event loop's time under month reads.
 */
export function watchConnection({ req, res }: Ctx): {
  readonly signal: AbortSignal;
  dispose(): void;
} {
  let watched: { signal: AbortSignal; unwatch: () => void } | undefined;
  return {
    get signal() {
      if (!watched) {
        const controller = new AbortController();
        const close = () => controller.abort();
        const socket = req.socket;
        if (res.destroyed || socket.destroyed) close();
        watched = { signal: controller.signal, unwatch: onConnectionClose(socket, close) };
      }
      return watched.signal;
    },
    dispose: () => watched?.unwatch(),
  };
}

/**
 * The requests waiting on each connection to close. One listener per connection, not one
 * per request: a client may pipeline any number of requests on one connection.
 */
const closeWatchers = new WeakMap<Socket, Set<() => void>>();

function onConnectionClose(socket: Socket, fn: () => void): () => void {
  let watchers = closeWatchers.get(socket);
  if (!watchers) {
    const all = new Set<() => void>();
    closeWatchers.set(socket, all);
    socket.once('close', () => {
      closeWatchers.delete(socket);
      for (const watcher of all) watcher();
    });
    watchers = all;
  }
  watchers.add(fn);
  return () => watchers.delete(fn);
}

/** Resolves true when the response gets the connection, false when it closed first. */
export function ownTurn(res: ServerResponse, closed: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (closed.aborted) {
      resolve(false);
      return;
    }
    const done = (turn: boolean) => () => {
      res.off('socket', onSocket);
      closed.removeEventListener('abort', onClose);
      resolve(turn);
    };
    const onSocket = done(true);
    const onClose = done(false);
    res.once('socket', onSocket);
    closed.addEventListener('abort', onClose, { once: true });
  });
}

/**
 * After a write the socket did not take at once: 'drained' when it can take more,
 * 'closed' when the connection closed, 'stalled' when neither happened within the stall
 * limit (the client reads nothing).
 */
export function progress(
  { res, lists }: Ctx,
  closed: AbortSignal,
): Promise<'drained' | 'closed' | 'stalled'> {
  return new Promise((resolve) => {
    if (closed.aborted) {
      resolve('closed');
      return;
    }
    const done = (how: 'drained' | 'closed' | 'stalled') => () => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      closed.removeEventListener('abort', onClose);
      resolve(how);
    };
    const onDrain = done('drained');
    const onClose = done('closed');
    const timer = setTimeout(done('stalled'), lists.limits.stallMs);
    res.once('drain', onDrain);
    closed.addEventListener('abort', onClose, { once: true });
  });
}

/**
 * Once the whole list is handed to the socket, the client still has to take the last of
 * it; a client that does not is cut off after the same stall limit.
 */
export function watchTail(ctx: Ctx): void {
  const { res, lists } = ctx;
  if (res.writableFinished || res.destroyed) return;
  const timer = setTimeout(() => cutOff(ctx), lists.limits.stallMs);
  const done = () => {
    clearTimeout(timer);
    res.off('finish', done);
    res.off('close', done);
  };
  res.once('finish', done);
  res.once('close', done);
}

/**
 * Ends a response whose client stopped reading: the connection is reset (RST), so that
 * neither this process nor the kernel keeps the bytes the client will never take.
 */
export function cutOff({ req, res, url, lists }: Ctx): void {
  lists.limits.onStall?.(url.pathname);
  try {
    req.socket.resetAndDestroy();
  } catch {
    req.socket.destroy(); // not a TCP socket: no RST to send
  }
  res.destroy();
}
