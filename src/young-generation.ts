// V8's young generation, kept small by the server itself. Under a high allocation rate
// (thousands of requests a second) V8 grows its semi-spaces from 1 MB up to 16 MB each,
// and the pages they and glibc's freed memory leave behind stay resident (docs/
// benchmarks.md, Memory). `--max-semi-space-size` is read only when the heap is set up,
// which a single executable cannot ask for (Node 20's SEA config has no execArgv); the
// growth factor is read each time V8 would grow them, so set before anything else
// allocates it keeps them at their first size. A side effect of importing this module:
// main.ts imports it first, so it runs before the rest of the bundle is evaluated. Only
// for `serve`: the one-shot commands (export of a million rows) keep V8's default.
import { setFlagsFromString } from 'node:v8';

if (process.argv.slice(2).includes('serve')) setFlagsFromString('--semi-space-growth-factor=1');
