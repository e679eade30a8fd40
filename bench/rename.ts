// Row 10 (issue 30): renaming the slugs of a project with 100,000 entries, and the slug of
// an activity, while one user's months are read under load. An entry's project and
// activity slugs are joined at read time (sql/009), so a rename writes a few small rows
// whatever the size of the project; this row shows it does, and that other requests
// meanwhile keep their latency.
//
// The generated data set has 200 projects of ~5,000 entries, so the row takes its own copy
// of the database, makes one project big there with one UPDATE (the triggers keep the
// derived rows and totals right, as for any writer) and starts a server of its own on it;
// every other row measures the generator's data unchanged.
//
// Then, on that server, the same month load as row 2 three times: alone, while the admin
// renames the project's slugs 10 times (one a second) and an activity's slug 10 times
// (half a second after each), and alone again. /health is polled every ~20 ms in each, a
// stand-in for pauses of the event loop. The two loads alone are taken together as the
// figures without renames, so that a drift of the machine or the server over the row (the
// first load on a fresh server answered /health faster than the later ones, renames or
// not) does not pass for an effect of the renames. One rename of another project and
// activity comes first, unmeasured, as the warm-up of the paths, and every month of the
// load is read once.
import { readFileSync } from 'node:fs';
import { openDatabase } from '../src/db/open';
import type { Sidecar } from './generate';
import { type LoadRequest, type LoadResult, type RawLoad, runRawLoad, summarize } from './load';

/** Entries moved into the big project (at most half the data set, for small runs). */
export const BIG_PROJECT_MOVED = 100_000;
/** Renames of each kind, one a second. */
export const RENAMES = 10;
/** Period of the /health polls, ms. */
const HEALTH_EVERY_MS = 20;

export interface BigProject {
  /** Its first slug in the data set. */
  slug: string;
  /** The activity renamed beside it. */
  activity: string;
  /** Another project and activity, renamed once before the measured renames. */
  warmUp: { project: string; activity: string };
  /** Its entries (deleted ones included), after the move. */
  entries: number;
  /** Entries that have the activity. */
  activityEntries: number;
  /** A live entry of the project and one with the activity: read back after the renames. */
  projectSample: string;
  activitySample: string;
  /** Time taken by the UPDATE that made the project big, s. */
  setupSeconds: number;
}

/**
 * Makes the data set's first project hold 100,000 more entries (every n-th entry, so they
 * spread over every user and month) in the database file `dbFile`, a copy the caller made
 * for this row. The users of those entries become the project's members, as they would
 * be in a team that books on it.
 */
export function makeBigProject(dbFile: string, s: Sidecar): BigProject {
  const started = performance.now();
  const slug = s.projectSlugs[0] as string;
  const activity = s.activities[0] as string;
  const db = openDatabase(dbFile);
  try {
    db.pragma('cache_size = -262144');
    const one = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...args);
    const projectId = one('SELECT project_id FROM project_slugs WHERE slug = ?', slug) as number;
    const activityId = one('SELECT id FROM activities WHERE slug = ?', activity) as number;
    const moved = Math.min(BIG_PROJECT_MOVED, Math.floor(s.times / 2));
    const every = Math.max(1, Math.floor(s.times / moved));
    db.transaction(() => {
      db.prepare('UPDATE times SET project_id = ? WHERE id % ? = 0 AND project_id <> ?').run(
        projectId,
        every,
        projectId,
      );
      db.prepare(`INSERT OR IGNORE INTO project_users (project_id, user_id, member, spectator,
        manager) SELECT DISTINCT ?, user_id, 1, 0, 0 FROM times WHERE project_id = ?`).run(
        projectId,
        projectId,
      );
    })();
    const sample = (sql: string, id: number) =>
      one(`SELECT t.uuid FROM times t ${sql} AND t.deleted_at IS NULL ORDER BY t.id LIMIT 1`, id);
    return {
      slug,
      activity,
      warmUp: { project: s.projectSlugs[1] as string, activity: s.activities[1] as string },
      entries: one('SELECT count(*) FROM times WHERE project_id = ?', projectId) as number,
      activityEntries: one(
        'SELECT count(*) FROM time_activities WHERE activity_id = ?',
        activityId,
      ) as number,
      projectSample: sample('WHERE t.project_id = ?', projectId) as string,
      activitySample: sample(
        'JOIN time_activities ta ON ta.time_id = t.id WHERE ta.activity_id = ?',
        activityId,
      ) as string,
      setupSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    db.close();
  }
}

export interface HealthPolls {
  polls: number;
  p50: number;
  max: number;
}

export interface RenamePhase {
  month: LoadResult;
  health: HealthPolls;
}

export interface RenameResult {
  big: BigProject;
  /** Response time of each rename as the client saw it, ms, in order. */
  projectMs: number[];
  activityMs: number[];
  /**
   * The same renames as the server's log times them (its request event to its answer),
   * ms: without the wait for the month lists queued before them on the event loop.
   */
  projectServerMs: number[];
  activityServerMs: number[];
  /** The month load (and /health) alone (before and after the renames), and during them. */
  alone: RenamePhase;
  during: RenamePhase;
  /** Renames or /health polls not answered 200, and entries not showing the new slugs. */
  errors: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function healthPolls(latencies: number[]): HealthPolls {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    polls: sorted.length,
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
}

/** The `ms` of the server's log lines of these POSTs (its request log, JSON lines), in order. */
function serverTimes(logFile: string, paths: string[]): number[] {
  const ms = new Map<string, number>();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"POST"')) continue;
    const entry = JSON.parse(line) as { msg?: string; path?: string; ms?: number };
    if (entry.msg === 'request' && entry.path && entry.ms !== undefined)
      ms.set(entry.path, entry.ms);
  }
  return paths.map((p) => ms.get(p) ?? Number.NaN);
}

