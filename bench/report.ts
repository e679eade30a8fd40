// The results of one run: a table on stdout and docs/benchmarks.md, each figure beside
// its SPEC §9 target and the ceilings measured in the same run.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { explain } from './analysis';
import type { InProcess } from './ceiling-sqlite';
import type { StreamResult } from './client';
import {
  DRY_RUN_ROWS_PER_S,
  IMPORT_ROWS_PER_S,
  IMPORT_RSS_LIMIT_MB,
  type ImportRunResult,
} from './import';
import type { LoadResult } from './load';
import { type MetricsOverhead, metricsOverheadLine } from './metrics-overhead';
import type { ProfileSummary } from './profile';
import { median, type RenameResult } from './rename';
import { ROOT } from './target';

export type RowId =
  | 'time'
  | 'project'
  | 'month'
  | 'create'
  | 'update'
  | 'storm'
  | 'whole'
  | 'report-month'
  | 'report-year'
  | 'csv'
  | 'rename'
  | 'import-dry'
  | 'import';

export interface Row {
  id: RowId;
  ours?: LoadResult;
  /** Largest RSS of the server while the row ran, MB. */
  rssMb: number;
  ceilingHttp?: LoadResult;
  inProcess?: InProcess;
  /** The logins that ran beside the reads (storm row). */
  logins?: LoadResult;
  /** The whole-list row. */
  stream?: StreamResult;
  rssBeforeMb?: number;
  /** The rename row (bench/rename.ts). */
  rename?: RenameResult;
  /** The import rows (bench/import.ts): `admin import-from toggl` of a generated file. */
  importRun?: ImportRunResult;
}

export interface BenchReport {
  times: number;
  seconds: number;
  warmup: number;
  connections: number;
  target: string;
  startupMs: number;
  executableBytes: number | undefined;
  datasetSeconds: number;
  dbBytes: number;
  /** Pages of the plain tables and their indexes, and of the derived tables (dataset.ts). */
  dbSizes?: { plain: number; derived: number };
  peakHwmMb: number;
  /** RSS right after the first /health answer. */
  idleRssMb: number;
  /** Reference process start-ups on this machine in this run, ms (median of 3). */
  processStartMs?: { node: number; version: number };
  /** 1-minute load average of the machine before the server started and at the end. */
  loadAverage: { start: number; end: number };
  rows: Row[];
  profile?: ProfileSummary;
  /** The `metrics` row: the same GET with --metrics off and on. */
  metrics?: MetricsOverhead;
}

export const ROW_NAMES: Record<RowId, string> = {
  time: '1a. GET /v0/times/:uuid',
  project: '1b. GET /v0/projects/:slug',
  month: '2. GET /v0/times?user&start&end (a month)',
  create: '3. POST /v0/times (create)',
  update: '4. POST /v0/times/:uuid (update)',
  storm: '5. GET /v0/projects/:slug during 20 logins',
  whole: '6. GET /v0/times (whole list, no limit)',
  'report-month': "7. GET /v0/reports (one user's month by day)",
  'report-year': '8. GET /v0/reports (a year of everyone, by project and month)',
  csv: '9. GET /v0/times as CSV (whole list, no limit)',
  rename: '10. Slug renames of a 100,000-entry project and an activity, during month lists',
  'import-dry': '11a. admin import-from toggl --dry-run (generated Toggl CSV)',
  import: '11b. admin import-from toggl (generated Toggl CSV)',
};

export const RSS_LIMIT_MB = 150;

/** Issue 30's targets for the rename row. */
export const RENAME_LIMIT_MS = 50;
/** "p99 unchanged" on a shared machine: at most this many times the p99 without renames. */
export const MONTH_P99_UNCHANGED = 1.25;
export const HEALTH_EXTRA_LIMIT_MS = 20;

/** The rename row's figures: every rename, and the month and /health alone and during. */
export function renameFigures(r: RenameResult) {
  const all = [...r.projectMs, ...r.activityMs];
  return {
    medianMs: median(all),
    maxMs: Math.max(...all),
    p99Ratio: r.during.month.p99 / r.alone.month.p99,
    healthExtraMs: r.during.health.max - r.alone.health.max,
  };
}

