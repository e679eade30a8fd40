// The working day's figures: per N, every kind of request (p50/p99), errors, the
// server's CPU and RSS; printed, and written into docs/capacity.md between its markers
// (the page's other text is left as it is).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import type { Kind, Tally } from './day-people';
import type { DayResult } from './day-play';
import { ROOT } from './target';

/** Every p99 must stay under this, with no failure, for N to pass. */
export const P99_LIMIT_MS = 200;

export const KINDS: { kind: Kind; what: string }[] = [
  { kind: 'page', what: 'GET / (the app page)' },
  { kind: 'info', what: 'GET /v0/info (sign-in form)' },
  { kind: 'login', what: 'POST /v0/login (bcrypt)' },
  { kind: 'projects', what: 'GET /v0/projects' },
  { kind: 'activities', what: 'GET /v0/activities' },
  { kind: 'me', what: 'GET /v0/users/:me' },
  { kind: 'timer', what: 'GET /v0/timer' },
  { kind: 'week', what: 'GET /v0/times (own week)' },
  { kind: 'create', what: 'POST /v0/times (new cell)' },
  { kind: 'update', what: 'POST /v0/times/:uuid (cell changed)' },
  { kind: 'timer-start', what: 'POST /v0/timer' },
  { kind: 'timer-stop', what: 'POST /v0/timer/stop' },
  { kind: 'users', what: 'GET /v0/users (entries, reports)' },
  { kind: 'entries-count', what: 'GET /v0/times?limit=1 (count)' },
  { kind: 'entries-page', what: 'GET /v0/times (last 50)' },
  { kind: 'report', what: 'GET /v0/reports (month by project)' },
  { kind: 'csv', what: 'GET /v0/times as CSV (month)' },
  { kind: 'script-login', what: 'script: POST /v0/login' },
  { kind: 'script-times', what: "script: GET /v0/times (a day, everyone's)" },
];

export interface KindFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export interface StepResult {
  people: number;
  entries: number;
  dbBytes: number;
  kinds: Partial<Record<Kind, KindFigures>>;
  requests: number;
  errors: number;
  errorSamples: string[];
  /** Server CPU over the day: cores in use on average (CPU seconds / wall seconds). */
  serverCores: number;
  serverRssMb: number;
  generatorCores: number;
  lateP99: number;
  seconds: number;
  passed: boolean;
  /** Kinds whose p99 reached the limit. */
  slow: Kind[];
}

export function figures(tally: Tally): KindFigures {
  const xs = [...tally.latencies].sort((a, b) => a - b);
  const at = (q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
  return {
    count: xs.length,
    p50: at(0.5),
    p99: at(0.99),
    max: xs.at(-1) ?? 0,
    errors: tally.errors,
  };
}

export function stepResult(
  people: number,
  entries: number,
  dbBytes: number,
  day: DayResult,
  server: { cpuSeconds: number; rssMb: number },
): StepResult {
  const kinds: StepResult['kinds'] = {};
  let requests = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  for (const { kind } of KINDS) {
    const t = day.tallies[kind];
    if (!t) continue;
    const f = figures(t);
    kinds[kind] = f;
    requests += f.count;
    errors += f.errors;
    errorSamples.push(...t.samples.slice(0, 2));
  }
  const slow = KINDS.filter(({ kind }) => (kinds[kind]?.p99 ?? 0) >= P99_LIMIT_MS).map(
    (k) => k.kind,
  );
  return {
    people,
    entries,
    dbBytes,
    kinds,
    requests,
    errors,
    errorSamples,
    serverCores: server.cpuSeconds / day.seconds,
    serverRssMb: server.rssMb,
    generatorCores: day.cpuSeconds / day.seconds,
    lateP99: day.lateP99,
    seconds: day.seconds,
    passed: errors === 0 && slow.length === 0,
    slow,
  };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const n = (x: number) => x.toLocaleString('en-US');

export function slowest(r: StepResult): { kind: Kind; p99: number } {
  let worst: { kind: Kind; p99: number } = { kind: 'page', p99: 0 };
  for (const [kind, f] of Object.entries(r.kinds) as [Kind, KindFigures][])
    if (f.p99 > worst.p99) worst = { kind, p99: f.p99 };
  return worst;
}

export function stepLine(r: StepResult): string {
  const w = slowest(r);
  const login = r.kinds.login;
  return (
    `N=${r.people}: ${n(r.requests)} requests in ${r.seconds.toFixed(0)} s, ${r.errors} errors, ` +
    `slowest p99 ${ms(w.p99)} ms (${w.kind}), login p50/p99 ${ms(login?.p50 ?? 0)}/${ms(login?.p99 ?? 0)} ms, ` +
    `server ${r.serverCores.toFixed(2)} cores, RSS ${r.serverRssMb.toFixed(0)} MB → ${r.passed ? 'pass' : 'FAIL'}`
  );
}

export interface DayReport {
  steps: StepResult[];
  /** Largest N that passed (undefined: none did). */
  capacity: number | undefined;
  settings: string;
  loadAverage: { start: number; end: number };
  /** A development run on a busy machine, or an explicitly marked one. */
  draft: boolean;
  quick: boolean;
  minutes: number;
  waveSpeed: number;
}

export function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, stdio: 'pipe' }).toString().trim();
  } catch {
    return 'unknown';
  }
}

