// npm run bench — SPEC §9 measured: builds timetrack, starts the built executable on a
// copy of a generated database, drives it over loopback from separate processes
// (autocannon), and measures the ceilings in the same run: a bare node:http server
// answering the same bytes from memory, and the same SQLite statements in-process.
// Writes docs/benchmarks.md (full-size runs) and prints the table.
//
//   npm run bench                                  # 1,000,000 entries, 10 s per row
//   npm run bench -- --times 10000 --duration 2    # smoke run: fails on any error
//   options: --no-build --warmup S --connections N --seed N --out FILE
//            --profile (CPU profile of the server, run from the sources)
//            --exe FILE (another executable, e.g. an older build for before/after)
//            --rows time,project,month,create,update,storm,whole (a subset)
//            --node-options "..." (NODE_OPTIONS of the server, e.g. V8 heap flags)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CannedResponse, type CeilingRoutes, startCeiling } from './ceiling-http';
import { measureInProcess } from './ceiling-sqlite';
import { capture, login, streamWhole } from './client';
import { DATA_DIR, ensureDataset } from './dataset';
import { type LoadRequest, type LoadResult, runLoad } from './load';
import { summarizeProfiles } from './profile';
import {
  type BenchReport,
  loadAverageNow,
  printTable,
  type Row,
  type RowId,
  writeMarkdown,
} from './report';
import { readMemory, sampleRss } from './rss';
import { buildScenarios } from './scenarios';
import { ROOT, startTarget, targetCommand } from './target';

const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

const { values: opts } = parseArgs({
  options: {
    times: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '9' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    profile: { type: 'boolean', default: false },
    exe: { type: 'string' },
    rows: { type: 'string' },
    'node-options': { type: 'string' },
  },
});
const TIMES = Number(opts.times);
const SECONDS = Number(opts.duration);
const WARMUP =
  opts.warmup === undefined ? Math.min(3, Math.max(1, SECONDS / 3)) : Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
/** Only a full-size run replaces the published figures. */
const OUT = opts.out ?? (TIMES >= 1_000_000 ? join(ROOT, 'docs/benchmarks.md') : undefined);
const SECRET = 'benchmark-secret-key-0123456789-abcdefghijklmnop';