/** One line under the printed table, and the figures of the row's paragraph in the report. */
export function renameLine(r: RenameResult): string {
  const m = (xs: number[]) => `median ${fmt(median(xs))} ms, max ${fmt(Math.max(...xs))} ms`;
  const month = (p: RenameResult['alone']) =>
    `${fmt(p.month.rps)} req/s, p50 ${fmt(p.month.p50)} ms, p99 ${fmt(p.month.p99)} ms, max ${fmt(p.month.max)} ms`;
  const health = (p: RenameResult['alone']) =>
    `/health max ${fmt(p.health.max)} ms (p50 ${fmt(p.health.p50)}, ${p.health.polls} polls)`;
  return (
    `renames (project of ${r.big.entries.toLocaleString('en-US')} entries, activity of ` +
    `${r.big.activityEntries.toLocaleString('en-US')}): ${r.projectMs.length} project renames ` +
    `${m(r.projectMs)} (in the server ${m(r.projectServerMs)}); ${r.activityMs.length} ` +
    `activity renames ${m(r.activityMs)} (in the server ${m(r.activityServerMs)}). ` +
    `Month lists alone (before and after the renames): ${month(r.alone)}, ${health(r.alone)}; during the renames: ` +
    `${month(r.during)}, ${health(r.during)}`
  );
}

/** A target of the form "p99 < N ms". */
function p99Under(limitMs: number, p99 = Number.POSITIVE_INFINITY, target: string) {
  return {
    target,
    met: p99 < limitMs,
    miss: `p99 ${fmt(p99)} ms is ${fmt(p99 - limitMs)} ms over ${limitMs} ms`,
  };
}

/** A target of the form "p50 < N ms" (issue 15's report rows). */
function p50Under(limitMs: number, p50 = Number.POSITIVE_INFINITY) {
  return {
    target: `p50 < ${limitMs} ms`,
    met: p50 < limitMs,
    miss: `p50 ${fmt(p50)} ms is ${fmt(p50 - limitMs)} ms over ${limitMs} ms`,
  };
}

