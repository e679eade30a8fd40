// npm run bench:standby — the warm-standby recipe of docs/capacity.md, measured: two
// processes on two database files and one Litestream replica directory (a file
// replica, as a mounted disk or a bucket would be). The primary serves the bench data
// set with `litestream replicate` beside it under a write load; it is killed (-9, both
// processes: the machine dies); the standby restores the replica (`litestream restore`),
// checks the file (`admin check`), starts and answers. Measured: the recovery time
// (restore, check, start, first answer) and the data-loss window (writes the primary
// acknowledged that are not in the restored file).
//
//   npm run bench:standby                          # the 1,000,000-entry bench set (~5 min)
//   npm run bench:standby -- --times 100000        # a smaller set; prints only
//   options: --write-seconds S (default 10) --writers N (default 4) --no-check --out FILE
import { execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { login } from './client';
import { DATA_DIR, ensureDataset } from './dataset';
import { git, loadAverageNow, machineBusy, writeSection } from './day-report';
import { ROOT, startTarget, targetCommand } from './target';

const say = (line: string) => process.stderr.write(`bench:standby: ${line}\n`);

const { values: opts } = parseArgs({
  options: {
    times: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '9' },
    'write-seconds': { type: 'string', default: '10' },
    writers: { type: 'string', default: '4' },
    'no-check': { type: 'boolean', default: false },
    out: { type: 'string' },
    draft: { type: 'boolean', default: false },
  },
});
const TIMES = Number(opts.times);
const OUT = opts.out ?? (TIMES >= 1_000_000 ? join(ROOT, 'docs/capacity.md') : undefined);
const SECRET = 'benchmark-secret-key-0123456789-abcdefghijklmnop';
const SYNC_INTERVAL = '1s';

function litestreamBinary(): string {
  const dir = dirname(require.resolve('@flydotio/litestream-linux-x64/package.json'));
  const binary = join(dir, 'litestream');
  if (!existsSync(binary)) throw new Error('the Litestream binary is missing (npm ci installs it)');
  return binary;
}

