// JSON-lines logger. Callers pass only safe fields: request logs carry the path without
// its query string (tokens travel there) and never headers or bodies.

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** Debug lines are written: a caller may skip making their fields otherwise. */
  readonly debugging: boolean;
  /** The line of one request, at level info (server.ts). */
  request(line: RequestLine): void;
}

/** What the log says of each request: never the query string, headers or body. */
export interface RequestLine {
  method: string;
  /** The path without its query string (tokens travel there). */
  path: string;
  /** The route pattern, never the raw path (ids, names), or a fixed label. */
  route: string;
  status: number;
  /** Milliseconds, to one decimal. */
  ms: number;
  id: string;
  client: string | undefined;
  user: string | undefined;
  /**
   * The X-Request-Id a client sent when the id is not taken from it (no trusted proxy in
   * front): kept apart, so that `id` is the server's own and never shared by two lines.
   */
  client_request_id?: string;
}

/**
 * stdout, written once per turn of the event loop: a log line per request made one
 * synchronous write(2) each (stdout is a file or a pipe), ~15 µs against ~5 µs for the
 * line alone, measured in a loop of 100,000. Whatever is pending is written on exit.
 */
function batchedStdout(): (line: string) => void {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const out = pending;
    pending = '';
    process.stdout.write(out);
  };
  process.on('exit', flush);
  return (line) => {
    if (pending === '') setImmediate(flush);
    pending += line;
  };
}

let stdout: ((line: string) => void) | undefined;
/** The one batched stdout writer of the process, made on first use. */
const sharedStdout = () => {
  stdout ??= batchedStdout();
  return stdout;
};

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = sharedStdout(),
): Logger {
  const on = (lvl: LogLevel) => RANK[lvl] <= RANK[level];
  const at =
    (lvl: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}): void => {
      if (!on(lvl)) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
    };
  const requestsOn = on('info');
  return {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    debugging: on('debug'),
    request(line) {
      if (requestsOn) write(requestLineText(line));
    },
  };
}

/**
 * The request line as `info('request', fields)` would write it, byte for byte, written
 * out field by field. Spreading the fields into the line's object and stringifying that
 * cost ~20 % of a single GET's CPU under load (a fifth of the requests per second,
 * docs/benchmarks.md); this way, only the rare string that needs escaping goes through
 * JSON.stringify.
 */
function requestLineText(line: RequestLine): string {
  const client = line.client === undefined ? 'null' : jsonString(line.client);
  const user = line.user === undefined ? 'null' : jsonString(line.user);
  const sent =
    line.client_request_id === undefined
      ? ''
      : `,"client_request_id":${jsonString(line.client_request_id)}`;
  return `{"time":"${isoNow()}","level":"info","msg":"request","method":${jsonString(line.method)},"path":${jsonString(line.path)},"route":${jsonString(line.route)},"status":${line.status},"ms":${line.ms},"id":${jsonString(line.id)},"client":${client},"user":${user}${sent}}\n`;
}

/** Printable ASCII but `"` and `\\`: what JSON writes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string as JSON.stringify writes it. */
const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

let isoMs = Number.NaN;
let isoText = '';
/** new Date().toISOString(), made once per millisecond: many requests share one. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}
