// The prose of docs/benchmarks.md: per row, what limits it and, where a target is
// missed, by how much and what would close it. The figures come from the run; the
// reasons come from the server's CPU profile (`--profile`) and the in-process ceilings.
import type { BenchReport, Row, RowId } from './report';
import { fmt, pct, profileLines, ROW_NAMES, RSS_LIMIT_MB, verdict } from './report';

/** What bounds each row, as the profile and the ceilings show it. */
const LIMITS: Record<RowId, string> = {
  time:
    'Per request the server parses the URL, routes, verifies the token (HMAC-SHA512 and a ' +
    'JSON parse, ~20 µs), looks up the caller (one indexed `users` read, ~6 µs), runs one ' +
    "statement (the time with its project slugs, activity slugs and the viewer's role as " +
    'correlated subqueries, ~15 µs), maps the row, serialises ~400 bytes of JSON, writes a ' +
    'JSON log line to stdout and the response to the socket. In the profile of this row the ' +
    'socket writes (`writev`, kernel time) are the largest single item (~27 % of busy time), ' +
    'the two statements ~18 %, token checking ~6 %, logging and routing a few % each: no ' +
    'single hot spot is left, the cost is the sum of the steps. The bare server does only ' +
    'the socket part. The load generator takes one of the two cores, so the server has one ' +
    'and every request queues on its event loop: p99 is the queue of 10 connections plus ' +
    'whatever else the machine schedules.',
  project:
    'The same path as a time read; the statement gathers the slugs and the users map ' +
    '(`json_group_object` over `project_users` joined to `users`), so the row is a little ' +
    'heavier in SQLite and the response larger.',
  month:
    "One user's month in this data set is ~550 entries (1,000,000 entries / 50 users / 36 " +
    'months), a ~170 KB response. SQLite finds them through `times_user_date`, then runs three ' +
    'correlated subqueries per row (user name, project slugs, activity slugs, the last two ' +
    'with a temporary B-tree for their ORDER BY) and sorts the month by last change; the ' +
    'server then maps and serialises every row. All of it is CPU on the one event-loop ' +
    'thread, so at 10 connections p99 ≈ 10 × the service time of one month.',
  create:
    'Every create is one `BEGIN IMMEDIATE` write transaction: owner, project, activities and ' +
    'membership lookups, the INSERTs (five indexes on `times`, one on `time_activities`), the ' +
    'read-back of the new entry and the COMMIT into the WAL (`synchronous = NORMAL`: no fsync ' +
    'per commit). SQLite allows one writer at a time, which is what this row measures; ' +
    'valibot validation and the JSON body parse add a little on top.',
  update:
    'Like a create plus the history row: the current state is copied into `time_revisions` ' +
    '(INSERT … SELECT with the activity ids as JSON) before the UPDATE, which moves the entry ' +
    'in `times_order`. No SPEC target; shown because revisions are most of the write cost.',
  storm:
    'bcrypt (cost 10, ~70 ms of CPU per login) runs in worker threads, one per core, so the ' +
    'event loop is never blocked by it. But on a 2-core machine 20 waiting logins keep both ' +
    'cores busy with bcrypt, and the event loop (and the load generator) must share them: ' +
    'what remains is CPU starvation, not blocking.',
  whole:
    'The list is streamed from a read-only connection in 64 KB chunks, waiting for the socket ' +
    'to drain, so memory stays flat whatever the size. The first byte waits for the `count(*)` ' +
    'behind `X-Total-Count` and the first chunk of rows; the total is bound by the same ' +
    'per-row mapping and JSON as the month row (the in-process column is that loop alone).',
};