const run = (command: string, args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, { cwd: ROOT, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      err
        ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || err.message}`))
        : resolve(stdout),
    ),
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Bytes of every file under `dir`. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : statSync(p).size;
  }
  return total;
}

/** Snapshot files in the replica (generations/<id>/snapshots/*.snapshot.lz4). */
function snapshots(replica: string): number {
  const gens = join(replica, 'generations');
  if (!existsSync(gens)) return 0;
  return readdirSync(gens).reduce((n, g) => {
    const dir = join(gens, g, 'snapshots');
    return n + (existsSync(dir) ? readdirSync(dir).length : 0);
  }, 0);
}

interface Ack {
  uuid: string;
  /** performance.now() when the answer arrived. */
  at: number;
}

async function main(): Promise<void> {
  const loadStart = loadAverageNow();
  const binary = litestreamBinary();
  const dataset = ensureDataset(TIMES, Number(opts.seed), say);
  const s = dataset.sidecar;
  const dir = join(DATA_DIR, 'standby');
  rmSync(dir, { recursive: true, force: true });
  const primaryDb = join(dir, 'primary/timetrack.db');
  const standbyDb = join(dir, 'standby/timetrack.db');
  const replica = join(dir, 'replica');
  for (const d of [dirname(primaryDb), dirname(standbyDb), replica])
    mkdirSync(d, { recursive: true });
  copyFileSync(dataset.file, primaryDb);
  // One config for both machines: the primary replicates its file to the replica; the
  // standby restores "that database" from it to a file of its own (-o).
  const config = join(dir, 'litestream.yml');
  writeFileSync(
    config,
    `dbs:\n  - path: ${primaryDb}\n    replicas:\n      - type: file\n        path: ${replica}\n        sync-interval: ${SYNC_INTERVAL}\n`,
  );
  const env = { TIMETRACK_SECRET_KEY: SECRET, LOG_LEVEL: 'warn' };

  say(`primary: serving ${TIMES.toLocaleString('en-US')} entries with litestream replicate`);
  const primary = await startTarget({
    db: primaryDb,
    logFile: join(dir, 'primary.log'),
    env: { ...env, TIMETRACK_CHECKPOINT: 'litestream' },
  });
  const replicating = performance.now();
  const litestream = spawn(binary, ['replicate', '-config', config], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  process.once('exit', () => litestream.kill('SIGKILL'));
  const litestreamGone = new Promise((r) => litestream.once('exit', r));
  while (snapshots(replica) === 0) await sleep(100);
  const snapshotSeconds = (performance.now() - replicating) / 1000;
  say(`replica: first snapshot after ${snapshotSeconds.toFixed(1)} s`);

  // The write load: writers creating entries as fast as they are answered, until the kill.
  const user = s.users.find((u) => (s.memberships[u] ?? []).length > 0) as string;
  const token = await login(primary.url, user, s.password);
  const acks: Ack[] = [];
  let writing = true;
  const writer = async (k: number) => {
    for (let i = 0; writing; i++) {
      try {
        const res = await fetch(`${primary.url}/v0/times`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            object: {
              duration: 900,
              user,
              project: (s.memberships[user] as string[])[0],
              activities: [s.activities[0]],
              date_worked: '2026-10-30',
              notes: `standby ${k}-${i}`,
            },
          }),
        });
        const body = (await res.json()) as { uuid?: string };
        if (res.status === 200 && body.uuid) acks.push({ uuid: body.uuid, at: performance.now() });
      } catch {
        return; // the primary is gone
      }
    }
  };
  const writers = Array.from({ length: Number(opts.writers) }, (_, k) => writer(k));
  await sleep(Number(opts['write-seconds']) * 1000);

  // The machine dies: both processes at once, no last copy on the way out.
  const killedAt = performance.now();
  process.kill(primary.pid, 'SIGKILL');
  litestream.kill('SIGKILL');
  writing = false;
  await Promise.all(writers);
  await litestreamGone;
  await primary.stop();
  const replicaBytes = bytesUnder(replica);
  say(`killed the primary and Litestream after ${acks.length} acknowledged writes`);

  // Failover on the standby: restore, check, start, first answer.
  const t0 = performance.now();
  await run(binary, ['restore', '-config', config, '-o', standbyDb, primaryDb]);
  const restoreSeconds = (performance.now() - t0) / 1000;
  say(`standby: restored in ${restoreSeconds.toFixed(1)} s`);
  let checkSeconds: number | undefined;
  if (!opts['no-check']) {
    const t = performance.now();
    const cmd = targetCommand();
    const out = await run(cmd.command, [...cmd.args, 'admin', 'check', '--db', standbyDb]);
    checkSeconds = (performance.now() - t) / 1000;
    say(`standby: admin check in ${checkSeconds.toFixed(1)} s: ${out.trim().split('\n').at(-1)}`);
  }
  const tStart = performance.now();
  const standby = await startTarget({ db: standbyDb, logFile: join(dir, 'standby.log'), env });
  const startMs = performance.now() - tStart;
  // The first answer: the person's week, with the token the primary issued.
  const tAsk = performance.now();
  const res = await fetch(`${standby.url}/v0/times?user=${user}&start=2026-10-26&end=2026-11-01`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.arrayBuffer();
  const firstAnswerMs = performance.now() - tAsk;
  if (res.status !== 200) throw new Error(`the standby answered ${res.status}`);
  const recoverySeconds = (performance.now() - t0) / 1000;
  await standby.stop();

  // The data-loss window: acknowledged writes missing from the restored file.
  const db = new Database(standbyDb, { readonly: true });
  const has = db.prepare('SELECT 1 FROM times WHERE uuid = ?');
  const lost = acks.filter((a) => has.get(a.uuid) === undefined);
  db.close();
  const kept = acks.length - lost.length;
  const oldestLostMs = lost.length > 0 ? killedAt - Math.min(...lost.map((a) => a.at)) : 0;
  const rate = acks.length / Number(opts['write-seconds']);

  const n = (x: number) => x.toLocaleString('en-US');
  const busy = opts.draft || machineBusy(loadStart);
  const lines = [
    busy
      ? '**Development run, machine busy: not the final figures.** (Other work shared the 2 cores.)'
      : '',
    TIMES < 1_000_000
      ? `A ${n(TIMES)}-entry set, not the bench set's 1,000,000: \`npm run bench:standby\` measures that one.`
      : '',
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; the ${primary.kind} of commit ${git('rev-parse', '--short', 'HEAD')}, Litestream ${(await run(binary, ['version'])).trim()}, file replica, \`sync-interval: ${SYNC_INTERVAL}\``,
    `- Database: ${n(TIMES)} entries (bench/generate.ts), ${(statSync(dataset.file).size / 2 ** 20).toFixed(0)} MiB; replica after the run ${(replicaBytes / 2 ** 20).toFixed(0)} MiB (lz4); first snapshot ${snapshotSeconds.toFixed(1)} s after Litestream started`,
    `- Write load until the kill: ${opts.writers} clients creating entries, ${n(acks.length)} acknowledged in ${opts['write-seconds']} s (${rate.toFixed(0)}/s)`,
    '',
    '| step on the standby | time |',
    '|---|---|',
    `| \`litestream restore\` (snapshot + WAL) | ${restoreSeconds.toFixed(1)} s |`,
    checkSeconds === undefined
      ? ''
      : `| \`timetrack admin check\` | ${checkSeconds.toFixed(1)} s |`,
    `| \`timetrack serve\` to its first \`/health\` | ${startMs.toFixed(0)} ms |`,
    `| first answer (a week of entries, the primary's token) | ${firstAnswerMs.toFixed(0)} ms |`,
    `| **recovery time** (restore to first answer) | **${recoverySeconds.toFixed(1)} s** |`,
    '',
    `Data-loss window: ${n(lost.length)} of ${n(acks.length)} acknowledged writes were not in the restored file (${n(kept)} were); the oldest lost one was acknowledged ${oldestLostMs.toFixed(0)} ms before the kill.`,
  ];
  const section = lines
    .filter((l, i) => !(l === '' && lines[i - 1] === ''))
    .join('\n')
    .trim();
  process.stdout.write(`${section}\n`);
  if (OUT) {
    writeSection(
      OUT,
      section,
      '<!-- bench:standby begin (written by npm run bench:standby) -->',
      '<!-- bench:standby end -->',
    );
    say(`wrote ${OUT}`);
  }
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  say(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
