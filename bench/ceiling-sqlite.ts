// The SQLite ceiling of SPEC §9: the same prepared statements the server runs for each
// row, called in a loop in this process (no HTTP, no auth, no event loop). Uses the
// server's own stores and services (built by createApp, as `serve` does), so the SQL
// is exactly the SQL that answers the requests.
import { type App, createApp } from '../src/app';
import { createPasswordHasher } from '../src/auth/password';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open';
import { createReaderPool } from '../src/db/readers';
import { createLogger } from '../src/log';
import type { Actor } from '../src/policy';
import { toProjectJson } from '../src/projects/store';
import { timeListFilters } from '../src/times/filters';
import { type TimeRow, timeListQuery, toTimeJson } from '../src/times/store';
import type { Sidecar } from './generate';
import { createRng } from './prng';
import type { RowId } from './report';
import type { Scenarios } from './scenarios';

export interface InProcess {
  /** What was run, in words. */
  what: string;
  /** Statement(s) alone, per second. */
  opsPerSec: number;
  /** Statement(s) plus the row → JSON mapping and JSON.stringify, per second. */
  jsonOpsPerSec?: number;
}

/** Calls fn as often as it can for `seconds`; calls per second. */
function rate(seconds: number, fn: () => void): number {
  const started = performance.now();
  const until = started + seconds * 1000;
  let n = 0;
  while (performance.now() < until) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
  }
  return n / ((performance.now() - started) / 1000);
}

export function measureInProcess(
  file: string,
  s: Sidecar,
  sc: Scenarios,
  seconds: number,
): Partial<Record<RowId, InProcess>> {
  const config = loadConfig({ db: file, port: 0, host: '127.0.0.1' }, {});
  const db = openDatabase(file);
  const readers = createReaderPool(file);
  const passwords = createPasswordHasher(1);
  const app = createApp({
    config,
    log: createLogger('error'),
    db,
    readers,
    passwords,
    secretKey: 'x'.repeat(32),
  });
  try {
    return measure(app, s, sc, seconds);
  } finally {
    void passwords.close();
    readers.close();
    db.close();
  }
}

function measure(app: App, s: Sidecar, sc: Scenarios, seconds: number) {
  const rng = createRng(7);
  const actors = new Map<string, Actor>();
  const actor = (username: string) => {
    let a = actors.get(username);
    if (!a) {
      a = app.userStore.findActor(username) as Actor;
      actors.set(username, a);
    }
    return a;
  };
  const out: Partial<Record<RowId, InProcess>> = {};
  const each = seconds / 2;

  const times = s.timeSamples.map((t) => ({ uuid: t.uuid, viewer: actor(t.user).id }));
  const oneTime = () => {
    const t = rng.pick(times);
    return app.timeStore.findByUuid(t.uuid, t.viewer);
  };
  out.time = {
    what: 'timeStore.findByUuid (one statement)',
    opsPerSec: rate(each, oneTime),
    jsonOpsPerSec: rate(each, () => JSON.stringify(toTimeJson(oneTime() as TimeRow))),
  };

  const oneProject = () => app.projectStore.findBySlug(rng.pick(s.projectSlugs));
  out.project = {
    what: 'projectStore.findBySlug (one statement)',
    opsPerSec: rate(each, oneProject),
    jsonOpsPerSec: rate(each, () => JSON.stringify(toProjectJson(oneProject() as never))),
  };
  out.storm = out.project;

  const months = s.userMonths.map((m) => {
    const query = new URLSearchParams({ user: m.user, start: m.start, end: m.end });
    const q = timeListQuery(timeListFilters(actor(m.user), query, app));
    return {
      count: app.db.prepare(q.countSql).pluck(),
      page: app.db.prepare(q.pageSql),
      params: q.params,
    };
  });
  const oneMonth = () => {
    const m = rng.pick(months);
    m.count.get(...m.params);
    return m.page.all(...m.params, -1, 0) as TimeRow[];
  };
  out.month = {
    what: 'the count and page statements of GET /times for one user-month',
    opsPerSec: rate(each, oneMonth),
    jsonOpsPerSec: rate(each, () => JSON.stringify(oneMonth().map(toTimeJson))),
  };

  const parse = (body: string | undefined) =>
    JSON.parse(body ?? '{}') as { object: Record<string, unknown> & { user?: string } };
  const creates = sc.creates.map((r) => parse(r.body).object);
  out.create = {
    what: 'times.create (validation, one write transaction, read-back), in-process',
    opsPerSec: rate(each, () => {
      const o = rng.pick(creates);
      app.times.create(actor(o.user as string), o);
    }),
  };
  const owners = new Map(s.timeSamples.map((t) => [t.uuid, t.user]));
  const updates = sc.updates.map((r) => {
    const uuid = r.path.slice('/v0/times/'.length);
    return { uuid, owner: owners.get(uuid) as string, object: parse(r.body).object };
  });
  out.update = {
    what: 'times.update (validation, one write transaction with a revision, read-back), in-process',
    opsPerSec: rate(each, () => {
      const u = rng.pick(updates);
      app.times.update(actor(u.owner), u.uuid, u.object);
    }),
  };

  // The whole list: every visible row once, as the admin sees them.
  const all = timeListQuery(timeListFilters(actor(s.admin), new URLSearchParams(), app));
  const started = performance.now();
  let rows = 0;
  for (const row of app.db.prepare(all.pageSql).iterate(...all.params, -1, 0)) {
    JSON.stringify(toTimeJson(row as TimeRow));
    rows++;
  }
  out.whole = {
    what: 'iterating the whole-list statement with the JSON mapping (rows/s)',
    opsPerSec: rows / ((performance.now() - started) / 1000),
  };
  return out;
}
