// The HTTP ceiling of SPEC §9: a bare node:http server, in a process of its own, that
// answers with the very bytes timetrack answered (status, headers, body), held in memory.
// What is left between it and timetrack is our routing, auth, SQLite and JSON.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';

export interface CannedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CeilingRoutes {
  /** GET answers by exact request URL (path and query). */
  get: Record<string, CannedResponse>;
  /** POST answers by exact path; the body is read in full first. */
  post: Record<string, CannedResponse>;
  /** The answer to a POST to any other path (e.g. every /v0/times/:uuid). */
  postOther?: CannedResponse;
}

export interface CeilingServer {
  url: string;
  pid: number;
  stop(): void;
}

/** Starts the ceiling server in a child process with these canned answers. */
export function startCeiling(routes: CeilingRoutes): Promise<CeilingServer> {
  const child = fork(__filename, ['--serve'], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.once('message', (msg: { port: number }) =>
      resolve({
        url: `http://127.0.0.1:${msg.port}`,
        pid: child.pid as number,
        stop: () => child.kill('SIGTERM'),
      }),
    );
    child.once('exit', (code) => reject(new Error(`ceiling server exited with ${code}`)));
    child.send(routes);
  });
}

interface Prepared {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function prepare(r: CannedResponse): Prepared {
  const body = Buffer.from(r.body);
  return {
    status: r.status,
    headers: { ...r.headers, 'content-length': String(body.length) },
    body,
  };
}

function serve(routes: CeilingRoutes): void {
  const get = new Map(Object.entries(routes.get).map(([url, r]) => [url, prepare(r)]));
  const post = new Map(Object.entries(routes.post).map(([url, r]) => [url, prepare(r)]));
  const postOther = routes.postOther ? prepare(routes.postOther) : undefined;
  const missing = prepare({ status: 404, headers: {}, body: 'not canned' });
  // The IPC message that brought the answers can be ~100 MB: collect it now, not
  // in the middle of the first measured run.
  (globalThis as { gc?: () => void }).gc?.();
  const send = (res: import('node:http').ServerResponse, r: Prepared) => {
    res.writeHead(r.status, r.headers);
    res.end(r.body);
  };
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      req.on('data', () => {});
      req.on('end', () => send(res, post.get(req.url ?? '') ?? postOther ?? missing));
      return;
    }
    send(res, get.get(req.url ?? '') ?? missing);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as { port: number }).port });
  });
  process.once('SIGTERM', () => process.exit(0));
}

if (require.main === module && process.argv.includes('--serve')) {
  process.once('message', (routes: CeilingRoutes) => serve(routes));
}
