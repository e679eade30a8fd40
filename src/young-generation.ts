// V8's young generation, kept small by the server itself. Under a high allocation rate
// (thousands of requests a second) V8 grows its semi-spaces from 1 MB up to 16 MB each,
// and the pages they and glibc's freed memory leave behind stay resident: ~60 MB of RSS
// for nothing (docs/benchmarks.md, Memory). `--max-semi-space-size` is read only when the
// heap is set up, which a single executable cannot ask for (Node 20's SEA config has no
// execArgv); the growth factor is read each time V8 would grow them, so set at start it
// keeps them at their first size. Measured as the same req/s with and without.
import { setFlagsFromString } from 'node:v8';

export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
