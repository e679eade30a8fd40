// npm run bench — SPEC §9 measured: builds timetrack, starts the built executable on a
// copy of a generated database, drives it over loopback from separate processes
// (autocannon), and measures the ceilings in the same run: a bare node:http server
// answering the same bytes from memory, and the same SQLite statements in-process.
// Writes docs/benchmarks.md (full-size runs) and prints the table.
//
//   npm run bench                                  # 1,000,000 entries, 15 s per row
//   npm run bench -- --times 10000 --duration 2    # smoke run: fails on any error
//   options: --no-build --warmup S --connections N --seed N --out FILE
//            --profile (CPU profile of the server, run from the sources)
//            --exe FILE (another executable, e.g. an older build for before/after)
//            --rows time,project,month,create,update,storm,whole,report-month,report-year,csv,metrics,rename,import
//            (a subset; rename runs a server of its own on a copy with one project made big;
//            import runs `admin import-from toggl` on a copy, --import-rows N rows, 1,000,000)
//            --server-env KEY=VALUE (repeatable; e.g. NODE_OPTIONS=--max-semi-space-size=2)
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CeilingRoutes, startCeiling } from './ceiling-http';
import { type InProcess, openInProcess, rate } from './ceiling-sqlite';
import { captureGets, capturePost, login, streamWhole } from './client';
import { DATA_DIR, databaseSizes, ensureDataset } from './dataset';
import { measureImport, writeTogglCsv } from './import';
import { type LoadRequest, type RawLoad, runLoad, runRawLoad, summarize } from './load';
import { type MetricsOverhead, measureMetricsOverhead } from './metrics-overhead';
import { summarizeProfiles } from './profile';
import { makeBigProject, measureRenames, RENAMES } from './rename';
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
import { buildExecutable, executableSize, processStarts, ROOT, startTarget } from './target';

const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

const { values: opts } = parseArgs({
  options: {
    times: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '10' },
    seed: { type: 'string', default: '9' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    profile: { type: 'boolean', default: false },
    exe: { type: 'string' },
    rows: { type: 'string' },
    'server-env': { type: 'string', multiple: true },
    'import-rows': { type: 'string', default: '1000000' },
  },
});
const TIMES = Number(opts.times);
const SECONDS = Number(opts.duration);
const WARMUP =
  opts.warmup === undefined ? Math.min(3, Math.max(1, SECONDS / 3)) : Number(opts.warmup);
const CONNECTIONS = Number(opts.connections);
/** Turns of timetrack and the bare server within each row's measured time. */
const ROUNDS = 3;
/** Only a full run (every row, full size, the built executable) replaces the published figures. */
const FULL = TIMES >= 1_000_000 && !opts.rows && !opts.exe && !opts.profile && !opts['server-env'];
const OUT = opts.out ?? (FULL ? join(ROOT, 'docs/benchmarks.md') : undefined);
const SECRET = 'benchmark-secret-key-0123456789-abcdefghijklmnop';

const wantedRow = (id: RowId) => !opts.rows || opts.rows.split(',').includes(id);