export const loadAverageNow = () => loadavg()[0] ?? 0;
export const machineBusy = (load: number) => load > cpus().length * 0.5;

export function markdownSection(r: DayReport): string {
  const cpu = cpus();
  const steps = [...r.steps].sort((a, b) => a.people - b.people);
  const dirty =
    git('status', '--porcelain', '--untracked-files=no') === ''
      ? ''
      : ' (with uncommitted changes)';
  const firstFail = steps.find((s) => !s.passed);
  const lines = [
    r.draft
      ? '**Development run, machine busy: not the final figures.** (Other work shared the 2 cores; the final run is made on a quiet machine.)'
      : '',
    r.quick ? '**A `--quick` run: a handful of people, not a capacity.**' : '',
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Commit: ${git('rev-parse', '--short', 'HEAD')}${dirty}`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${process.platform} ${process.arch}; Node ${process.version}`,
    `- Machine load (1-minute load average): ${r.loadAverage.start.toFixed(2)} before, ${r.loadAverage.end.toFixed(2)} at the end`,
    `- Settings: ${r.settings}; the whole run took ${r.minutes.toFixed(1)} min`,
    '',
    r.capacity === undefined
      ? `**No N passed** (every p99 < ${P99_LIMIT_MS} ms, no failure).`
      : `**Largest N with every p99 < ${P99_LIMIT_MS} ms and no failure: ${n(r.capacity)} people**${firstFail ? ` (the first to fail: N = ${n(firstFail.people)}, ${failWhy(firstFail)})` : ' (no N tried failed: the search ran out of time first)'}.`,
    '',
    '| N | entries (database) | requests | errors | slowest p99 | login p50 / p99 | server CPU (cores) | server RSS peak | verdict |',
    '|---|---|---|---|---|---|---|---|---|',
    ...steps.map((s) => {
      const w = slowest(s);
      const login = s.kinds.login;
      return `| ${n(s.people)} | ${n(s.entries)} (${(s.dbBytes / 2 ** 20).toFixed(0)} MiB) | ${n(s.requests)} | ${s.errors} | ${ms(w.p99)} ms (${w.kind}) | ${ms(login?.p50 ?? 0)} / ${ms(login?.p99 ?? 0)} ms | ${s.serverCores.toFixed(2)} | ${s.serverRssMb.toFixed(0)} MB | ${s.passed ? 'pass' : 'FAIL'} |`;
    }),
    '',
    'p50 / p99 in ms of every kind of request (count under it), per N:',
    '',
    `| request | ${steps.map((s) => `N = ${n(s.people)}`).join(' | ')} |`,
    `|---|${steps.map(() => '---').join('|')}|`,
    ...KINDS.map(
      ({ kind, what }) =>
        `| ${what} | ${steps
          .map((s) => {
            const f = s.kinds[kind];
            if (!f) return '–';
            const p99 = f.p99 >= P99_LIMIT_MS ? `**${ms(f.p99)}**` : ms(f.p99);
            return `${ms(f.p50)} / ${p99} (${n(f.count)}${f.errors ? `, ${f.errors} errors` : ''})`;
          })
          .join(' | ')} |`,
    ),
    '',
    ...(r.capacity === undefined
      ? []
      : [
          `Back-of-the-envelope from N = ${n(r.capacity)} (${Math.round(BYTES_PER_ENTRY)} bytes per entry, from the bench set's 496 MiB for 1,000,000 entries):`,
          '',
          ...envelope(r.capacity, r.waveSpeed, Math.max(1, cpus().length - 1)),
          '',
        ]),
    `Load generator: ${steps.map((s) => `N = ${s.people}: ${s.generatorCores.toFixed(2)} cores, actions late p99 ${ms(s.lateP99)} ms`).join('; ')}.`,
  ];
  return lines
    .filter((l, i) => !(l === '' && lines[i - 1] === ''))
    .join('\n')
    .trim();
}