/** Each row's SPEC §9 target and whether it is met (undefined: no target). */
export function verdict(row: Row): { target: string; met: boolean | undefined; miss?: string } {
  const o = row.ours;
  const ratio = o && row.ceilingHttp ? o.rps / row.ceilingHttp.rps : 0;
  switch (row.id) {
    case 'time':
    case 'project': {
      const p99 = o?.p99 ?? Number.POSITIVE_INFINITY;
      const misses = [
        p99 >= 5 ? `p99 ${fmt(p99)} ms is ${fmt(p99 - 5)} ms over 5 ms` : '',
        ratio < 0.3 ? `${pct(ratio)} of bare node:http, ${pct(0.3 - ratio)} short of 30 %` : '',
      ].filter(Boolean);
      return {
        target: 'p99 < 5 ms, ≥ 30 % of bare http',
        met: misses.length === 0,
        miss: misses.join('; '),
      };
    }
    case 'month':
      return p99Under(15, o?.p99, 'p99 < 15 ms');
    case 'create': {
      const rps = o?.rps ?? 0;
      return {
        target: '≥ 2,000 /s',
        met: rps >= 2000,
        miss: `${fmt(rps)} /s is ${pct(1 - rps / 2000)} short of 2,000 /s`,
      };
    }
    case 'update':
      return { target: '— (none)', met: undefined };
    case 'storm':
      return p99Under(50, o?.p99, 'reads p99 < 50 ms');
    case 'report-month':
      return p50Under(10, o?.p50);
    case 'report-year':
      return p50Under(300, o?.p50);
    case 'rename': {
      const r = row.rename;
      if (!r) return { target: '', met: false, miss: 'not measured' };
      const f = renameFigures(r);
      const misses = [
        f.maxMs >= RENAME_LIMIT_MS ? `a rename took ${fmt(f.maxMs)} ms` : '',
        f.p99Ratio > MONTH_P99_UNCHANGED
          ? `month p99 ${fmt(r.alone.month.p99)} → ${fmt(r.during.month.p99)} ms (${fmt(f.p99Ratio)} ×)`
          : '',
        f.healthExtraMs >= HEALTH_EXTRA_LIMIT_MS
          ? `/health max ${fmt(r.alone.health.max)} → ${fmt(r.during.health.max)} ms`
          : '',
      ].filter(Boolean);
      return {
        target: `rename < ${RENAME_LIMIT_MS} ms, month p99 unchanged (≤ ${MONTH_P99_UNCHANGED} ×), /health max < ${HEALTH_EXTRA_LIMIT_MS} ms extra`,
        met: misses.length === 0,
        miss: misses.join('; '),
      };
    }
    case 'import-dry':
    case 'import': {
      const r = row.importRun;
      if (!r) return { target: '', met: false, miss: 'not measured' };
      const floor = r.dryRun ? DRY_RUN_ROWS_PER_S : IMPORT_ROWS_PER_S;
      const misses = [
        r.exitCode !== 0 ? `exit code ${r.exitCode}` : '',
        r.rowsPerSecond < floor ? `${fmt(r.rowsPerSecond)} rows/s` : '',
        !r.dryRun && r.peakRssMb >= IMPORT_RSS_LIMIT_MB ? `RSS ${fmt(r.peakRssMb)} MB` : '',
      ].filter(Boolean);
      return {
        target: r.dryRun
          ? `≥ ${fmt(floor)} rows/s`
          : `≥ ${fmt(floor)} rows/s, RSS < ${IMPORT_RSS_LIMIT_MB} MB`,
        met: misses.length === 0,
        miss: misses.join('; '),
      };
    }
    case 'whole':
    case 'csv': {
      const s = row.stream;
      const first = s?.firstByteMs ?? Number.POSITIVE_INFINITY;
      const misses = [
        first >= 1000 ? `first byte after ${fmt(first)} ms` : '',
        row.rssMb >= RSS_LIMIT_MB ? `RSS ${fmt(row.rssMb)} MB` : '',
      ].filter(Boolean);
      return {
        target: `first byte < 1 s, RSS < ${RSS_LIMIT_MB} MB`,
        met: misses.length === 0,
        miss: misses.join('; '),
      };
    }
  }
}

export function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(2);
}
export const pct = (r: number) => `${Math.round(r * 100)} %`;

interface Cells {
  row: string;
  rps: string;
  p50: string;
  p99: string;
  errors: string;
  rss: string;
  bare: string;
  bareRatio: string;
  inproc: string;
  inprocRatio: string;
  target: string;
  verdict: string;
}

function cells(row: Row): Cells {
  if (row.rename) return renameCells(row, row.rename);
  if (row.importRun) return importCells(row, row.importRun);
  const o = row.ours;
  const v = verdict(row);
  const s = row.stream;
  const ip = row.inProcess;
  return {
    row: ROW_NAMES[row.id],
    rps: o ? fmt(o.rps) : s ? `${fmt(s.totalCount / (s.totalMs / 1000))} rows/s` : '',
    p50: o ? fmt(o.p50) : s ? `first byte ${fmt(s.firstByteMs)}` : '',
    p99: o ? fmt(o.p99) : s ? `total ${fmt(s.totalMs)}` : '',
    errors: o
      ? String(o.errors + (row.logins?.errors ?? 0))
      : s
        ? s.status === 200
          ? '0'
          : `HTTP ${s.status}`
        : '',
    rss: fmt(row.rssMb),
    bare: row.ceilingHttp ? fmt(row.ceilingHttp.rps) : '',
    bareRatio: o && row.ceilingHttp ? pct(o.rps / row.ceilingHttp.rps) : '',
    inproc: ip ? fmt(ip.opsPerSec) : '',
    inprocRatio: ip
      ? pct((o ? o.rps : s ? s.totalCount / (s.totalMs / 1000) : 0) / ip.opsPerSec)
      : '',
    target: v.target,
    verdict: v.met === undefined ? '' : v.met ? 'met' : 'MISSED',
  };
}

