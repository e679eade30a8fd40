// The SQLite ceiling of SPEC §9: the same prepared statements the server runs for each
// row, called in a loop in this process (no HTTP, no auth, no event loop). Uses the
// server's own stores and services (built by createApp, as `serve` does), so the SQL is
// exactly the SQL that answers the requests. The runner calls each probe in turns between
// the HTTP runs, so that all three figures of a row see the same machine.
import { type App, createApp } from '../src/app';
import { createPasswordHasher } from '../src/auth/password';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open';
import { createReaderPool, type ReaderPool } from '../src/db/readers';
import { readShortHere, shortListsHere } from '../src/db/short-lists';
import { toJsonText } from '../src/json-text';
import { createLogger } from '../src/log';
import type { Actor } from '../src/policy';
import { toProjectJson } from '../src/projects/json';
import { createProjectStore } from '../src/projects/store';
import { type TimeRow, timeJsonText } from '../src/times/json';
import { createTimeStore, timeListQuery } from '../src/times/store';
import { createUserStore } from '../src/users/store';
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

/** One row's in-process work: `op` is the statement(s), `withJson` adds the mapping. */
export interface Probe {
  what: string;
  op: () => unknown;
  withJson?: () => unknown;
}

/** Calls fn as often as it can for `seconds`; calls per second. */
export function rate(seconds: number, fn: () => unknown): number {
  const started = performance.now();
  const until = started + seconds * 1000;
  let n = 0;
  while (performance.now() < until) {
    for (let i = 0; i < 10; i++) fn();
    n += 10;
  }
  return n / ((performance.now() - started) / 1000);
}

/** Opens the database (beside the running server: WAL) with the server's own services. */
export function openInProcess(file: string, s: Sidecar, sc: Scenarios) {
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
  const stores = {
    users: createUserStore(db, readers),
    projects: createProjectStore(db, readers),
    times: createTimeStore(db, readers, shortListsHere(readers)),
    readers,
  };
  return {
    probes: probes(app, stores, s, sc),
    /** Every row of the whole-list statement once, with the JSON mapping (rows/s). */
    wholeList: (): InProcess => wholeList(app, s),
    close() {
      void passwords.close();
      readers.close();
      db.close();
    },
  };
}

/** The stores the server's services use, for probes of their statements alone. */
interface Stores {
  users: ReturnType<typeof createUserStore>;
  projects: ReturnType<typeof createProjectStore>;
  times: ReturnType<typeof createTimeStore>;
  readers: ReaderPool;
}

function actorCache(app: App) {
  const actors = new Map<string, Actor>();
  return (username: string) => {
    let a = actors.get(username);
    if (!a) {
      a = app.users.findActor(username) as Actor;
      actors.set(username, a);
    }
    return a;
  };
}

function probes(
  app: App,
  stores: Stores,
  s: Sidecar,
  sc: Scenarios,
): Partial<Record<RowId, Probe>> {
  const rng = createRng(7);
  const actor = actorCache(app);

  // Each sample is read by its owner, who needs no role in its project.
  const oneTime = () => stores.times.findToView(rng.pick(s.timeSamples).uuid, false);
  const oneProject = () => stores.projects.findBySlug(rng.pick(s.projectSlugs));
  const project: Probe = {
    what: 'projectStore.findBySlug (one statement)',
    op: oneProject,
    withJson: () => JSON.stringify(toProjectJson(oneProject() as never)),
  };

  // What the server runs for GET /times?user&start&end: the service's listing, counted
  // and read whole as its body in its own snapshot.
  const months = s.userMonths.map((m) => ({
    actor: actor(m.user),
    query: new URLSearchParams({ user: m.user, start: m.start, end: m.end }),
  }));
  const oneMonth = () => {
    const m = rng.pick(months);
    const list = timeListQuery(app.times.filters(m.actor, m.query));
    return readShortHere(stores.readers, list, 1000);
  };

  const parse = (body: string | undefined) =>
    JSON.parse(body ?? '{}') as { object: Record<string, unknown> & { user?: string } };
  const creates = sc.creates.map((r) => parse(r.body).object);
  const owners = new Map(s.timeSamples.map((t) => [t.uuid, t.user]));
  const updates = sc.updates.map((r) => {
    const uuid = r.path.slice('/v0/times/'.length);
    return { uuid, owner: owners.get(uuid) as string, object: parse(r.body).object };
  });

  // What the server runs for GET /reports: the report service (filters, statements, and
  // the body's JSON, which it writes as it reads the rows).
  const reportOf = (path: string) => {
    const query = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    const token = query.get('token');
    query.delete('token');
    const user = query.get('user') ?? s.admin;
    return { actor: actor(user), query, token };
  };
  const reportProbe = (what: string, paths: string[]): Probe => {
    const reports = paths.map(reportOf);
    const one = () => {
      const r = rng.pick(reports);
      const body = app.reports.report(r.actor, r.query, false);
      if (!('whole' in body)) throw new Error(`${what}: a report made on the worker`);
      return body.whole;
    };
    return { what, op: one };
  };

  return {
    'report-month': reportProbe(
      "reports.report for one user's month by day (statements and the JSON)",
      sc.reportMonths.map((r) => r.path),
    ),
    'report-year': reportProbe(
      'reports.report for a year of everyone by project and month (statements and the JSON)',
      sc.reportYears.map((r) => r.path),
    ),
    time: {
      what: 'timeStore.findToView (one statement)',
      op: oneTime,
      withJson: () => toJsonText(timeJsonText(oneTime() as TimeRow)),
    },
    project,
    storm: project,
    month: {
      what: 'the listing of GET /times for one user-month, counted and read whole as its body in its snapshot',
      op: oneMonth,
    },
    create: {
      what: 'times.create (validation, one write transaction each, checkpoints in the writer)',
      op: () => {
        const o = rng.pick(creates);
        return app.times.create(actor(o.user as string), o);
      },
    },
    update: {
      what: 'times.update (validation, one write transaction each with a revision, checkpoints in the writer)',
      op: () => {
        const u = rng.pick(updates);
        return app.times.update(actor(u.owner), u.uuid, u.object);
      },
    },
  };
}

function wholeList(app: App, s: Sidecar): InProcess {
  const rows = app.times.list(actorCache(app)(s.admin), new URLSearchParams()).open();
  const started = performance.now();
  let count = 0;
  try {
    for (const _text of rows.iterate(-1, 0)) count++;
  } finally {
    rows.close();
  }
  return {
    what: 'iterating the whole-list statement with the JSON mapping (rows/s)',
    opsPerSec: count / ((performance.now() - started) / 1000),
  };
}
