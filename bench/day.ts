// npm run bench:day — how many people one machine serves (issue 35): N simulated people
// live a working day against the built executable (bench/day-plan.ts: a 9:00 wave of
// sign-ins, the week loaded, ~10 cells saved, a timer, the entries page; managers run a
// report and a CSV; scripts poll), the load generator in a process of its own. Each N
// gets a data set of the bench set's shape for N people (bench/generate.ts, cached in
// bench/data/). N doubles until a day fails (a p99 ≥ 200 ms or any error), then is
// bisected, within a time budget. Writes the table into docs/capacity.md.
//
//   npm run bench:day                        # the search (≤ 15 min), writes docs/capacity.md
//   npm run bench:day -- --quick             # 10 people, a fast clock: a smoke run (~1 min)
//   npm run bench:day -- --people 100,200    # these N only
//   options: --start N --budget MIN --history-days D --wave-speed X --day-speed X
//            --seed N --no-build --out FILE --draft --script-auth login
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './cpu';
import { DATA_DIR, ensureDataset } from './dataset';
import { runDay } from './day-load';
import { SCRIPT_AUTHS, type ScriptAuth } from './day-people';
import { type Clock, dayLengthMs, planDay } from './day-plan';
import {
  type DayReport,
  loadAverageNow,
  machineBusy,
  markdownSection,
  replaceBetween,
  type StepResult,
  stepLine,
  stepResult,
  writeSection,
} from './day-report';
import { searchCapacity } from './day-search';
import { TIMES_PER_USER_DAY } from './generate';
import { readMemory, sampleRss } from './rss';
import { buildExecutable, ROOT, startTarget } from './target';

const say = (line: string) => process.stderr.write(`bench:day: ${line}\n`);

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    people: { type: 'string' },
    start: { type: 'string', default: '25' },
    budget: { type: 'string', default: '14' },
    'history-days': { type: 'string' },
    'wave-speed': { type: 'string' },
    'day-speed': { type: 'string' },
    seed: { type: 'string', default: '9' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    draft: { type: 'boolean', default: false },
    'script-auth': { type: 'string', default: 'login' },
  },
});
const QUICK = opts.quick;
const BUDGET_MS = Number(opts.budget) * 60_000;
const HISTORY_DAYS = Number(opts['history-days'] ?? (QUICK ? 14 : 35));
const CLOCK: Clock = {
  waveSpeed: Number(opts['wave-speed'] ?? (QUICK ? 60 : 20)),
  daySpeed: Number(opts['day-speed'] ?? (QUICK ? 3000 : 1000)),
};
const SECRET = 'benchmark-secret-key-0123456789-abcdefghijklmnop';
/** Bisection stops when the bracket is this close (fraction of the lower end) or 5 people. */
const PRECISION = 0.1;
/** Generation speed here (docs/benchmarks.md: 1,000,000 entries in ~60 s), for the budget. */
const ENTRIES_PER_SECOND = 15_000;
const SCRIPT_AUTH = opts['script-auth'] as ScriptAuth;
if (!SCRIPT_AUTHS.includes(SCRIPT_AUTH)) {
  say(`--script-auth ${SCRIPT_AUTH}: not available yet (personal tokens: see bench/day-people.ts)`);
  process.exit(2);
}
/** Only the default search writes docs/capacity.md by itself. */
const DEFAULT_OUT = join(ROOT, 'docs/capacity.md');
const OUT =
  opts.out ??
  (!QUICK && !opts.people && !opts['wave-speed'] && !opts['day-speed'] && !opts['history-days']
    ? DEFAULT_OUT
    : undefined);

const entriesFor = (people: number) => Math.round(people * TIMES_PER_USER_DAY * HISTORY_DAYS);