/**
 * The rename row in the table's columns: the month lists' rate during the renames and
 * their p99 alone → during, the renames' median and max; renameLine has every figure.
 */
function renameCells(row: Row, r: RenameResult): Cells {
  const v = verdict(row);
  const f = renameFigures(r);
  const errors = r.errors + r.alone.month.errors + r.during.month.errors;
  return {
    row: ROW_NAMES[row.id],
    rps: `months ${fmt(r.during.month.rps)}, p99 ${fmt(r.alone.month.p99)} → ${fmt(r.during.month.p99)}`,
    p50: `renames ${fmt(f.medianMs)}`,
    p99: `renames max ${fmt(f.maxMs)}`,
    errors: String(errors),
    rss: fmt(row.rssMb),
    bare: '',
    bareRatio: '',
    inproc: '',
    inprocRatio: '',
    target: v.target,
    verdict: v.met === undefined ? '' : v.met ? 'met' : 'MISSED',
  };
}

/** An import row: rows per second and the command's peak RSS (not the server's). */
function importCells(row: Row, r: ImportRunResult): Cells {
  const v = verdict(row);
  return {
    row: ROW_NAMES[row.id],
    rps: `${fmt(r.rowsPerSecond)} rows/s`,
    p50: `${r.rows.toLocaleString('en-US')} rows`,
    p99: `total ${fmt(r.seconds * 1000)}`,
    errors: r.exitCode === 0 ? '0' : `exit ${r.exitCode}`,
    rss: `${fmt(r.peakRssMb)} (command)`,
    bare: '',
    bareRatio: '',
    inproc: '',
    inprocRatio: '',
    target: v.target,
    verdict: v.met === undefined ? '' : v.met ? 'met' : 'MISSED',
  };
}

const HEAD: Cells = {
  row: 'row',
  rps: 'req/s',
  p50: 'p50 ms',
  p99: 'p99 ms',
  errors: 'errors',
  rss: 'server RSS MB',
  bare: 'bare http req/s',
  bareRatio: 'ours/bare',
  inproc: 'in-process ops/s',
  inprocRatio: 'ours/in-process',
  target: 'SPEC §9 target',
  verdict: '',
};

export function printTable(r: BenchReport): void {
  const table = [HEAD, ...r.rows.map(cells)];
  const keys = Object.keys(HEAD) as (keyof Cells)[];
  const width = (k: keyof Cells) => Math.max(...table.map((c) => c[k].length));
  for (const c of table) {
    process.stdout.write(`${keys.map((k) => c[k].padEnd(width(k))).join('  ')}\n`);
  }
  process.stdout.write(
    `start-up to first /health: ${fmt(r.startupMs)} ms (${r.target}); peak server RSS (VmHWM): ${fmt(r.peakHwmMb)} MB\n${
      r.dbSizes
        ? `database: ${fmt(r.dbBytes / 2 ** 20)} MiB, ${(r.dbBytes / r.dbSizes.plain).toFixed(2)}× its plain tables (${fmt(r.dbSizes.plain / 2 ** 20)} MiB)\n`
        : ''
    }`,
  );
  if (r.profile) process.stdout.write(`${profileLines(r.profile).join('\n')}\n`);
  if (r.metrics) process.stdout.write(`${metricsOverheadLine(r.metrics)}\n`);
  const rename = r.rows.find((row) => row.rename)?.rename;
  if (rename) process.stdout.write(`${renameLine(rename)}\n`);
}

/** The profile as markdown lists: busy time by category, then the hottest functions. */
export function profileLines(p: ProfileSummary): string[] {
  return [
    `Main-thread CPU profile of the server over the whole run (${fmt(p.totalMs / 1000)} s sampled), share of busy time.`,
    'V8 counts time inside native calls (a SQLite statement step, `JSON.stringify`) as self',
    'time of the JS function that makes them, so `streamList` below is mostly SQLite',
    'stepping the list query, and `findToView` / `findActor` are their statements.',
    '',
    ...p.categories.map((c) => `- ${c.name}: ${pct(c.share)} (${fmt(c.ms)} ms)`),
    '',
    'Hottest functions (self time):',
    '',
    ...p.top.map((f) => `- \`${f.name}\`: ${pct(f.share)}`),
  ];
}

