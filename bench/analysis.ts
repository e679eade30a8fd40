// The prose of docs/benchmarks.md: per row, what limits it and, where a target is
// missed, by how much and what would close it. The figures come from the run; the
// reasons come from the server's CPU profile (`--profile`) and the in-process ceilings.
import type { BenchReport, Row, RowId } from './report';
import { fmt, pct, profileLines, ROW_NAMES, RSS_LIMIT_MB, renameLine, verdict } from './report';

/** What bounds each row, as the profile and the ceilings show it. */
const LIMITS: Record<RowId, string> = {
  time:
    'Per request the server splits the target, routes (patterns grouped once, nothing made ' +
    'for those that do not fit), looks the token up among those it has verified ' +
    '(HMAC-SHA512 and a JSON parse only the first time) and the caller among the holders ' +
    'it keeps (`PRAGMA data_version` probed once per batch of requests that one poll of ' +
    "the sockets gave), runs one small statement (the entry's owner, project, deletion and " +
    "JSON, as an array: the `times` row by uuid, its row of `time_user_rows` by that row's " +
    'key and its username, project slugs and activity slugs from three small tables, one ' +
    '`format()` of values that are JSON text already (sql/009): ~17 µs in-process against ' +
    "~13 µs for the stored JSON it replaced; the viewer's role in the project read apart " +
    'only when the answer depends on it), writes its log line (written out field by ' +
    'field, and to stdout once per turn of the event loop) and the response to the ' +
    'socket. In a `perf` profile of the executable under this row, on the event loop: ' +
    'the response write (`writev`, mostly kernel time) ~24 %, SQLite ~22 % (the statement ' +
    'and its `fcntl` locks), GC ~11 %, node:http and the rest of the JavaScript spread ' +
    'thin. The bare server does only the socket part. The load generator takes one of ' +
    'the two cores, so the server has one and every request queues on its event loop: ' +
    'p99 is the queue of 10 connections plus whatever else the machine schedules.',
  project:
    "The same path as a time read; the statement reads the project's stored API JSON " +
    '(`project_json`, sql/008: the slugs, owner, default activity and users map written ' +
    'once per change, not per read) by its live slug, ~4 µs in-process, in two small ' +
    'tables that stay in the cache, where a time read looks up three B-trees of a ' +
    'million rows.',
  month:
    "One user's month in this data set is ~550 entries (1,000,000 entries / 50 users / 36 " +
    'months), a ~170 KB response. Being short, it is read whole by one statement that ' +
    'answers its body and its count (json_rows, below, stops it at row 1,001: a longer ' +
    "list is counted in the covering `times_user_date` and streamed instead): one range of `time_user_rows` (sql/009: each entry's own fields, the dates " +
    'and quoted texts already as JSON, keyed by user, month and last change, so a calendar ' +
    "month is ~40 neighbouring pages already in list order and nothing is sorted), all written into one BLOB by `json_rows`, an aggregate of our SQLite extension (src/db/native/json_rows.c), which takes the rows straight from that range (no ORDER BY: they come in list order), puts each one's values into one buffer, and looks its username, project slugs and activity slugs up once per list (on a read-only connection it keeps them for later lists while nothing is written to the file), and the BLOB is written to the socket as it is (src/times/json-sql.ts, src/times/store.ts timeList, src/http/list.ts). Until c146c94 each entry was written by one `format()`, its names joined per row, and the texts joined by `group_concat`: in-process ~0.8 ms of CPU on the published machine (the stored JSON before sql/009: ~0.3 ms); on a slower machine the count and body of a month went from 476–673 to 834–959 a second with json_rows. That statement runs on " +
    'a list worker thread, each with a read-only connection of its own, one per core at ' +
    'most, and the body comes back in a slot of a buffer shared with them ' +
    '(src/db/short-lists.ts): the SQL of months runs on both cores while the event loop ' +
    'does only the HTTP (~0.25 ms a list; a list it reads itself holds up every other ' +
    'response for ~0.8 ms, so it reads one only when no worker is ready or every slot is ' +
    'in use); each worker is given two lists at a time, and the others wait in one queue ' +
    'on the event loop for the first worker with room. A list whose client hung up ' +
    'before its answer came used to keep its slot for good: the load generator cuts 10 ' +
    'lists off at the end of each run, so from the second run of a row on every list was ' +
    'read on the event loop (fixed in src/http/list.ts; ' +
    'GET /metrics counts lists by thread, `timetrack_short_lists_total`). The first ' +
    'worker starts once a short list has been read, a second when a list comes while the ' +
    'first has one in flight, and each exits after 10 s without one. The in-process column ' +
    'reads on one thread, so the server can pass it.',
  create:
    'The creates whose bodies arrive in the same turn of the event loop share one ' +
    '`BEGIN IMMEDIATE` transaction, each in a savepoint of its own, and are answered after ' +
    'its COMMIT (src/db/write-queue.ts). Per create: valibot validation, owner, project, ' +
    'activities and membership lookups, the INSERTs (five indexes on `times`, two B-trees ' +
    "for `time_activities`, the entry's row of `time_user_rows` and its activity set " +
    '(sql/009) and the per-month totals of reports (sql/006), all by triggers) and the ' +
    'JSON, read in the transaction from the rows just written. The COMMIT appends to the WAL (`synchronous = NORMAL`: ' +
    'no fsync); checkpoints, which copy the WAL into the file and wait for its fsync, run on ' +
    'a worker thread with its own connection (src/db/checkpointer.ts), not in the COMMIT of ' +
    'a request. SQLite allows one writer at a time, which is what this row measures. The ' +
    'in-process column calls the service one transaction at a time, with SQLite checkpointing ' +
    'in the writer, so it is below what the server can do.',
  update:
    'Like a create plus the history row: the current state is copied into `time_revisions` ' +
    '(INSERT … SELECT with the activity ids as JSON) before the UPDATE, which moves the entry ' +
    'in `times_order` and its `time_user_rows` row to the end of its month (sql/009), and ' +
    'its duration between per-month totals (sql/006). Grouped and ' +
    'checkpointed like creates. No SPEC target; shown because revisions are most of the ' +
    'write cost.',
  storm:
    'bcrypt (cost 10, ~70 ms of CPU per login) runs in worker threads, one per core but ' +
    'one (src/auth/password.ts), so the event loop is never blocked by it and keeps a core ' +
    'of its own: on this 2-core machine one worker, which 20 waiting logins keep busy for ' +
    '~1.4 s. Two workers (one per core, before) kept both cores busy and the reads waited ' +
    'for CPU.',
  whole:
    'The list is streamed from a read-only connection in 64 KB chunks, waiting for the socket ' +
    'to drain, so memory stays flat whatever the size. The first byte waits for the first ' +
    '1,000 rows and the `count(*)` behind `X-Total-Count`; the total is bound by the same ' +
    'JSON per row as the month row, each entry reached from `times_order` by its row key ' +
    '(the in-process column is that loop alone).',
  'report-month':
    "One user's month (~550 entries) grouped by day: SQLite reads them from " +
    '`times_user_date` alone (it covers date, project, duration and deletion: no table ' +
    'lookup per entry), sums them per `date_worked` and answers ~30 rows; the server ' +
    'serialises a few KB.',
  'report-year':
    "A year of everyone's entries (~330,000) by project and month, as an admin: the whole " +
    'months are summed from `time_month_totals` (sql/006: duration and count per month, ' +
    'project and user, kept by triggers in the transaction of every write of an entry; ' +
    '~7,300 rows for a year), the partial months at the edges of a range from `times_date` ' +
    '(covering); the ~2,400 groups are named and sorted in an outer query, which is most of ' +
    'what is left. Groupings the totals do not hold (day, week, activity) and filters they ' +
    "cannot apply (user, project, activity, a non-admin's visibility) read the entries as " +
    "before; everyone's entries by day or week are summed per day in index order first. " +
    'One statement on the event-loop thread, so at 10 connections p99 is about 10 × p50.',
  csv:
    'The same stream as row 6, each row written as CSV: the JSON text stored for the ' +
    'entry is parsed and its cells quoted in JavaScript (one `JSON.parse` per row), so the ' +
    'total is a little slower than the JSON list; memory stays flat in the same way.',
  rename:
    "Issue 30. The row's own copy of the data set, on a server of its own: one UPDATE moves " +
    'every tenth entry into the first project (which thus has ~105,000), the triggers ' +
    'keeping the derived rows and the report totals right. A project manager (here the ' +
    "admin) renaming the project's slugs writes its `project_slugs` rows, its history row, " +
    'its stored project JSON (sql/008) and its one row of `project_slug_lists` (sql/009); ' +
    'an activity rename its row, its history row and the rows of `activity_sets` that hold ' +
    'it (one per set of activities some entry has: 30 of the 465 in this data set). No ' +
    'entry is written: reads join ' +
    "an entry's username, project slugs and activity slugs from those small tables by " +
    'primary key (src/times/json-sql.ts). Before issue 30 each entry kept its JSON with the ' +
    'slugs in it, and a rename NULLed it for every entry of the project inside the ' +
    'request: 0.63–1.88 s per rename of a 100,998-entry project, /health waiting up to ' +
    "1.47 s and another user's month list going from p50 5 ms to p50 2.2 s during 10 " +
    'renames. The month load is that of row 2 (same connections), on the same server alone ' +
    'before the renames, during them and alone after them (the two alone taken together, ' +
    'so that drift over the row is not put down to the renames); /health is polled every ' +
    '~20 ms in each, and its longest answer stands for the longest pause of the event ' +
    'loop. A rename answers after the month lists already queued on the event loop, so ' +
    'its time under this load is mostly that wait; its time in the server (request event ' +
    "to answer, from the server's request log) is given beside it.",
  'import-dry':
    'Issue 31. The command alone (no server), on a copy of the data set, of a generated ' +
    "Toggl detailed report that lists its rows in start order, day by day, as Toggl's " +
    'does: csv-parse reads the file as it streams (64 KiB pieces), each record becomes a ' +
    'row (dates, clocks, durations read by hand-written parsers, a SHA-256 source key), ' +
    'and people, projects and activities are looked up in maps made once; a first import ' +
    'of an instance reads no key. The keys seen, to find rows the file has twice, are 16 ' +
    'bytes each in one open-addressing table (src/importers/key-set.ts; ~32 MB for a ' +
    'million rows): as a Set of strings they held ~150 MB, the 320 MB peak of the first ' +
    'measurement. The young generation stays at 1 MB (src/heap-growth.ts): a piece is ' +
    'garbage before the next. csv-parse runs on a worker thread ' +
    '(src/importers/csv-thread.ts) that posts 1,000 records a message, so that the parsing ' +
    'of the next piece overlaps the checks of this one on the second core: ~25 MB more ' +
    'peak RSS (the worker and what is in flight) and a third more CPU in all, for ~20 % ' +
    'less wall time on an otherwise idle second core. The engine takes the records 1,000 ' +
    'at a time into batches of 20,000, with one copy of the report per batch to restore ' +
    'should it fail: side by side, 1,000,000 rows in 14.8–15.0 s with 174 MB against ' +
    '16.0–16.7 s with 186 MB for pieces of 10,000 each a batch of its own (the records of ' +
    'a large piece outlived the young generation).',
  import:
    'The dry run plus the writes, on two threads: the event loop reads the file (1,000 ' +
    'records at a time) and checks its rows into batches of 20,000; each batch goes as a ' +
    'plan (what it creates, with made-up ids, then its entries packed into a few typed ' +
    'arrays and one string: src/importers/plan.ts) to a writer thread with a connection ' +
    'of its own (src/admin/import-writer.ts), which writes it in one transaction while the ' +
    'next batch is checked. One after the other on one thread the SQLite part was three ' +
    'fifths of the time (~33 µs a row for the inserts and the bulk derived rows, ~9 µs ' +
    'the COMMIT and its checkpoint, ~5.5 µs the source keys) and the reading and checks ' +
    'the rest (~31 µs). A batch inserts its entries in index order: by day and person, ' +
    'its source keys sorted, and its fresh v4 uuids sorted and sharing their first two ' +
    'hex digits (drawn per batch), so that they land in one 256th of the uuid index: ' +
    'spread over all of it, 20,000 fresh uuids dirtied nearly every page of it, each ' +
    'written to the WAL and copied into the file again (side by side, 1,000,000 rows in ' +
    '55–69 s without the prefix, 37–45 s with it; 62–69 s for the one-thread build ' +
    'before). The insert triggers that keep the derived rows (sql/006, sql/009) skip the ' +
    "batch while its row of bulk_writes exists (sql/018, only ever inside the writer's " +
    'transaction), and the batch writes the month totals, activity sets and entry rows ' +
    'with one statement each before its COMMIT. Statement journals are kept in memory on ' +
    "the writer's connection (`temp_store = MEMORY`): past 64 KiB one spilled to a file, " +
    '~20 `pwrite` calls a row. Two batches are held at once: 40,000 a batch took the ' +
    'peak to 206–216 MB, 20,000 to 164–172 MB. Before this round the import ran 11,302 ' +
    'rows/s with 140 MB (published), the dry run 47,697 rows/s with 180 MB.',
};