/** The bench set (docs/benchmarks.md): 496 MiB for 1,000,000 entries, indexes and derived rows included. */
const BYTES_PER_ENTRY = (496 * 2 ** 20) / 1_000_000;
/** Entries per person and year: the bench set's (18.2 a day, every day) and a lighter 5 per working day. */
const BENCH_ENTRIES_PER_YEAR = 1_000_000 / 50 / 3;
const LIGHT_ENTRIES_PER_YEAR = 5 * 230;
/**
 * The back-of-the-envelope of docs/capacity.md for N, 10 N and 100 N people whose wave
 * takes a real ten minutes: database size per year, and the bcrypt workers their
 * sign-ins need, scaled from the measured wave (N people at ×`waveSpeed` on `workers`
 * workers: a real wave of k N people signs in k / waveSpeed times as fast).
 */
export function envelope(people: number, waveSpeed: number, workers: number): string[] {
  const mib = (b: number) =>
    b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(1)} GiB` : `${(b / 2 ** 20).toFixed(0)} MiB`;
  const rows = [1, 10, 100].map((k) => {
    const p = people * k;
    const wave = (0.85 * p) / 600;
    const need = Math.max(1, Math.ceil((k / waveSpeed) * workers));
    return `| ${k === 1 ? 'N' : `${k} N`} = ${n(p)} | ${mib(p * BENCH_ENTRIES_PER_YEAR * BYTES_PER_ENTRY)} | ${mib(p * LIGHT_ENTRIES_PER_YEAR * BYTES_PER_ENTRY)} | ${wave.toFixed(1)} (×${(k / waveSpeed).toFixed(2)} the measured wave) | ${need} (${need + 1} cores) | ${n(4 * p)} |`;
  });
  return [
    '| people | database per year (bench shape: 6,667 entries a person) | per year at 5 entries a working day | sign-ins/s in a real 10-minute wave (85 %) | bcrypt workers for it | projects every sign-in lists (bench shape) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}

function failWhy(s: StepResult): string {
  const parts = s.slow.map((k) => `${k} p99 ${ms(s.kinds[k]?.p99 ?? 0)} ms`);
  if (s.errors > 0) parts.push(`${s.errors} errors, e.g. ${s.errorSamples[0] ?? '?'}`);
  return parts.join(', ');
}

const BEGIN = '<!-- bench:day begin (written by npm run bench:day) -->';
const END = '<!-- bench:day end -->';

/** Replaces the text between the markers of `file` (appends the markers if missing). */
export function writeSection(file: string, section: string, begin = BEGIN, end = END): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  const block = `${begin}\n${section}\n${end}`;
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}\n${block}\n`;
  writeFileSync(file, next);
}

/** Replaces the text between two markers on one line of `file` (nothing if they are missing). */
export function replaceBetween(file: string, begin: string, end: string, text: string): void {
  const old = readFileSync(file, 'utf8');
  const from = old.indexOf(begin);
  const to = old.indexOf(end, from);
  if (from < 0 || to < 0) return;
  writeFileSync(file, `${old.slice(0, from + begin.length)}${text}${old.slice(to)}`);
}