async function step(people: number): Promise<StepResult> {
  const entries = entriesFor(people);
  const dataset = ensureDataset(entries, Number(opts.seed), say, {
    users: people,
    days: HISTORY_DAYS,
  });
  const runDir = join(DATA_DIR, 'day');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const db = join(runDir, 'timetrack.db');
  copyFileSync(dataset.file, db);
  const target = await startTarget({
    db,
    logFile: join(runDir, 'server.log'),
    env: { TIMETRACK_SECRET_KEY: SECRET, LOG_LEVEL: 'info' },
  });
  try {
    const plan = planDay(dataset.sidecar, { clock: CLOCK });
    say(
      `N=${people}: ${entries.toLocaleString('en-US')} entries, a day of ${(dayLengthMs(CLOCK) / 1000).toFixed(0)} s ...`,
    );
    const rss = sampleRss(target.pid, 100);
    const cpuBefore = cpuSeconds(target.pid) ?? 0;
    const day = await runDay({ url: target.url, plan });
    const cpuAfter = cpuSeconds(target.pid) ?? cpuBefore;
    const peak = Math.max(rss.stop(), readMemory(target.pid)?.rssMb ?? 0);
    return stepResult(people, entries, statSync(dataset.file).size, day, {
      cpuSeconds: cpuAfter - cpuBefore,
      rssMb: peak,
    });
  } finally {
    await target.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** Seconds a step of N will take: its day, its data set if not cached yet, a start. */
const estimateMs = (people: number) =>
  dayLengthMs(CLOCK) + (entriesFor(people) / ENTRIES_PER_SECOND) * 1000 + 8_000;

async function main(): Promise<void> {
  const started = performance.now();
  const loadStart = loadAverageNow();
  if (!opts['no-build'] && !QUICK) buildExecutable(say);
  const steps: StepResult[] = [];
  const run = async (people: number) => {
    const r = await step(people);
    steps.push(r);
    say(stepLine(r));
    for (const e of r.errorSamples.slice(0, 3)) say(`  error: ${e}`);
    return r;
  };
  const left = () => BUDGET_MS - (performance.now() - started);

  if (QUICK) {
    await run(10);
  } else if (opts.people) {
    for (const p of opts.people.split(',').map(Number)) await run(p);
  } else {
    await searchCapacity({
      start: Number(opts.start),
      precision: PRECISION,
      tryPeople: async (people) => (await run(people)).passed,
      fits: (people) => {
        if (estimateMs(people) <= left()) return true;
        say(
          `time budget: N=${people} would not fit in the ${(left() / 60_000).toFixed(1)} min left`,
        );
        return false;
      },
    });
  }
  const passed = steps.filter((s) => s.passed).map((s) => s.people);
  const loadEnd = loadAverageNow();
  const report: DayReport = {
    steps,
    capacity: passed.length > 0 ? Math.max(...passed) : undefined,
    settings:
      `wave ×${CLOCK.waveSpeed} (8:55–9:15 in ${((20 / CLOCK.waveSpeed) * 60).toFixed(0)} s), ` +
      `rest of the day ×${CLOCK.daySpeed} (9:15–17:30 in ${((495 / CLOCK.daySpeed) * 60).toFixed(0)} s); ` +
      `data: the bench set's shape for N people (4 projects per person, ${TIMES_PER_USER_DAY.toFixed(1)} entries per person and day) over ${HISTORY_DAYS} days; ` +
      `scripts sign in with: ${SCRIPT_AUTH}`,
    loadAverage: { start: loadStart, end: loadEnd },
    // At the end the load average counts this run itself: only the start tells other work.
    draft: opts.draft || machineBusy(loadStart),
    quick: QUICK,
    waveSpeed: CLOCK.waveSpeed,
    minutes: (performance.now() - started) / 60_000,
  };
  const section = markdownSection(report);
  process.stdout.write(`${section}\n`);
  if (OUT) {
    writeSection(OUT, section);
    say(`wrote ${OUT}`);
  }
  // The README's Scale paragraph states the measured N: only a default run on a quiet
  // machine replaces it (a development run leaves what is there).
  if (OUT === DEFAULT_OUT && !report.draft && report.capacity !== undefined) {
    replaceBetween(
      join(ROOT, 'README.md'),
      '<!-- bench:day N -->',
      '<!-- /bench:day N -->',
      report.capacity.toLocaleString('en-US'),
    );
    // The same sign-in rate over a real ten minutes (the wave's speed-up times N).
    replaceBetween(
      join(ROOT, 'README.md'),
      '<!-- bench:day 20N -->',
      '<!-- /bench:day 20N -->',
      (Math.round((report.capacity * CLOCK.waveSpeed) / 100) * 100).toLocaleString('en-US'),
    );
    say('wrote the measured N into README.md');
  }
}

main().catch((err) => {
  say(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
