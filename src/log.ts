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
  const at =
    (lvl: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}): void => {
      if (RANK[lvl] > RANK[level]) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