/** Was the machine busy with other work before we started? */
const busy = (r: BenchReport) => r.loadAverage.start > cpus().length * 0.5;

/** The 1-minute load average, now. */
export const loadAverageNow = () => loadavg()[0] ?? 0;

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, stdio: 'pipe' }).toString().trim();
  } catch {
    return 'unknown';
  }
}

export function writeMarkdown(r: BenchReport, file: string): void {
  const keys = Object.keys(HEAD) as (keyof Cells)[];
  const line = (c: Cells) => `| ${keys.map((k) => c[k]).join(' | ')} |`;
  const cpu = cpus();
  const dirty =
    git('status', '--porcelain', '--untracked-files=no') === ''
      ? ''
      : ' (with uncommitted changes)';
  const md = [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (bench/run.ts); SPEC §9 lists the targets. Re-run it on your',
    'own machine: the figures below are only as good as the machine they came from.',
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Commit: ${git('rev-parse', '--short', 'HEAD')}${dirty}`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${fmt(totalmem() / 2 ** 30)} GiB memory, ${process.platform} ${process.arch}`,
    `- Node: ${process.version}; server under test: the ${r.target} (${r.executableBytes ? `dist/timetrack, ${fmt(r.executableBytes / 2 ** 20)} MiB` : 'no executable built'})`,
    `- Data set: ${r.times.toLocaleString('en-US')} time entries (bench/generate.ts, seeded), database ${fmt(r.dbBytes / 2 ** 20)} MiB, generated in ${fmt(r.datasetSeconds)} s`,
    ...(r.dbSizes
      ? [
          `- Database size: ${fmt(r.dbBytes / 2 ** 20)} MiB for ${fmt(r.dbSizes.plain / 2 ** 20)} MiB of plain tables and their indexes, ${fmt(r.dbSizes.derived / 2 ** 20)} MiB derived (${(r.dbBytes / r.dbSizes.plain).toFixed(2)}× the plain tables; target ≤ 1.5×: ${r.dbBytes <= 1.5 * r.dbSizes.plain ? 'met' : 'MISSED'})`,
        ]
      : []),
    `- Machine load (1-minute load average): ${fmt(r.loadAverage.start)} before the server started, ${fmt(r.loadAverage.end)} at the end${busy(r) ? ` — **other work was running on this ${cpu.length}-core machine during the run, so latencies and rates are pessimistic and noisy**` : ''}`,
    `- Load: autocannon in a separate process over 127.0.0.1, ${r.connections} connections, ${fmt(r.warmup)} s warm-up then ${fmt(r.seconds)} s measured per row, taken in 3 turns alternating with the bare server so both see the same machine; latencies from every response`,
    `- Start-up of the ${r.target} to its first \`/health\` answer on this database (median of 3 starts): **${fmt(r.startupMs)} ms** (target < 500 ms: ${r.startupMs < 500 ? 'met' : `MISSED by ${fmt(r.startupMs - 500)} ms`})`,
    `- Peak server RSS over the whole run (VmHWM): **${fmt(r.peakHwmMb)} MB** (target < ${RSS_LIMIT_MB} MB: ${r.peakHwmMb < RSS_LIMIT_MB ? 'met' : `MISSED by ${fmt(r.peakHwmMb - RSS_LIMIT_MB)} MB`})`,
    '',
    '"bare http" is a plain `node:http` server in its own process answering the very bytes',
    'timetrack answered (headers and body, held in memory), loaded with the same settings in',
    'the same run. "in-process" runs the same prepared statements (and the same row → JSON',
    'mapping) in a loop inside one process, without HTTP: the SQLite ceiling.',
    '',
    line(HEAD),
    line(Object.fromEntries(keys.map((k) => [k, '---'])) as unknown as Cells),
    ...r.rows.map((row) => line(cells(row))),
    '',
    ...(r.metrics ? [`- ${metricsOverheadLine(r.metrics)}`, ''] : []),
    ...explain(r),
    '',
  ].join('\n');
  writeFileSync(file, md);
}