/** How a miss could be closed, row by row. */
const CLOSE: Partial<Record<RowId, string>> = {
  'import-dry':
    'Closing the gap: in a profile of 1,000,000 rows the event loop spends about a fifth ' +
    'of its time collecting garbage, an eighth waiting for the parsing thread, an eighth ' +
    "in the engine's per-row checks and a tenth in the source key (SHA-256); the parsing " +
    'thread is busy five sixths of the run, so the two are near even, and on a loaded ' +
    'machine the parsing thread competes for the second core and the gain shrinks.',
  import:
    'Closing the gap: the writer thread is the longer of the two (in a profile of the ' +
    'event loop it waits about a quarter of the run); what would shorten it is fewer ' +
    'B-trees per entry (eight, plus the derived rows and the source key). Measured and ' +
    'not kept: the WAL copied into the file by the event loop after each batch instead ' +
    'of by the writer (no faster once the uuids share a prefix), batches of 40,000 ' +
    '(within noise, 40 MB more), the CSV parsed on a worker thread (records cloned into ' +
    'the event loop cost it about what parsing them does).',
  time:
    'Closing the gap: on a quiet machine the bare server answers 37,000–41,000 req/s, as ' +
    'fast as the load generator can ask, so 30 % means ~82–85 µs per request on the one ' +
    'core the server has. Side by side on the same data (executable, alternating 3 s ' +
    'turns), CPU per time read went 114 → 78 µs this round: 93 with the log line written ' +
    'out field by field (the object it spread and stringified cost a fifth of the ' +
    'request), 82 with the router and the actor not spreading or allocating per route, ' +
    '78 with one `data_version` probe per batch; then, measured on a slower hour of the ' +
    'machine, 104 → 97 µs with X-Request-Id given to writeHead and 92 → 89 µs with the ' +
    "viewer's role read only when it matters. Cheaper per request than that are only " +
    'the kernel part of the socket write (the bare server pays less of it because the ' +
    'load generator never sleeps), the statement and what node:http allocates. A second ' +
    'HTTP thread is not available: Node 20 has no `reusePort`, worker threads cannot ' +
    'share a listening socket, and another process would double the memory.',
  project:
    "Closing the gap: as for 1a; the statement is already one lookup of the project's stored JSON.",
  month:
    "Closing the gap: not closed in the published run (issue 30). Since it, a month is written by json_rows (c146c94, above). Side by side on a 2 × AMD EPYC machine that is 2.5–3× slower than the published run's (its bare server 3,700–4,500 req/s), four alternating turns of 8 s per build: 614–796 lists/s, p50 11.7–15.1 ms, p99 26.3–33.0 ms, against 519–577 lists/s, p50 16.2–18.3 ms, p99 34.8–36.9 ms for the build before (6e93508): +39 % at the median. Then (after 6353d3c) the same statement counts the list as it writes it, where a count in `times_user_date` apart had taken a fifth of the SQL of a month; json_rows splits its template once per list rather than per row; and the list worker frees each body once it is copied into its slot (`ArrayBuffer.prototype.transfer(0)`) instead of collecting its young generation every 4 lists (~0.3 ms each). In-process, alternating in one process, a month's count and body went from 902–913 to 694–700 µs; over HTTP, six alternating turns of 8 s per build on the slower machine: 848–977 lists/s, p50 9.5–10.8 ms, p99 23.3–27.6 ms against 717–784 lists/s, 12.0–13.1 ms and 24.7–28.6 ms for 6353d3c (+20 % at the median; +63 % over 6e93508), peak RSS 142–147 MB against 133–136 MB. Then (after a67d354) json_rows lends its result to SQLite instead of giving it: a result with a destructor was copied once more by SQLite before it left the statement (the OP_Copy that makes an aggregate's result the row's own; `vdbeMemAddTerminator` under `memmove` was a fifth of a list worker's time in `perf`), and each list grew its output buffer anew; now the result is `SQLITE_STATIC`, out of a buffer the connection keeps and writes the next list into once no statement that was running when it was lent is still in that run (src/db/native/json_rows.c; two results alive at once, as two subqueries of one row or the rows of a GROUP BY, each keep their own). A list sent whole no longer makes an AbortController for a connection it never waits on. In-process, alternating per list in one process, a month's count and body went from 621–702 to 542–589 µs (−16 %). Over HTTP this machine's speed drifted between turns by more than that (nine alternating turns of 8–15 s per build: 1,029–1,573 lists/s, p99 15.3–23.4 ms against 874–1,186 lists/s, p99 20.2–27.3 ms; medians 1,166 against 1,062 lists/s and 20.2 against 22.7 ms; yet two runs of this row by `npm run bench` per build gave 851–969 against 893–993), so the two builds were also run at the same time, each on its own copy of the data under its own load of 5 connections, where the one that costs less serves more whatever the machine does meanwhile: 461–608 against 427–508 lists/s (+8 to +20 %) and 1,316–1,680 against 1,562–1,850 µs of server CPU per list (−9 to −16 %) in each of three turns, and in three more with the final build +1.5 to +10 % and −3.5 to −12 % (about a tenth less CPU per month list, with a wide spread). To carry these figures over to the published machine, its commit (37ec3bc) was built and run on the slower one, alternating with the executable of 6865916, three turns each of this row as `npm run bench -- --rows month --exe …` runs it (2026-11-29): 37ec3bc gave 546–664 lists/s, p50 14.0–17.2 ms, p99 31.9–37.6 ms there, against 1,099 lists/s, 8.50 and 18.4 ms in the published run (~1.8× the lists, about half the p99 on the published machine), and 6865916 beside it 1,017–1,227 lists/s, p50 7.45–9.10 ms, p99 19.6–23.1 ms: 1.7–2.0× the lists of 37ec3bc and 0.57–0.67× its p99 in each pair. At those ratios the published machine would give ~1,900–2,200 lists/s at a p99 of ~10.5–12.5 ms; that is a projection, not a measurement, so the row stays missed until the benchmark is run there. Where the time of a list goes on the slower machine (the executable with timestamps added, not kept; medians and 99th percentiles of ~14,000 lists at ~1,270 lists/s): waiting in the queue for a worker with room 1.9 and 8.0 ms, from the dispatch to the worker starting it (behind the list before it) 0.9 and 5.1 ms, its SQL 0.75 and 4.6 ms, its answer reaching the event loop 0.7 and 5.4 ms; 4.6 and 15.2 ms in all in the server against 7.3 and 18.3 ms at the client. Each part's 99th percentile is 4–8× its median, the SQL's too: with three busy threads and the load generator on two cores, a thread that loses its core waits for another's time slice, whichever part of a list it is in. The name lookups once per list and no subquery between the range and the aggregate were worth most of it: in-process, the same aggregate fed by the joins or through an ordered subquery gained 20 % and 10 %. Before: until sql/009 each " +
    "entry's whole JSON was stored twice (730 MiB with its indexes, 70 % of the file) and a " +
    'month was read as ~550 stored texts joined (~0.3 ms of CPU in-process); now it is ' +
    'written at read time from rows that hold no borrowed names (~0.8 ms), so the file is ' +
    '1.47× its plain tables and a rename touches one small row. In-process, turning every ' +
    "entry's row into text costs ≥ 0.6 ms a month however much of it is prepared: with the " +
    'JSON pre-written in two pieces per entry (303 MiB, keys included) ~0.6 ms, with its ' +
    'values prepared (today, 154 MiB) ~0.8 ms, with nothing but the uuid ~0.28 ms, ~0.14 ms ' +
    'of which are the three name lookups; building the JSON in JavaScript from the raw ' +
    'columns instead is slower (~1.8–2.5 ms: a V8 value per column), and a deflated copy ' +
    "of each month's body in the file (~49 MiB on this set) holds the names it borrows, so " +
    'a rename would rewrite every month that shows them, and every write to a month would ' +
    'inflate, change and deflate it (~1.2 ms). Only the whole ' +
    'text stored per entry reads as fast as before, and it alone (~290 MiB on this set) is ' +
    'more than the 1.5× file budget leaves (~170 MiB). This round: the slot leak above had ' +
    'put every list of this row on the event loop (one thread; 869 req/s, p99 35 ms in the ' +
    'last published run); with it fixed and one list worker per core the event loop does ' +
    'only HTTP (~0.3 ms a list), and side by side on this machine (same build, alternating ' +
    'runs) two workers gave 854–1,007 req/s at p99 22.7–26.8 ms against 567–569 req/s at ' +
    'p99 54 ms for one worker with the event loop reading what it could not take. Two ' +
    'threads writing JSON at once each spend ~1.4× the CPU per list that one thread does ' +
    '(0.53–0.7 ms each against ~0.8 ms for the pair in-process, per-thread CPU from /proc), ' +
    'so the two cores give ~1.3× one, not 2×. Lists used to be sent to a worker as soon ' +
    'as they were asked, four or five queued behind each, and waited for it whenever its ' +
    'core was taken for a while; with one queue on the event loop and two lists at a time ' +
    'per worker, five alternating turns per build gave p99 16.1–22.8 ms (1.8–2.0× the ' +
    'median) against 18.6–25.1 ms (2.0–2.5×) at the same rates (819–1,149 against ' +
    '849–1,112 lists/s). At ~1,000 lists/s ten connections queue for ~10 ms on average ' +
    '(p50 ~9–10 ms); p99 < 15 ms would need ~1,500 lists/s, i.e. a month read in ~0.5 ms ' +
    'of CPU: what would close it is more cores, or a stored copy of each ' +
    "entry's whole text (the file budget), or a cache of month bodies. Kept whole (~180 KB " +
    'a month) the 500 months this row cycles through would not fit the 150 MB RSS target; ' +
    'deflated (level 1: ~27 KB a month, 6.5×, ~13 MB for the 500) they would, and a hit ' +
    'costs ~0.35 ms of inflating against ~0.85 ms to write the month, but each of them is ' +
    'asked for ~30 times a run, so the row would measure the cache rather than the reading ' +
    'of a month: not built. Tried and not kept: wrk instead of autocannon (one C thread; ' +
    'autocannon takes ~¼ of a core here), with which the month row did no better in the ' +
    'same runs (1,199–1,202 lists/s at p99 16.1–17.0 ms against 1,247 at 16.8 ms) while ' +
    'the bare server went from ~35,000 to 55,000–70,000 req/s and row 1a fell to 24–29 % ' +
    'of it; one list at a time per worker (724–870 against 855–1,141 lists/s side by ' +
    'side); joining the project and activity slugs as one pair from a table keyed by ' +
    'both (~5 % slower in-process, and 8 MB more file); and memory-mapped reads ' +
    '(`mmap_size` 1 GiB on the read-only connections): 14–19 % more months a second ' +
    'in-process but within the noise over HTTP (586–650 against 549–612 lists/s, four ' +
    'alternating turns on a slower machine), and every page of the file they touch counts ' +
    "in the server's RSS (VmHWM 471 against 125 MB after 8 s of month lists); and the " +
    'quotes of the uuid and the date written into the template instead of by ' +
    '`json_quote` (7–8 % less in-process, the statement split by parts on the slower ' +
    'machine: ~13 % reading the rows, ~18 % the three name lookups, the rest writing the ' +
    'values), which would trust that neither column ever holds a `"` or a `\\`: nothing ' +
    'in the schema checks them, so another writer could break every list of that month. ' +
    'Nor was writing the JSON in JavaScript from one packed text per entry (its values in ' +
    'order, written by the triggers): the texts of a month read as one `group_concat` ' +
    '(0.30–0.38 ms in-process) and written out by one loop over their bytes that puts in ' +
    'the keys and the names (0.70–0.90 ms) came to 79–111 % of the statement side by side ' +
    '(1.05–1.36 ms), with the table at 224 instead of 159 MiB.',
  create:
    'Closing the gap: what is left per create is its statements (~250 µs in-process, the ' +
    'index inserts and the JSON the largest) and HTTP; the checkpoints, most of the cost ' +
    'before, are on another thread (see Hot spots). Beyond that: fewer indexes on `times` ' +
    '(`times_project_date` serves only project filters, which `times_date` could with a ' +
    'scan of the range), or the JSON written in JavaScript instead of by SQLite.',
  storm:
    'Closing the gap: met. The pool is capped at cores − 1 (here one worker): logins/s ' +
    'halve during a burst, reads keep their latency (partial runs, 5 s turns: reads ' +
    '3,429–4,162 → 4,389–5,007 req/s, p99 9.4–10.6 → 6.7–7.4 ms, RSS of this row and the ' +
    'two after it 129–133 → 120–124 MB). Beyond that, a machine with more cores than ' +
    'concurrent logins.',
  whole:
    'Closing the gap: the stream itself is flat (see the RSS before and during it); the RSS ' +
    'it starts from is what earlier rows left behind (see Memory below).',
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
  if (row.rename) figures.push(renameLine(row.rename));
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
  '**Fixed — the JSON of listed times** (src/times/store.ts). A profile of the month row',
  "showed 69 % of the server's busy time in stepping the list statement and ~8 % in",
  '`formatDate` and the row → object mapping, then `JSON.stringify` of every entry. SQLite',
  "now writes each entry's JSON (`json_object`, dates by `date()`), and a listed entry is",
  'one text column joined into the response: no JavaScript object per row. In-process, a',
  '~320-row month with the JSON went from 5.1 to 2.4 ms. Through HTTP, the full run of',
  '12:30 UTC (commit 1b7fee1) against a run of these rows at 13:00 UTC (commit 84fcb73),',
  'the bare server at ~42,800 req/s in both: the month row 148 → 250 req/s (p50 60 → 35',
  'ms, p99 131 → 81 ms), the whole list 9.1 → 5.3 s (119,000 → 187,000 rows/s). The table',
  'above comes from a later hour in which the shared host ran ~40 % slower (bare server',
  '~22,000–28,000 req/s): compare its ratios, not its absolute figures. Single entries',
  '(GET, POST answers) use the same SQL, so there is one way a time becomes JSON.',
  '',
  '**Fixed — `count(*)` for short lists** (src/http/list.ts). `X-Total-Count` came from a',
  '`count(*)` over the same filters before the first row (~0.4 ms on a month). The first',
  '1,000 rows are now read first; a list that ends within them knows its total, gives its',
  'read connection back before writing to the socket (so 10 concurrent months no longer',
  'hold 10 connections and their page caches), and goes out in one piece with a',
  '`Content-Length`. Longer lists are counted in the same snapshot and streamed on.',
  '',
  '**Issue 20, the run before it** (2026-11-23 22:15 UTC, commit d7275bd, same data set',
  'and settings, 6 s per row, load 1.3 before and 2.4 after — set it beside the load of',
  'the table above; ratios compare best): 1a 5,335 req/s, 29 % of bare, p99 9.2 ms; 1b 4,414 req/s,',
  '25 %, p99 11.7 ms; month 99.5 req/s, p99 453 ms (in-process 155/s); create 793/s',
  '(in-process 1,686/s); update 1,715/s; report month p50 13.6 ms (633 req/s); report year',
  'p50 764 ms (in-process 2.56/s); storm p99 20.1 ms; whole list 154,063 rows/s; CSV',
  '138,705 rows/s; peak RSS 204 MB (183 MB in row 1a, 176 MB in row 3).',
  '',
  '**Fixed — stored time JSON** (issue 20; sql/004, src/times/json-store.ts). Every',
  "entry's API JSON is kept in `time_json`, rewritten in the transaction of every write that",
  "changes it (a project's or an activity's slug change marks its entries' JSON NULL, which",
  'readers compute and the server fills again in the background). In-process on the',
  '1,000,000-entry set, 50 user-months of ~560 entries read in turn, 16 MiB cache, load',
  '4–5: 1.3–1.5 ms per month stored against 2.6–2.8 ms computed; with the 2 MB default cache',
  '4.1 against 7.5 ms.',
  '',
  '**Fixed — SQLite page cache** (src/db/open.ts). 16 MiB per connection instead of the',
  '2 MB default. The same in-process month, stored JSON, one run at load 4–5 in turn with',
  'each size: 2 MB 3.8–7.5 ms, 4 MB 3.5–5.5 ms, 8 MB 2.9–3.1 ms, 16 MB 1.6–2.5 ms (the',
  'interior pages of the table, `time_json` and the index stay cached; leaves still come',
  'from the OS). Earlier, creates in-process rose from ~1,000 to ~1,800/s with 64 MB.',
  'Since sql/005 only the writer keeps 16 MiB; the read-only connections are back to',
  '2 MiB (see the next entry).',
  '',
  "**Fixed — one user's month as one range of pages** (issue 20; sql/005,",
  'src/times/json-store.ts, src/http/respond.ts). `time_user_json` (WITHOUT ROWID, key',
  'user_id, date_worked, time_id) keeps what a list by user needs — project, deletion,',
  'last change, uuid and a second copy of the stored JSON — so a month is ~45–65',
  'neighbouring pages; triggers on `times` give every entry its row and move its key,',
  'and every write of an entry rewrites the rest in its transaction (slug changes mark',
  'both copies NULL). It is kept beside `time_json`, not instead: looked up one entry at',
  'a time (single reads, the whole list in order of change) its wider tree answered',
  'at 55–67 % of the rowid lookups of `time_json` in-process. Its cost: +397 MiB on the',
  '1,000,000-entry file (669 → 1,066 MiB), one more row written per create and update',
  '(in-process `times.create`, 12 alternating 2 s turns at load 5–8 with a ±25 % spread:',
  'median 875 against 984 creates/s, about −11 %; copying the row costs ~3 % of it, the',
  'insert into the wider tree the rest, and an upsert instead of the trigger was no',
  'faster), and ~12 s of migration on that set. In-process on it, five alternating 1 s turns of',
  'the month statement (load 8–9): 8.3 → 3.2 ms with 16 MiB caches, 14.3 → 2.1 ms with',
  '2 MiB; at load ~4, 2.8 → 1.0 ms. Through HTTP, the old and the new executable side by',
  'side on copies of their data sets, four alternating 4 s turns of one month at 10',
  'connections (load ~6): 106–129 → 278–391 req/s, p50 69–86 → 22–33 ms, p99 168–224 →',
  '61–111 ms. In the same change the response of a list sent in one piece is written',
  "into one buffer: the profile had shown `Array.prototype.join` of the month's ~550",
  'texts (~1 ms for 160 KB), `Buffer.byteLength` and the encoding on write above the',
  'statement itself; in-process ~0.1 ms now.',
  '',
  '**Fixed — caller per request** (src/auth/token.ts, src/users/holder-cache.ts). A',
  "verified token's claims are kept (its expiry checked on every use), and so is its",
  "holder (the user's flags and revocation time), forgotten on every user write and",
  'whenever `PRAGMA data_version` shows another process committed;',
  'test/api/consistency/stale-reads.test.ts changes flags, passwords, activity and deletion while reads run.',
  '',
  '**Fixed — the log line** (src/log.ts). One synchronous write(2) per request line to',
  'stdout; now one per turn of the event loop. In a loop of 100,000 lines to a file at load',
  '~8: 14.7–20.9 µs per line unbatched, 4.4–5.4 µs batched.',
  '',
  '**Fixed — report indexes** (issue 15; sql/004). `times_user_date` now covers (user_id,',
  'date_worked, project_id, duration, deleted_at) and a new `times_date` (date_worked,',
  'project_id, user_id, duration, deleted_at) serves a range of dates over everyone; the',
  "list's filters are held to their own index (`INDEXED BY`) so that statistics never",
  'switch them to `times_date`. Their cost on writes, in-process `times.create` on two',
  'copies of the 1,000,000-entry set, 20 alternating 1 s turns at load 4–5 (bimodal from',
  'the load): median 1,526 creates/s with the indexes against 1,566 without (−3 %), upper',
  'quartile ~2,250 against ~2,440 (−8 %). Their gain, in-process on the same set one',
  'after the other (load ~7): a year of everyone by project and month 118–125 ms from',
  '`times_date` against 488–616 ms reading the table (`NOT INDEXED`, as before); one',
  "user's month by day went from 633 to 2,242 req/s through HTTP (p50 13.6 → 3.6 ms) in",
  'runs at load ~2 and ~8 respectively. What was left of the year was the GROUP BY sort of',
  '~330,000 index entries (next paragraph).',
  '',
  '**Fixed — the year report** (issue 15; sql/006, src/reports/store.ts). Durations and',
  'counts per (month, project, user), live and deleted apart, kept by triggers on `times`;',
  "a report of everyone over whole months sums those rows, and the edges' partial months",
  'come from `times_date`. In-process on the 1,000,000-entry set, the old and the new code',
  'in turn in one process (7 turns, medians, load 2–7): a year by project and month 213 →',
  '18 ms, a year by month 78 → 1.9 ms, a year less two half months by user and project 194',
  "→ 17 ms, one user's month by day 0.40 → 0.40 ms; every answer identical. A first step,",
  'summing per day and project in index order and grouping those rows (no sort of the',
  'entries), gave 129 → 92 ms; it stays for the groupings by day and week. Cost: 22,583',
  'rows (~0.6 MB) on this data set, 2 s to build them at migration, and one more B-tree',
  'upsert per write (two when an update moves an entry).',
  '',
  '**Fixed — checkpoints in the COMMIT** (src/db/checkpointer.ts). Timed in-process, 3,000',
  'creates in transactions of 10: statements ~220 µs per create, COMMIT ~250 µs, of which',
  "~200 µs were SQLite's automatic checkpoint (every ~1,000 WAL pages, 22 commits of 5–50",
  'ms) and, with `synchronous = OFF`, 73 instead of 591 ms: the wait was the fsync. A worker',
  'thread with its own connection now runs PASSIVE checkpoints every 100 ms; since the WAL',
  'starts over only at a write that finds all of it copied, which a copy beside a stream of',
  'writes seldom leaves, the worker asks the write queue to pause (the event loop goes on)',
  'when the WAL passes 1,000 pages, and the writer keeps its own checkpoint at 4,000 pages',
  '(16 MiB) as a backstop. Without the pause a loop of creates grew the WAL to 900 MB. The',
  'same 20,000 creates through the write queue, 10 at a time, alternating: 1,829 and 1,814/s',
  'with the checkpoints in the writer, 2,906 and 2,455/s with the worker (load ~3).',
  '',
  '**Fixed — one transaction per write** (src/db/write-queue.ts) and **the read-back**',
  "(src/times/json-store.ts). A create's response is the JSON its write stored (`UPDATE …",
  'RETURNING`), and the writes of one event-loop turn share a transaction. In-process,',
  'alternating with the code before them (5 turns of 1 s, medians, load ~4): 1,186 creates/s',
  'before, 1,308 without the read-back, 1,430 grouped by 10; updates 1,373 → 1,404 → 1,406.',
  'Small beside the checkpoints, which were most of the commit.',
  '',
  "**Fixed — the month's ORDER BY … LIMIT** (issue 20, third round; src/times/store.ts",
  'timeList). The page statement of a list ends in `ORDER BY … LIMIT ? OFFSET ?`; with any',
  'LIMIT (even -1) SQLite keeps the best rows in a B-tree instead of sorting with its',
  "sorter, and a month's rows carry ~300 bytes of JSON each. In-process on the",
  '1,000,000-entry set, 500 user-months in turn (quiet machine): the page read with the',
  'JSON joined in JavaScript ~790–960 µs; the same rows sorted without a LIMIT and joined by',
  '`group_concat` into one BLOB ~310–340 µs; without any ORDER BY ~335 µs (so the sort itself',
  'is cheap). A capped LIMIT before the sort was no help (~600 µs: the sorter over a',
  'co-routine), so a short list is counted first, in the covering `times_user_date` (~50',
  'µs, against ~120 µs over `time_user_json`), and read whole only when it ends within the',
  "first 1,000 rows; 1,200 lists (users' months and everyone's months, as owner and as",
  'admin) gave byte-identical bodies. Through HTTP (executable, 10 connections, 6 s turns,',
  'quiet machine): the month 700–800 → 1,320–1,350 req/s, p50 11–13 → 6.6 ms, p99 25–33',
  '→ 15.4–16.6 ms, user CPU per month 1.1–1.2 → 0.56 ms.',
  '',
  "**Fixed — the sort of one user's month** (sql/007, src/times/store.ts). time_user_json",
  'was keyed (user_id, date_worked, time_id): a month was one range, but in date order, and',
  'SQLite sorted its ~550 rows of ~300 bytes by last change for every read. In-process on',
  'the 1,000,000-entry set (600 months, 2 MiB cache): body 293 µs, 184 µs without the ORDER',
  'BY. Keyed (user_id, month, changed_at, uuid), with the single user by equality (an IN',
  "list made SQLite sort all the same) and the dates' months added to the WHERE, a calendar",
  'month is one range in list order: 380–388 → 255–289 µs wall, user CPU 290 → 166–187 µs',
  'in the same run (a busier hour than the first figures), and the 600 bodies are',
  'byte-identical. Other dates read the range of their months and sort it. A write finds',
  'its row by a new index on time_id; a change moves it to the end of its month. Quick',
  'turns, old and new executable on their own data sets, alternating (8 s, 10',
  'connections): month p99 16.5 and 16.0 → 14.5 and 12.9 ms (1,848–1,867 → 1,850–2,046',
  'req/s); creates 2,005–2,124 → 2,053–2,444/s; updates 2,629–2,681 → 2,202–2,538/s (the',
  'noisiest row; each update now moves a row in two B-trees). The migration took 8.0 s on',
  "the 1,000,000-entry set; the old table's pages stay in the file as free pages, reused",
  'by later writes (1,066 → 1,471 MiB, 337 MiB of it free; a new data set is 1,143 MiB).',
  '',
  '**Fixed — short lists on a worker thread** (src/db/short-lists.ts,',
  'src/db/short-list-worker.ts). A worker with its own read-only connection reads short',
  'lists whole, so that the SQL of one month runs on the second core while the event loop',
  "answers others. Handing the worker's result buffer over (transferred, not copied) made",
  "months ~2,000 req/s at p99 13–14 ms but added ~50 MB of RSS: glibc's malloc_stats",
  "(through gdb) showed 57–65 MB malloc'd against 24 MB, most of it in the worker thread's",
  "arena, where each ~170 KB body was allocated and from which the event loop's garbage",
  'collector freed it much later. Apart from the server, 6,000 months read with 10 in',
  'flight: 89 MB RSS on the event loop, 143 MB from a worker with transferred buffers (a',
  'minor collection on the event loop after each did not help), 97 MB when the worker',
  'copies each body into a slot of a shared buffer and drops its own, ~15 % faster than',
  'the event loop alone. So the worker copies each body into one of 16 slots of 256 KiB,',
  'each taken again when its response closes, and runs a minor collection every 16 lists',
  '(49 → 24 MB in use). Started with the server and kept for its life (commit ab91e25, a',
  'full run at 06:30 UTC) it met the month (2,014 req/s, p50 4.67 ms, p99 11.3 ms) but',
  'took the peak RSS to 175 MB: the worker costs ~15–18 MB (its V8 isolate ~10 MB, its',
  'arena ~8 MB) in every row. Two changes made room. The old generation no longer grows to',
  '4 × what survived (below). And the worker starts once a short list has been read and',
  'exits after 10 s without one, as the bcrypt workers do, so rows that read no month (the',
  'login storm, the streams) do not carry it. With only the first of the two (commit',
  '99d4bce, the worker kept, a full run at 07:21 UTC, load 1.7–2.2): month 1,966 req/s,',
  'p99 10.7 ms, but peak RSS 156 MB, reached in rows 5, 6 and 9 (152–155 MB, against',
  '136–137 without the worker). Started by any list asked for (commit 3398fce, 07:30 UTC):',
  'the whole-list row started it again for nothing (each whole list is first counted to',
  'see whether it is short), and rows 6 and 9 peaked at 170–173 MB; now only a list found',
  'short starts it (partial runs of rows 2, 5, 6, 9, 5 s each: peak 149 → 134 MB, row 6',
  '147 → 128 MB).',
  '',
  "**Fixed — V8's old generation grew to 4 × what survived** (src/heap-growth.ts). After",
  'each full collection V8 sets the next one at a multiple of what survived, up to 4 × when',
  'collections are quick, as they are on a heap of ~11 MB: under the first row of reads',
  '(`--trace-gc`, set at run time) the heap reached 45 MB before it was collected back to',
  '11 MB. `serve` now sets `--heap-growing-percent=30` itself, read each time V8 sets that',
  'limit, so the heap grows to 1.3 × (~20 MB). Quick turns of time then month reads',
  '(executable, 6 s each, three alternating runs per setting): peak RSS 135–137 → 110–117',
  'MB; time reads 8,055–8,684 → 8,401–9,076 req/s and 81–94 → 82–93 µs of user CPU each,',
  'the same within noise (20 % and 50 % gave the same as 30 %). With `--heap-growing-percent=100`',
  'run from the sources, where the heap is larger, full collections under month reads fell',
  'from 147 to 18 in 10 s and p99 from 19.1 to 13.3 ms; in the executable they were',
  'already ~15 and p99 did not move.',
  '',
  '**Tried and left out — writes held to the end of the turn.** Each response wakes the',
  "load generator's socket (`sock_def_readable`, ~8 % of the server's time under row 1a).",
  'Corking every socket that received a request and uncorking them all in `setImmediate`,',
  'so that the responses of one turn leave together: time reads 8,260–8,338 against 8,971',
  'req/s, user CPU per read 95 against 86 µs: slower. A larger young generation',
  '(`--min-semi-space-size=4`, half the scavenges) gave the same req/s as 1 MB.',
  '',
  '**Tried and left out — more threads or fewer statements for the month.** Reading a',
  'month on the event loop whenever the worker had 2 or 3 lists waiting made it worse',
  '(p99 21.6–26.5 against 15.5–17.5 ms in the same quick turns): the event loop then spent',
  "its time in SQL and the worker's answers waited. Counting and joining one user's month",
  'in one statement (its rows come in key order, so a LIMIT costs no sort) instead of a',
  'capped count and the body: 1,200 identical bodies, and no time saved (297–300 against',
  '280–311 µs in-process, in the same position of the loop).',
  '',
  '**Fixed — the request path, fifth round** (issue 20; src/log.ts, src/http/router.ts,',
  'src/auth/session.ts, src/users/holder-cache.ts, src/projects). Turns of two executables',
  'side by side on the same data, 3 s each, alternating (load 0–2), time reads:',
  "the log line written out field by field instead of spreading the fields into the line's",
  'object and stringifying it (`Logger.request`, the same bytes): 8,936 → 11,035 req/s,',
  '114 → 93 µs CPU each; with the log off altogether 11,300–12,300, so the line now costs',
  'little. The router grouping its patterns once and matching without making a params',
  'object, a Map and arrays for every route of the same length, and the actor built field',
  'by field instead of spread: 10,234 → 12,517 req/s, 100 → 82 µs. `PRAGMA data_version`',
  'probed once per batch of requests that one poll of the sockets gave (each of them',
  'arrived before the probe, so whatever was committed before it was sent is seen;',
  'test/api/consistency/stale-reads.test.ts runs reads while another process changes a password): 12,453',
  '→ 13,129, 82 → 78 µs. X-Request-Id added to the object writeHead is given',
  '(src/http/identified-response.ts) instead of set up front, which sent every answer down',
  "node:http's slower path of headers set one by one: 9,800 → 10,589 req/s, 104 → 97 µs",
  "(a slower hour of the machine). The viewer's role in the project read by a second",
  'statement only when the answer depends on it (a role only adds permission; the owner',
  'and site-wide viewers need none): 11,069 → 11,543, 92 → 89 µs; the statement itself',
  'went from ~8 to ~6 µs in-process. Project reads: the users map from SQL in the shape',
  'the API shows and the JSON object built without spreading the row: 8,319 → 8,753',
  "req/s; then the current revision's whole object written by SQLite (`projectJsonSql`,",
  'the same bytes; JavaScript maps only earlier revisions), 5,573 → 6,890 on a slow hour,',
  '179 → 145 µs each; then GET without revisions reading that text alone, with no row',
  'object of nine columns made for it, 9,313 → 10,377, 110 → 98 µs. Tried and',
  'left out: authenticating a GET without a turn of the event loop (no promise until a',
  'POST body is awaited) gave 11,502 against 11,502 req/s; the log written into a Buffer',
  'instead of a string, 10,543 against 10,358; calling GET handlers without the write-lock',
  'retry wrapper, 10,767 against 11,219 (within the noise of those turns).',
  '',
  '**Fixed — the request path, sixth round** (issue 20; sql/008, src/projects/json-store.ts,',
  'src/times/store.ts, src/http/client.ts). Same method (two executables, alternating 3 s',
  "turns, the machine's speed moving ~30 % within the hour, so compare within a pair).",
  "Each project's API JSON stored (`project_json`, sql/008) and read alone by its live",
  'slug: project reads 9,272 → 14,655 req/s, 109.8 → 70.0 µs CPU each; in-process the',
  'statement went from 11.5 to ~4 µs, and under load it had cost far more than that (the',
  'five subqueries and JSON functions it no longer runs). Triggers make the stored text',
  'NULL in the transaction of any change that alters it, whoever writes, and the',
  "server's own project and activity writes compute it again before they commit. GET",
  '/times/:uuid reading the stored JSON with a statement of its own, the computation in',
  'a second statement run only when the JSON is stale: 8,705 → 9,929 req/s, 115.8 →',
  '102.3 µs, and 9,777 → 10,318, 101.8 → 97.4 µs (a statement carrying a `coalesce` with',
  'the whole computation cost more per call even when it never ran it). Request ids from a',
  'random per-process UUID prefix and a counter instead of `randomUUID` per request (~600',
  'of the ~14 KB a time read allocated, sampled with every allocation counted): 11,186 →',
  '11,242, within the noise; the time row read as an array instead of an object, which',
  "better-sqlite3 builds through V8's slow API: 12,337 → 12,848 req/s, 82.9 → 79.8 µs; both",
  'together 10,227 → 11,089 and 10,105 → 11,216 req/s, ~100 → ~91 µs. Tried and left out:',
  "V8's scavenges without helper threads (`--no-parallel-scavenge`, settable at run time):",
  'time reads 94.2 → 87.2 and 91.3 → 84.9 µs, but month reads 2,187 → 1,358 req/s (p99',
  '13.3 → 24.0 ms) and 1,812 → 1,727 (p99 15.1 → 18.1), so the pauses stay parallel; a',
  '32 MiB page cache for the writer (a time read touches three leaves of million-row',
  'B-trees, ~0.6 `pread` per read under load): 9,115 → 9,329 req/s, not worth 16 MB of',
  'RSS; handling a request with no promise at all when its handler finishes at once',
  '(the server, the write-lock retry and authentication synchronous for a GET): 11,460 →',
  '11,589 and 11,683 → 11,403, noise, so the async code stays as it was.',
  '',
  '**Changed — derived data by triggers alone** (issue 30; sql/009, src/times/json-sql.ts).',
  "An entry's API JSON is no longer stored: `time_json` (328 MiB and a 69 MiB index) and",
  '`time_user_json` (404 MiB) are gone, and each read writes the JSON from',
  "`time_user_rows` (154 MiB: the entry's own fields clustered by user and month, the",
  'dates and quoted texts already JSON) and three small tables of the names it borrows',
  '(`project_slug_lists`, `activity_sets`, `users`). Triggers keep every derived row',
  'exact in the writing transaction, whoever writes (the sqlite3 shell included); no',
  'service marks anything stale. The 1,000,000-entry file: 1,142 → 496 MiB (plain tables',
  '341 MiB: 3.3× → 1.45×). In-process: a single time read ~13 → ~17 µs of CPU (1a stays',
  'met: 36 % of bare), a month ~0.3 → ~0.8 ms (row 2 misses, see above), a rename of a',
  '106,296-entry project from ~0.6–1.9 s in the request to ~1.4 ms in the server (row',
  '10). Creates answer the JSON read back in their transaction instead of an',
  '`UPDATE … RETURNING`: 2,350 → 2,245/s (met). The next short list is read on the event',
  'loop while the worker has two (src/db/short-lists.ts), so both cores write JSON (the',
  'worker alone, in a run of row 2 by itself: 770 req/s, p99 40 ms).',
  '',
  '**Fixed — bcrypt workers for good.** The pool started by the first logins kept its',
  'isolates for the life of the server; a worker now exits after 10 s without a task.',
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
      'Memory grows with the work in flight, not with the data (the whole-list stream is ' +
      "flat). Under a high allocation rate V8 grows its young generation's semi-spaces " +
      'from 1 to 16 MB each, and their pages and what glibc has freed stay resident: ' +
      '`serve` now sets `--semi-space-growth-factor=1` itself, first thing in the bundle ' +
      '(src/heap-growth.ts; `--max-semi-space-size` cannot be set after V8 starts and a ' +
      'Node 20 single executable has no execArgv). Sampled in the executable under 10 s of ' +
      'month reads (load ~8): the young generation stayed at 2 MB (briefly 8 MB) instead of ' +
      'growing to 32 MB, peak RSS 113 MB; the same flag set later, in `serve()`, let it grow ' +
      "to 32 MB. But starting a worker thread sets V8's flags again from the command line: " +
      'once the first login had spawned a bcrypt worker the setting was undone and the young ' +
      'generation grew to 32 MB all the same (the 213 MB peak of the run before this one). ' +
      'Every worker thread (bcrypt, WAL checkpoints, short lists) now starts through one ' +
      'function that sets it again as the worker comes online (src/heap-growth.ts ' +
      'startWorker): in the executable, ' +
      'one login then 6 s of time reads and 6 s of month reads, new space 32 → 2 MB and RSS ' +
      'after them 145 → 104 MB, as with `NODE_OPTIONS=--max-semi-space-size=1`. It also ' +
      'sets `--heap-growing-percent=30`: the old generation grows to 1.3 × what survived ' +
      'the last full collection instead of up to 4 × (see Hot spots). The ' +
      'read-only connections keep 2 MiB of page cache each, the writer 16 MiB ' +
      '(src/db/open.ts). A bcrypt worker (one V8 isolate each) exits after 10 s without a ' +
      'task (src/auth/password.ts): the pool the first logins start no longer stays for the ' +
      "server's life, so only rows with logins (row 5) carry it; the short-list worker " +
      '(src/db/short-lists.ts, ~15–18 MB each, two on this machine) start once short lists are ' +
      'read and exit after 10 s without one, so only the rows of month lists carry them. What is left at the peak: ' +
      "the writer's cache, the V8 old generation and the allocator; `MALLOC_ARENA_MAX=1` " +
      'saved ~9 MB on row 1a.',
    '',
    ...HOT_SPOTS,
    ...(r.profile ? ['## CPU profile', '', ...profileLines(r.profile), ''] : []),
  ];
}