/** How a miss could be closed, row by row. */
const CLOSE: Partial<Record<RowId, string>> = {
  time:
    'Closing the gap: at 30 % of the bare server the whole request would have to fit in ' +
    "about 3 × the bare server's time per request; the profile shows no single step worth " +
    'more than a quarter of what it costs now, so it takes several small cuts. Measured: ' +
    'switching the per-request log line off (`LOG_LEVEL=warn`) gained only 3–15 %. Not yet ' +
    'measured: caching the caller per token for a second instead of a `users` read per ' +
    'request, one reusable URL parse instead of `new URL()` per request, and a bigger ' +
    'SQLite page cache (see Hot spots). The p99 target also needs the server to have a core ' +
    'of its own: on this 2-core machine the load generator takes the other.',
  project:
    'Closing the gap: as for 1a; in addition the users map could be kept as a denormalised ' +
    'JSON column updated with the map, instead of `json_group_object` on every read.',
  month:
    'Closing the gap: ~550 rows per month is the arithmetic of the SPEC data set, and the ' +
    'cost scales with it: with ~55 entries per person-month (the 100,000-entry set) the same ' +
    'row gave p50 ~8 ms and p99 ~20 ms on this busy machine, with ~5 (10,000 entries) p99 ' +
    '~8–10 ms. For this data set: a bigger SQLite page cache (see Hot spots: 7.7 → 5.5 ms ' +
    'per month in-process), the project slugs and activity slugs from a small cache or ' +
    'denormalised per entry instead of two subqueries with temporary B-trees per row, and ' +
    'list queries served from a second thread (a worker with its own read-only connection) ' +
    'so that two months are answered at once on two cores. Even then p99 at 10 concurrent ' +
    'months needs one month in ~1.5 ms of CPU, below what SQLite alone takes here.',
  create:
    'Closing the gap: the write path is one transaction per request, so per-commit cost ' +
    'dominates (the in-process column is the same service call without HTTP); group ' +
    'concurrent creates into one transaction (a small write queue that commits every few ' +
    'ms), give connections a bigger page cache (in-process ~1,000 → ~1,800/s with 64 MB), ' +
    'and drop the read-back SELECT by building the response from the values just written.',
  storm:
    'Closing the gap: cap the bcrypt pool at cores − 1 (here: one worker) so the event loop ' +
    'always keeps a core — logins/s halve, reads keep their latency; or run the server on a ' +
    'machine with more cores than concurrent logins.',
  whole:
    'Closing the gap: the stream itself is flat (see the RSS before and during it); the RSS ' +
    'it starts from is what earlier rows left behind (see Memory below). For the first ' +
    'byte: answer `X-Total-Count` from a cheaper source (the count scans 1 M rows), or send ' +
    'it as a trailer.',
};

function rowParagraph(row: Row): string[] {
  const v = verdict(row);
  const o = row.ours;
  const figures: string[] = [];
  if (o) {
    figures.push(
      `${fmt(o.rps)} req/s, p50 ${fmt(o.p50)} ms, p99 ${fmt(o.p99)} ms, ${o.errors} errors`,
    );
    if (row.ceilingHttp) {
      figures.push(
        `${pct(o.rps / row.ceilingHttp.rps)} of the bare node:http server (${fmt(row.ceilingHttp.rps)} req/s, p99 ${fmt(row.ceilingHttp.p99)} ms)`,
      );
    }
  }
  if (row.logins) {
    figures.push(
      `beside ${fmt(row.logins.rps)} logins/s (p50 ${fmt(row.logins.p50)} ms, ${row.logins.errors} errors)`,
    );
  }
  if (row.stream) {
    const s = row.stream;
    figures.push(
      `${s.totalCount.toLocaleString('en-US')} entries, ${fmt(s.bytes / 2 ** 20)} MiB: first byte after ${fmt(s.firstByteMs)} ms, all of it after ${fmt(s.totalMs / 1000)} s; server RSS ${fmt(row.rssBeforeMb ?? 0)} MB before, at most ${fmt(row.rssMb)} MB while streaming`,
    );
  }
  if (row.inProcess) {
    const ip = row.inProcess;
    const json = ip.jsonOpsPerSec ? `; ${fmt(ip.jsonOpsPerSec)}/s with the JSON mapping` : '';
    figures.push(`in-process ceiling (${ip.what}): ${fmt(ip.opsPerSec)}/s${json}`);
  }
  figures.push(`server RSS up to ${fmt(row.rssMb)} MB`);
  const status =
    v.met === undefined
      ? ''
      : v.met
        ? `**Target (${v.target}): met.**`
        : `**Target (${v.target}): missed** — ${v.miss}.`;
  return [
    `### ${ROW_NAMES[row.id]}`,
    '',
    `${figures.join('; ')}.`,
    '',
    `${status} ${LIMITS[row.id]}`.trim(),
    ...(v.met === false && CLOSE[row.id] ? ['', CLOSE[row.id] as string] : []),
    '',
  ];
}

/**
 * Hot spots found with this benchmark (profiles and in-process measurements taken while it
 * was built, on the same shared 2-core machine): the one fixed, with before/after, and
 * those left, with what they cost.
 */