async function main(): Promise<void> {
  const loadAtStart = loadAverageNow();
  if (!opts['no-build']) build();
  const dataset = ensureDataset(TIMES, Number(opts.seed), say);
  const runDir = join(DATA_DIR, 'run');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const db = join(runDir, 'timetrack.db');
  copyFileSync(dataset.file, db);

  const profileDir = join(runDir, 'profile');
  const target = await startTarget({
    db,
    logFile: join(runDir, 'server.log'),
    env: {
      TIMETRACK_SECRET_KEY: SECRET,
      LOG_LEVEL: 'info',
      ...(opts['node-options'] ? { NODE_OPTIONS: opts['node-options'] } : {}),
    },
    profileDir: opts.profile ? profileDir : undefined,
    executable: opts.exe,
  });
  say(
    `${target.kind} answered /health after ${target.startupMs.toFixed(0)} ms (pid ${target.pid})`,
  );

  const s = dataset.sidecar;
  const tokens: Record<string, string> = {};
  for (const user of [s.admin, ...s.users])
    tokens[user] = await login(target.url, user, s.password);
  const sc = buildScenarios(s, tokens);

  say('capturing responses for the ceiling server ...');
  const routes: CeilingRoutes = {
    get: await captureAll(target.url, [...sc.timeReads, ...sc.projectReads, ...sc.monthReads]),
    post: { '/v0/times': await captureOne(target.url, sc.creates[0] as LoadRequest) },
    postOther: await captureOne(target.url, sc.updates[0] as LoadRequest),
  };
  const ceiling = await startCeiling(routes);

  const rows: Row[] = [];
  const wanted = (id: RowId) => !opts.rows || opts.rows.split(',').includes(id);
  const load = (url: string, method: 'GET' | 'POST', requests: LoadRequest[]) =>
    runLoad({
      url,
      method,
      requests,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
    });
  const loadRow = async (id: RowId, method: 'GET' | 'POST', requests: LoadRequest[]) => {
    if (!wanted(id)) return;
    say(`row ${id}: ${method} x ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${SECONDS} s`);
    const rss = sampleRss(target.pid);
    const ours = await load(target.url, method, requests);
    const rssMb = rss.stop();
    rows.push({ id, ours, rssMb, ceilingHttp: await load(ceiling.url, method, requests) });
  };
  await loadRow('time', 'GET', sc.timeReads);
  await loadRow('project', 'GET', sc.projectReads);
  await loadRow('month', 'GET', sc.monthReads);
  await loadRow('create', 'POST', sc.creates);
  await loadRow('update', 'POST', sc.updates);

  if (wanted('storm')) {
    say('row storm: project reads while 20 clients log in');
    const rss = sampleRss(target.pid);
    const [storm, logins] = await Promise.all([
      load(target.url, 'GET', sc.projectReads),
      runLoad({
        url: target.url,
        method: 'POST',
        requests: sc.logins,
        connections: 20,
        warmupSeconds: WARMUP,
        seconds: SECONDS,
      }),
    ]);
    rows.push({ id: 'storm', ours: storm, rssMb: rss.stop(), logins });
  }

  if (wanted('whole')) {
    say('row whole: the whole list, unpaged');
    const rssBeforeMb = readMemory(target.pid)?.rssMb ?? 0;
    const rss = sampleRss(target.pid, 20);
    const stream = await streamWhole(`${target.url}${sc.wholeList}`);
    rows.push({ id: 'whole', stream, rssMb: rss.stop(), rssBeforeMb });
  }

  const peak = readMemory(target.pid);
  ceiling.stop();
  await target.stop();

  say('ceilings: the same SQLite statements in-process ...');
  const inProcess = measureInProcess(db, s, sc, Math.min(SECONDS, 4));
  for (const row of rows) row.inProcess = inProcess[row.id];

  const report: BenchReport = {
    times: TIMES,
    seconds: SECONDS,
    warmup: WARMUP,
    connections: CONNECTIONS,
    target: target.kind,
    startupMs: target.startupMs,
    executableBytes: exeSize(),
    datasetSeconds: s.seconds,
    dbBytes: statSync(dataset.file).size,
    peakHwmMb: peak?.hwmMb ?? 0,
    processStartMs: processStarts(),
    loadAverage: { start: loadAtStart, end: loadAverageNow() },
    rows,
    profile: opts.profile ? summarizeProfiles(profileDir) : undefined,
  };
  printTable(report);
  if (OUT) {
    writeMarkdown(report, OUT);
    say(`wrote ${OUT}`);
  }
  const errors = rows.reduce((n, r) => n + (r.ours?.errors ?? 0) + (r.logins?.errors ?? 0), 0);
  const whole = rows.find((r) => r.id === 'whole')?.stream;
  const streamFailed = whole !== undefined && (whole.status !== 200 || whole.totalCount < 0);
  if (errors > 0 || streamFailed) {
    say(`FAILED: ${errors} errors${streamFailed ? `, whole list answered ${whole?.status}` : ''}`);
    process.exit(1);
  }
}

function build(): void {
  say('npm run build ...');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    say(`build failed; benchmarking the ${targetCommand().kind} that is there`);
  }
}

/** How long a bare node and `timetrack --version` take to start here (median of 3), ms. */
function processStarts(): { node: number; version: number } | undefined {
  const cmd = targetCommand();
  const median = (command: string, args: string[]) => {
    const runs = [0, 1, 2].map(() => {
      const started = performance.now();
      execFileSync(command, args, { stdio: 'ignore' });
      return performance.now() - started;
    });
    return runs.sort((a, b) => a - b)[1] as number;
  };
  try {
    return {
      node: median(process.execPath, ['-e', '0']),
      version: median(cmd.command, [...cmd.args, '--version']),
    };
  } catch {
    return undefined;
  }
}

function exeSize(): number | undefined {
  try {
    return statSync(join(ROOT, 'dist/timetrack')).size;
  } catch {
    return undefined;
  }
}

async function captureAll(
  url: string,
  requests: LoadRequest[],
): Promise<Record<string, CannedResponse>> {
  const out: Record<string, CannedResponse> = {};
  const queue = [...requests];
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) out[r.path] = await capture(url, r.path);
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const failed = Object.entries(out).filter(([, r]) => r.status !== 200);
  if (failed.length > 0)
    throw new Error(
      `${failed.length} reads failed, e.g. ${failed[0]?.[0]}: ${failed[0]?.[1].body}`,
    );
  return out;
}

async function captureOne(url: string, r: LoadRequest): Promise<CannedResponse> {
  const res = await capture(url, r.path, { method: 'POST', body: r.body });
  if (res.status !== 200) throw new Error(`POST ${r.path} failed: ${res.body}`);
  return res;
}

main().catch((err) => {
  say(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});

export type { LoadResult };