/** Reads each of these GETs once, 4 at a time (answers dropped; each must be a 200). */
async function readEach(url: string, requests: LoadRequest[]): Promise<void> {
  const queue = [...requests];
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const res = await fetch(`${url}${r.path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${r.path}: ${res.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Polls /health every ~20 ms until stopped; its latencies. */
function pollHealth(url: string, count: { errors: number }) {
  const latencies: number[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${url}/health`);
      await res.arrayBuffer();
      if (res.status !== 200) count.errors++;
      const ms = performance.now() - started;
      latencies.push(ms);
      await sleep(HEALTH_EVERY_MS - ms);
    }
  })();
  return async (): Promise<number[]> => {
    stopped = true;
    await done;
    return latencies;
  };
}

export async function measureRenames(options: {
  url: string;
  adminToken: string;
  big: BigProject;
  monthReads: LoadRequest[];
  connections: number;
  warmupSeconds: number;
  /** Measured seconds of each month load (at least the renames' 10 s and one more). */
  seconds: number;
  /** The server's log file (its request lines time the renames inside the server). */
  logFile: string;
}): Promise<RenameResult> {
  const { url, adminToken, big } = options;
  const count = { errors: 0 };
  const post = async (path: string, object: unknown): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${url}/v0${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: { type: 'token', token: adminToken }, object }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) count.errors++;
    return performance.now() - started;
  };
  const projectMs: number[] = [];
  const activityMs: number[] = [];
  const projectPaths: string[] = [];
  const activityPaths: string[] = [];
  let project = big.slug;
  let activity = big.activity;
  const renames = async (from: number) => {
    for (let i = 1; i <= RENAMES; i++) {
      await sleep(from + (i - 1) * 1000 - performance.now());
      const slugs = [`${big.slug}-r${i}`, `big-${i}`];
      projectPaths.push(`/v0/projects/${project}`);
      projectMs.push(await post(`/projects/${project}`, { slugs }));
      project = slugs[0] as string;
      await sleep(from + (i - 1) * 1000 + 500 - performance.now());
      const slug = `${big.activity}-r${i}`;
      activityPaths.push(`/v0/activities/${activity}`);
      activityMs.push(await post(`/activities/${activity}`, { slug }));
      activity = slug;
    }
    await sleep(from + RENAMES * 1000 - performance.now());
  };

  type Raw = { month: RawLoad; health: number[] };
  const phase = async (renaming: boolean): Promise<Raw> => {
    let measuring: () => void = () => {};
    const measured = new Promise<void>((resolve) => {
      measuring = resolve;
    });
    const load = runRawLoad(
      {
        url,
        method: 'GET',
        requests: options.monthReads,
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        seconds: Math.max(options.seconds, RENAMES + 1),
      },
      measuring,
    );
    await Promise.race([measured, load]); // a load that fails does not leave us waiting
    const stopHealth = pollHealth(url, count);
    const from = performance.now() + 250;
    if (renaming) await renames(from);
    else await sleep(from + RENAMES * 1000 - performance.now());
    const health = await stopHealth();
    return { month: await load, health };
  };
  const summary = (...raws: Raw[]): RenamePhase => ({
    month: summarize(raws.map((r) => r.month)),
    health: healthPolls(raws.flatMap((r) => r.health)),
  });

  // The first call of a path compiles it and prepares its statements, as the warm-up of
  // every load does: one rename of each kind, of others, before anything is measured.
  await post(`/projects/${big.warmUp.project}`, { slugs: [`${big.warmUp.project}-w`] });
  await post(`/activities/${big.warmUp.activity}`, { slug: `${big.warmUp.activity}-w` });
  // And every month of the load read once, as the month row's server had read them in the
  // rows before it: a fresh server on a fresh copy read its first months from disk (~20 ms
  // each in the server against ~2 ms later), which made the first load alone slower than
  // the ones after it.
  await readEach(url, options.monthReads);
  const before = await phase(false);
  const during = await phase(true);
  const afterwards = await phase(false);

  // What the renames were for: the entries show the slugs they have now.
  const read = async (uuid: string) => {
    const res = await fetch(`${url}/v0/times/${uuid}?token=${adminToken}`);
    return (await res.json()) as { project?: string[]; activities?: string[] };
  };
  const shown = await read(big.projectSample);
  if (shown.project?.[0] !== project) count.errors++;
  const withActivity = await read(big.activitySample);
  if (!withActivity.activities?.includes(activity)) count.errors++;
  return {
    big,
    projectMs,
    activityMs,
    projectServerMs: serverTimes(options.logFile, projectPaths),
    activityServerMs: serverTimes(options.logFile, activityPaths),
    alone: summary(before, afterwards),
    during: summary(during),
    errors: count.errors,
  };
}

/** The middle of a list of figures. */
export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.POSITIVE_INFINITY;