async function main(): Promise<void> {
  const loadAtStart = loadAverageNow();
  if (!opts['no-build']) buildExecutable(say);
  const dataset = ensureDataset(TIMES, Number(opts.seed), say);
  const runDir = join(DATA_DIR, 'run');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const db = join(runDir, 'timetrack.db');
  copyFileSync(dataset.file, db);

  const profileDir = join(runDir, 'profile');
  const start = (
    measured: boolean,
    extraEnv: Record<string, string> = {},
    dbFile = db,
    logFile = 'server.log',
  ) =>
    startTarget({
      db: dbFile,
      logFile: join(runDir, logFile),
      env: {
        TIMETRACK_SECRET_KEY: SECRET,
        LOG_LEVEL: 'info',
        ...Object.fromEntries(
          (opts['server-env'] ?? []).map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
        ),
        ...extraEnv,
      },
      profileDir: measured && opts.profile ? profileDir : undefined,
      executable: opts.exe,
    });
  // Start-up is the median of three starts; the third server is the one measured.
  const startups: number[] = [];
  for (let i = 0; i < 2; i++) {
    const t = await start(false);
    startups.push(t.startupMs);
    await t.stop();
  }
  const target = await start(true);
  startups.push(target.startupMs);
  const startupMs = startups.sort((a, b) => a - b)[1] as number;
  say(`${target.kind} answered /health after ${startups.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  const idleRssMb = readMemory(target.pid)?.rssMb ?? 0;
  const s = dataset.sidecar;
  const tokens: Record<string, string> = {};
  for (const user of [s.admin, ...s.users])
    tokens[user] = await login(target.url, user, s.password);
  const sc = buildScenarios(s, tokens);

  say('capturing responses for the ceiling server ...');
  const routes: CeilingRoutes = {
    get: await captureGets(target.url, [
      ...sc.timeReads,
      ...sc.projectReads,
      ...sc.monthReads,
      ...(wantedRow('report-month') ? sc.reportMonths : []),
      ...(wantedRow('report-year') ? sc.reportYears : []),
    ]),
    post: { '/v0/times': await capturePost(target.url, sc.creates[0] as LoadRequest) },
    postOther: await capturePost(target.url, sc.updates[0] as LoadRequest),
  };
  const ceiling = await startCeiling(routes);
  const inProcess = openInProcess(db, s, sc);

  const rows: Row[] = [];
  const wanted = wantedRow;
  const load = (url: string, method: 'GET' | 'POST', requests: LoadRequest[]) =>
    runLoad({
      url,
      method,
      requests,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
    });
  // timetrack and the bare server take turns in ROUNDS slices of the measured time, so
  // that both see the same drift of whatever else the machine is doing.
  const loadRow = async (id: RowId, method: 'GET' | 'POST', requests: LoadRequest[]) => {
    if (!wanted(id)) return;
    say(
      `row ${id}: ${method} x ${CONNECTIONS} connections, ${ROUNDS} × (ours, bare) of ${(SECONDS / ROUNDS).toFixed(1)} s`,
    );
    const ours: RawLoad[] = [];
    const bare: RawLoad[] = [];
    const probe = inProcess.probes[id];
    const direct: number[] = [];
    const directJson: number[] = [];
    const rss = sampleRss(target.pid);
    for (let round = 0; round < ROUNDS; round++) {
      const spec = {
        method,
        requests,
        connections: CONNECTIONS,
        warmupSeconds: round === 0 ? WARMUP : 0,
        seconds: SECONDS / ROUNDS,
      };
      rss.resume();
      ours.push(await runRawLoad({ ...spec, url: target.url }));
      rss.pause();
      bare.push(await runRawLoad({ ...spec, url: ceiling.url }));
      if (probe) direct.push(rate(spec.seconds / 2, probe.op));
      if (probe?.withJson) directJson.push(rate(spec.seconds / 2, probe.withJson));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ip: InProcess | undefined = probe && {
      what: probe.what,
      opsPerSec: mean(direct),
      jsonOpsPerSec: directJson.length > 0 ? mean(directJson) : undefined,
    };
    rows.push({
      id,
      ours: summarize(ours),
      rssMb: rss.stop(),
      ceilingHttp: summarize(bare),
      inProcess: ip,
    });
  };
  await loadRow('time', 'GET', sc.timeReads);
  await loadRow('project', 'GET', sc.projectReads);
  await loadRow('month', 'GET', sc.monthReads);
  await loadRow('create', 'POST', sc.creates);
  await loadRow('update', 'POST', sc.updates);
  await loadRow('report-month', 'GET', sc.reportMonths);
  await loadRow('report-year', 'GET', sc.reportYears);

  let metrics: MetricsOverhead | undefined;
  // Not a row of the table: a line under it (bench/metrics-overhead.ts).
  if (!opts.rows || opts.rows.split(',').includes('metrics')) {
    say('row metrics: GET /v0/times/:uuid, metrics off (this server) and on (a second one)');
    const withMetrics = await start(false, { TIMETRACK_METRICS: 'true' });
    metrics = await measureMetricsOverhead({
      off: target,
      on: withMetrics,
      requests: sc.timeReads,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      rounds: ROUNDS,
    });
    await withMetrics.stop();
  }

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

  if (wanted('csv')) {
    say('row csv: the whole list as CSV, unpaged');
    const rssBeforeMb = readMemory(target.pid)?.rssMb ?? 0;
    const rss = sampleRss(target.pid, 20);
    const stream = await streamWhole(`${target.url}${sc.wholeCsv}`);
    rows.push({ id: 'csv', stream, rssMb: rss.stop(), rssBeforeMb });
  }

  const peak = readMemory(target.pid);
  ceiling.stop();
  await target.stop();

  const storm = rows.find((r) => r.id === 'storm');
  if (storm) storm.inProcess = rows.find((r) => r.id === 'project')?.inProcess;
  const wholeRow = rows.find((r) => r.id === 'whole');
  if (wholeRow) {
    say('whole list in-process ...');
    wholeRow.inProcess = inProcess.wholeList();
  }
  inProcess.close();

  if (wanted('rename')) {
    // Last, on a server of its own: its copy of the data set has one project made big.
    const renameDb = join(runDir, 'rename.db');
    say('row rename: copying the data set and making one project big ...');
    copyFileSync(dataset.file, renameDb);
    const big = makeBigProject(renameDb, s);
    say(
      `row rename: ${big.slug} has ${big.entries} entries (UPDATE in ${big.setupSeconds.toFixed(1)} s); ` +
        `month lists alone, during ${RENAMES} renames of it and of ${big.activity}, alone again`,
    );
    const renameLog = 'server-rename.log';
    const renameTarget = await start(false, {}, renameDb, renameLog);
    const rss = sampleRss(renameTarget.pid);
    // The tokens of the measured server: same key and users, so this one accepts them.
    const rename = await measureRenames({
      url: renameTarget.url,
      adminToken: tokens[s.admin] as string,
      big,
      monthReads: sc.monthReads,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      seconds: SECONDS,
      logFile: join(runDir, renameLog),
    });
    rows.push({ id: 'rename', rename, rssMb: rss.stop() });
    await renameTarget.stop();
    for (const f of [renameDb, `${renameDb}-wal`, `${renameDb}-shm`]) rmSync(f, { force: true });
  }

  if (wanted('import')) {
    // Last, with no server running: the command alone on a copy of the data set.
    const importDb = join(runDir, 'import.db');
    const csv = join(runDir, 'toggl.csv');
    const n = Number(opts['import-rows']);
    copyFileSync(dataset.file, importDb);
    say(`rows import: writing a Toggl CSV of ${n.toLocaleString('en-US')} rows ...`);
    writeTogglCsv(importDb, csv, n);
    const command = importCommand(target.kind);
    for (const dryRun of [true, false]) {
      say(`row import${dryRun ? ' (dry run)' : ''}: admin import-from toggl ...`);
      const importRun = await measureImport({
        ...command,
        db: importDb,
        file: csv,
        rows: n,
        dryRun,
      });
      say(
        `  ${Math.round(importRun.rowsPerSecond)} rows/s, ${importRun.created} created, peak RSS ${Math.round(importRun.peakRssMb)} MB`,
      );
      rows.push({ id: dryRun ? 'import-dry' : 'import', importRun, rssMb: importRun.peakRssMb });
    }
    for (const f of [importDb, `${importDb}-wal`, `${importDb}-shm`, csv])
      rmSync(f, { force: true });
  }

  const report: BenchReport = {
    times: TIMES,
    seconds: SECONDS,
    warmup: WARMUP,
    connections: CONNECTIONS,
    target: target.kind,
    startupMs,
    executableBytes: executableSize(),
    datasetSeconds: s.seconds,
    dbBytes: statSync(dataset.file).size,
    dbSizes: databaseSizes(dataset.file),
    peakHwmMb: peak?.hwmMb ?? 0,
    idleRssMb,
    processStartMs: processStarts(),
    loadAverage: { start: loadAtStart, end: loadAverageNow() },
    rows,
    profile: opts.profile ? summarizeProfiles(profileDir) : undefined,
    metrics,
  };
  printTable(report);
  if (OUT) {
    writeMarkdown(report, OUT);
    say(`wrote ${OUT}`);
  }
  const renameErrors = (r: Row) =>
    r.rename ? r.rename.errors + r.rename.alone.month.errors + r.rename.during.month.errors : 0;
  const errors =
    rows.reduce(
      (n, r) =>
        n +
        (r.ours?.errors ?? 0) +
        (r.logins?.errors ?? 0) +
        renameErrors(r) +
        (r.importRun && r.importRun.exitCode !== 0 ? 1 : 0),
      0,
    ) + (metrics ? metrics.off.errors + metrics.on.errors : 0);
  const streams = rows.filter((r) => r.stream);
  const failed = streams.filter((r) => r.stream?.status !== 200 || r.stream.totalCount < 0);
  if (errors > 0 || failed.length > 0) {
    const why = failed.map((r) => `, ${r.id} answered ${r.stream?.status}`).join('');
    say(`FAILED: ${errors} errors${why}`);
    process.exit(1);
  }
}

/** The command the import rows run: the one measured (the executable, else the sources). */
function importCommand(kind: string): { command: string; args: string[] } {
  if (opts.exe) return { command: opts.exe, args: [] };
  if (kind === 'executable') return { command: join(ROOT, 'dist/timetrack'), args: [] };
  return { command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'src/main.ts')] };
}

main().catch((err) => {
  say(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