const HOT_SPOTS = [
  '## Hot spots',
  '',
  'Found with `npm run bench -- --profile` (a V8 CPU profile of the server) and small',
  'in-process measurements on the 1,000,000-entry database, on the same shared machine (so',
  'the figures are indicative, not precise).',
  '',
  '**Fixed — token verification** (src/auth/token.ts). Given the key as a Buffer,',
  'jsonwebtoken first tries `crypto.createPublicKey` on it for every request, which throws',
  'and is caught: ~0.5–1 ms per verify against ~20 µs with a secret `KeyObject` made once.',
  "It was 35 % of the server's busy CPU in the profile. Back to back on the 100,000-entry",
  'data set (5 s runs): `GET /v0/projects/:slug` 1,018 → 3,201 req/s (p50 6.9 → 2.4 ms),',
  '`GET /v0/times/:uuid` 988 → 2,740 req/s (p50 6.8 → 2.2 ms).',
  '',
  "**Left — SQLite page cache.** Connections keep SQLite's default 2 MB page cache; every",
  "other page read is a `pread` from the OS cache. One user's month (count + page",
  'statements) took 7.7 ms with the default and 5.5 ms with `PRAGMA cache_size = -65536`',
  '(64 MB) on each connection; creates in-process rose from ~1,000 to ~1,800/s. One line in',
  '`openDatabase` (src/db/open.ts); the cost is memory (bounded by the pool size).',
  '',
  '**Left — the list query itself.** In a profile of the month row (1 M entries), 69 % of',
  "the server's busy time is `streamList` stepping the list statement (SQLite's time is",
  'counted in the JS frame that calls it), `formatDate` 5 %, `toTimeJson` 3 %, socket',
  'writes 6 %: the month is bound by SQLite, not by JSON or HTTP.',
  '',
  '**Left — slug subqueries per listed time** (src/times/store.ts). Each row of a list runs',
  '`json_group_array(… ORDER BY …)` for the project slugs and for the activity slugs, each',
  'with a temporary B-tree. Without the project-slugs subquery a month page took 4.8 instead',
  "of 8.4 ms. The 200 projects' slug arrays could be looked up from a small cache keyed by",
  'project id (invalidated on project writes), or the ORDER BY moved into an inner subquery.',
  '',
  '**Left — one transaction per write.** In-process, `times.create` spends half its time',
  'in BEGIN IMMEDIATE / COMMIT (WAL page writes of six indexes, checkpoints every ~1,000',
  'pages): ~1,000–1,800 creates/s even without HTTP on this machine, below the 2,000/s target',
  'before any request handling. Grouping concurrent writes into one transaction (a write',
  'queue flushed every few ms) is the change that would move this row.',
  '',
  '**Left — `count(*)` before the first byte** (src/http/list.ts). `X-Total-Count` is',
  'computed before the first row is sent; on 1 M rows that scan is most of the time to first',
  'byte of the whole list (~0.3–0.7 s here).',
  '',
];

export function explain(r: BenchReport): string[] {
  return [
    '## What limits each row',
    '',
    ...r.rows.flatMap(rowParagraph),
    '### Start-up',
    '',
    `${fmt(r.startupMs)} ms from spawning the ${r.target} to its first \`/health\` answer on the ` +
      `${r.times.toLocaleString('en-US')}-entry database` +
      (r.processStartMs
        ? `; on the same machine in the same run a bare \`node -e 0\` takes ${fmt(r.processStartMs.node)} ms ` +
          `and \`timetrack --version\` ${fmt(r.processStartMs.version)} ms, so the database part ` +
          '(open, migrations check, first-admin check, listen) is the difference.'
        : '.') +
      ' Start-up does not read the time entries, so it does not grow with the data. The ' +
      'executable carries a V8 code cache (`useCodeCache`) for the bundle.',
    '',
    '### Memory',
    '',
    `RSS right after start-up: ${fmt(r.idleRssMb)} MB, of which about 45 MB are the ` +
      "executable's own code (Node and V8, file-backed pages). Peak over the run (VmHWM): " +
      `${fmt(r.peakHwmMb)} MB (target < ${RSS_LIMIT_MB} MB: ` +
      `${r.peakHwmMb < RSS_LIMIT_MB ? 'met' : `missed by ${fmt(r.peakHwmMb - RSS_LIMIT_MB)} MB`}). ` +
      `The highest rows: ${[...r.rows]
        .sort((a, b) => b.rssMb - a.rssMb)
        .slice(0, 3)
        .map((row) => `${ROW_NAMES[row.id]} (${fmt(row.rssMb)} MB)`)
        .join(', ')}. ` +
      'Memory grows with the responses in flight at once (10 month lists of ' +
      '~170 KB, each streamed from its own read-only connection with its own page cache) and ' +
      'the login storm (each bcrypt worker thread is a V8 isolate of its own). Neither ' +
      "V8's young generation (`--max-semi-space-size=2`) nor glibc arenas " +
      '(`MALLOC_ARENA_MAX=2`) moved the peak by more than a few MB when tried; the next step ' +
      'is a heap snapshot under the month load, and capping the reader pool.',
    '',
    ...HOT_SPOTS,
    ...(r.profile ? ['## CPU profile', '', ...profileLines(r.profile), ''] : []),
  ];
}
