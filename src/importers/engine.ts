// The one import engine, shared by `admin import-from` and POST /v0/imports: normalized
// rows (read.ts) → people, projects and activities matched or to be created, the entries
// to write, and the report. Rows come in batches; the engine checks them and writes
// nothing itself: each batch's plan (plan.ts) is written in one write transaction, so a
// failure leaves nothing of its batch, and the source keys (sql/015) let a second run
// complete the first. Everything a row needs is looked up in maps made once; per row
// there is no await and no statement but the key lookup.
import { writeTransaction } from '../db/open';
import { isNewUsername } from '../identifiers';
import {
  type Actor,
  authorize,
  canCreateProject,
  canCreateUsers,
  canImportRowsOf,
  canManageProject,
  canWriteActivities,
} from '../policy';
import type { ImportReport, NamedLine, PersonLine } from '../shapes/import';
import type { LockStates } from '../times/store';
import type { FormatName, ImportRow, RowProblem } from './format';
import { KeySet } from './key-set';
import { type ImportPlan, type PlannedEntry, type PlanOp, packPlan } from './plan';
import { createPlanWriter, type PlanWriterDeps } from './plan-writer';
import { NotThatFormat, type ReadTally } from './read';
import { freeSlug, slugOf } from './slugs';
import type { KnownProject, KnownUser } from './store';
import { wallTimeIn } from './values';

/**
 * Why a person no user matches is skipped. Said the same on every surface; each says how
 * to have them created its own way (the command line's flag, the web app's checkbox).
 */
export const NO_SUCH_USER = 'no such user';

export interface ImportOptions {
  format: FormatName;
  dryRun: boolean;
  createUsers: boolean;
  /** Slug of the activity for rows with none whose project has no default activity. */
  defaultActivity?: string;
  tagsAsActivities: boolean;
  /** IANA zone for files with UTC or offset times (default: each person's, else the server's). */
  timezone?: string;
}

/** The stores, made by the caller (app.ts, the command) as every store is, and how to write. */
export interface ImportDeps extends PlanWriterDeps {
  /** Runs one batch's write; the server retries it while another process holds the lock. */
  runBatch?: (write: () => void) => void | Promise<void>;
  /**
   * Writes a batch's plan elsewhere (the command's writer thread, admin/import-writer.ts) while
   * the engine checks the next batch; settles once it is committed. Without it, each
   * batch is checked and written in one transaction on `db` (through runBatch if given).
   */
  writePlan?: (plan: ImportPlan) => Promise<void>;
  /** Rows per write transaction (the server takes smaller ones to stay responsive). */
  batchRows?: number;
}

export type { ImportReport, NamedLine, PersonLine };

/** matched / created / skipped counts and the list a person reviews. */
export type KindReport<Line> = { matched: number; created: number; skipped: number; list: Line[] };

/**
 * The error the run stopped with: at `line` (a failed batch: its first line; a file that
 * breaks off: the record where it broke), nothing from line `from` on written. The report
 * so far is in `report`.
 */
export class ImportStopped extends Error {
  constructor(
    readonly report: ImportReport,
    readonly line: number,
    readonly from: number,
    override readonly cause: unknown,
  ) {
    super(
      `the import stopped at line ${line}: ${(cause as Error)?.message ?? String(cause)}; ` +
        `nothing from line ${from} on was written, and running the file again (corrected) completes it`,
    );
  }
}

export const MAX_PROBLEMS = 20;

/**
 * Rows per write transaction of `admin import-from` (the route takes fewer). Each batch
 * walks the indexes it writes in order (plan.ts), so a page of an index is read and
 * written once per batch for all the rows that go into it. Two batches are held at once
 * (one checked, one written on the writer thread): on 1,000,000 rows 40,000 a batch took
 * the command's peak RSS to 206–216 MB, 25,000 to 173–181 MB and 20,000 to 164–172 MB, at
 * speeds within this machine's noise of each other once a batch's uuids share a prefix
 * (plan.ts). A batch holds the write lock about a second, far below a server's
 * `--lock-wait` (10 s).
 */
export const COMMAND_BATCH_ROWS = 20_000;
const MAX_DURATION = 2_147_483_647;
const MAX_NOTES = 10_000;
const MAX_NAME = 255;

/** Options checked before any row: kind of mistakes a caller makes (not the file's). */
export class ImportOptionError extends Error {
  constructor(
    readonly option: 'default_activity' | 'timezone',
    readonly value: string,
    message: string,
  ) {
    super(message);
  }
}

interface Person {
  line: PersonLine;
  user: KnownUser | null;
}

interface Named {
  line: NamedLine;
  id: number | null;
  default_activity_id?: number | null;
}

const lower = (s: string) => s.toLowerCase();

/** A username made from an address or a name: `Ana María` → `ana.maria`. */
function usernameBase(email: string | null, name: string | null): string {
  const from = email ? (email.split('@')[0] as string) : (name ?? 'user');
  const s = from
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, '.')
    .replace(/[^a-z0-9._~-]+/g, '')
    .replace(/^[.]+|[.]+$/g, '')
    .slice(0, 60);
  return s === '' ? 'user' : s;
}

/** A project or activity whose name is too long to create: its report line, skipped. */
const nameTooLong = (name: string): { line: NamedLine } => ({
  line: { name, slug: null, status: 'skipped', reason: 'name longer than 255 characters', rows: 0 },
});

/**
 * Imports the rows for `actor` (null: the command line, which may do everything).
 * Resolves with the report; rejects with ImportStopped when a batch fails.
 */
export async function runImport(
  deps: ImportDeps,
  actor: Actor | null,
  options: ImportOptions,
  batches: AsyncIterable<(ImportRow | RowProblem)[]>,
  tally: ReadTally,
  onProgress?: (rows: number) => void,
): Promise<ImportReport> {
  const { db, dryRun } = { db: deps.db, dryRun: options.dryRun };
  const { store, inserts } = deps;
  const may = {
    createUsers: actor === null || canCreateUsers(actor),
    createProjects: actor === null || canCreateProject(actor),
    createActivities: actor === null || canWriteActivities(actor),
  };
  if (options.createUsers && actor) authorize(actor, { do: 'create user' });

  let defaultActivityId: number | undefined;
  if (options.defaultActivity !== undefined) {
    defaultActivityId = deps.activities.idOf(options.defaultActivity);
    if (defaultActivityId === undefined) {
      throw new ImportOptionError(
        'default_activity',
        options.defaultActivity,
        `there is no activity ${options.defaultActivity}`,
      );
    }
  }
  const changedBy = actor?.id ?? null;

  // What rows are matched against, read once.
  const users = store.users();
  const usersByEmail = new Map<string, KnownUser[]>();
  const usersByUsername = new Map<string, KnownUser>();
  const usersByDisplay = new Map<string, KnownUser[]>();
  const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  };
  for (const u of users) {
    if (u.email) push(usersByEmail, lower(u.email), u);
    usersByUsername.set(lower(u.username), u);
    if (u.display_name) push(usersByDisplay, lower(u.display_name.trim()), u);
  }
  const projectsByName = new Map<string, KnownProject>();
  for (const p of store.projects()) {
    if (!projectsByName.has(lower(p.name))) projectsByName.set(lower(p.name), p);
  }
  const activitiesByName = new Map<string, { id: number; slug: string }>();
  const activitiesBySlug = new Map<string, { id: number; slug: string }>();
  for (const a of store.activities()) {
    if (!activitiesByName.has(lower(a.name))) activitiesByName.set(lower(a.name), a);
    activitiesBySlug.set(a.slug, a);
  }
  const members = new Set(store.members().map(([p, u]) => `${p}:${u}`));

  const people = new Map<string, Person>();
  const projects = new Map<string, Named>();
  const activities = new Map<string, Named>();
  // What the checks create gets a made-up id below zero, and an op in the plan of the
  // batch that met it (a dry run's are dropped); the plan's writer creates it.
  let fakeId = -1;
  let ops: PlanOp[] = [];
  const reservedSlugs = new Set<string>();
  const reservedUsernames = new Set<string>();

  const report: ImportReport = {
    format: options.format,
    dry_run: dryRun,
    rows: 0,
    people: { matched: 0, created: 0, skipped: 0, list: [] },
    projects: { matched: 0, created: 0, skipped: 0, list: [] },
    activities: { matched: 0, created: 0, skipped: 0, list: [] },
    entries: { created: 0, skipped: 0, reasons: [], by_person_project: [] },
    problems: [],
    problem_count: 0,
    dropped: [],
    stopped: null,
  };
  const reasons = new Map<string, number>();
  const totals = new Map<
    string,
    { userId: number; projectId: number; entries: number; seconds: number }
  >();
  const usernames = new Map<number, string>();
  const projectNames = new Map<number, string>();

  const skip = (line: number, reason: string, detail?: string, problem = true) => {
    report.entries.skipped++;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    if (!problem) return;
    report.problem_count++;
    if (report.problems.length < MAX_PROBLEMS) {
      report.problems.push({ line, problem: detail ? `${reason}: ${detail}` : reason });
    }
  };

  const one = (list: KnownUser[] | undefined) => (list?.length === 1 ? list[0] : undefined);

  const personOf = (row: ImportRow): Person => {
    const id = row.email ? `e:${lower(row.email)}` : `n:${lower(row.name ?? '')}`;
    let p = people.get(id);
    if (p) return p;
    const shown = row.email ?? row.name ?? '';
    let user =
      (row.email ? one(usersByEmail.get(lower(row.email))) : undefined) ??
      (row.name ? usersByUsername.get(lower(row.name)) : undefined) ??
      (row.name ? one(usersByDisplay.get(lower(row.name.trim()))) : undefined);
    let status: PersonLine['status'] = 'matched';
    let reason: string | undefined;
    if (!user && shown === '') {
      status = 'skipped';
      reason = 'the row names nobody';
    } else if (!user && options.createUsers && may.createUsers) {
      const base = usernameBase(row.email, row.name);
      const taken = (u: string) =>
        !isNewUsername(u) || reservedUsernames.has(lower(u)) || deps.users.idOf(u) !== undefined;
      let username = base;
      for (let n = 2; taken(username); n++) username = `${base.slice(0, 60)}${n}`;
      reservedUsernames.add(lower(username));
      const fields = {
        display_name: row.name ? row.name.slice(0, MAX_NAME) : null,
        email: row.email,
      };
      const id = fakeId--;
      if (!dryRun) ops.push({ kind: 'user', id, username, ...fields });
      user = { id, username, display_name: fields.display_name, email: row.email, timezone: null };
      status = 'created';
    } else if (!user) {
      status = 'skipped';
      reason = NO_SUCH_USER;
    }
    p = {
      line: { person: shown, username: user?.username ?? null, status, reason, rows: 0 },
      user: user ?? null,
    };
    if (user) usernames.set(user.id, user.username);
    report.people.list.push(p.line);
    report.people[
      status === 'matched' ? 'matched' : status === 'created' ? 'created' : 'skipped'
    ]++;
    people.set(id, p);
    return p;
  };

  const projectOf = (name: string): Named => {
    const id = lower(name);
    let p = projects.get(id);
    if (p) return p;
    const known = projectsByName.get(id);
    if (known) {
      p = {
        line: { name: known.name, slug: null, status: 'matched', rows: 0 },
        id: known.id,
        default_activity_id: known.default_activity_id,
      };
      report.projects.matched++;
    } else if (name.length > MAX_NAME) {
      p = { ...nameTooLong(name), id: null };
      report.projects.skipped++;
    } else if (may.createProjects) {
      const slug = freeSlug(
        slugOf(name, 'project'),
        (s) => reservedSlugs.has(`p:${s}`) || store.isProjectSlugTaken(s),
      );
      reservedSlugs.add(`p:${slug}`);
      const pid = fakeId--;
      if (!dryRun) ops.push({ kind: 'project', id: pid, name, slug });
      p = { line: { name, slug, status: 'created', rows: 0 }, id: pid, default_activity_id: null };
      report.projects.created++;
    } else {
      p = {
        line: {
          name,
          slug: null,
          status: 'skipped',
          reason: 'no such project (you may not create projects)',
          rows: 0,
        },
        id: null,
      };
      report.projects.skipped++;
    }
    if (p.id !== null) projectNames.set(p.id, p.line.name);
    report.projects.list.push(p.line);
    projects.set(id, p);
    return p;
  };

  const activityOf = (name: string): Named => {
    const id = lower(name);
    let a = activities.get(id);
    if (a) return a;
    const base = slugOf(name, 'activity');
    const known = activitiesByName.get(id) ?? activitiesBySlug.get(base);
    if (known) {
      a = { line: { name, slug: known.slug, status: 'matched', rows: 0 }, id: known.id };
      report.activities.matched++;
    } else if (name.length > MAX_NAME) {
      a = { ...nameTooLong(name), id: null };
      report.activities.skipped++;
    } else if (may.createActivities) {
      const slug = freeSlug(
        base,
        (s) => reservedSlugs.has(`a:${s}`) || store.isActivitySlugTaken(s),
      );
      reservedSlugs.add(`a:${slug}`);
      const aid = fakeId--;
      if (!dryRun) ops.push({ kind: 'activity', id: aid, name, slug });
      a = { line: { name, slug, status: 'created', rows: 0 }, id: aid };
      report.activities.created++;
    } else {
      a = {
        line: {
          name,
          slug: null,
          status: 'skipped',
          reason: 'no such activity (you may not create activities)',
          rows: 0,
        },
        id: null,
      };
      report.activities.skipped++;
    }
    report.activities.list.push(a.line);
    activities.set(id, a);
    return a;
  };

  /** Whether the person is (or, this run, becomes) a member of the project. */
  const membership = (projectId: number, userId: number): boolean => {
    const k = `${projectId}:${userId}`;
    if (members.has(k)) return true;
    if (
      actor &&
      !canManageProject(
        actor,
        projectId < 0
          ? { member: false, spectator: false, manager: false }
          : deps.projects.roleOf(projectId, actor.id),
      )
    ) {
      return false;
    }
    if (!dryRun) ops.push({ kind: 'member', projectId, userId });
    members.add(k);
    return true;
  };

  // In-file duplicates: a dry run writes no keys, so it remembers them (packed: a million
  // keys in ~32 MB); a real run finds those of earlier batches in import_sources above
  // the entries that were there before it, those of its own batch in `batchKeys`, and
  // those of the batch the writer thread may still be writing in `writingKeys`.
  let writingKeys: Set<string> | undefined;
  const seen = dryRun ? new KeySet() : undefined;
  const firstNewTimeId = store.lastTimeId() + 1;
  // A first import of this instance has nothing to look up (a dry run reads no key).
  const imported = store.anySource();

  /**
   * The entries earlier imports (and earlier batches of this one) made from the batch's
   * rows, by key: looked up in key order, so the lookups walk import_sources' pages once.
   */
  const earlierOf = (rows: readonly (ImportRow | RowProblem)[]): Map<string, number> => {
    const found = new Map<string, number>();
    if (dryRun && !imported) return found;
    const keys: string[] = [];
    for (const row of rows) if (!('problem' in row)) keys.push(row.key);
    keys.sort();
    for (const key of keys) {
      const id = store.timeOfSource(key);
      if (id !== undefined) found.set(key, id);
    }
    return found;
  };

  const importRow = (
    row: ImportRow | RowProblem,
    earlier: Map<string, number>,
    batchKeys: Set<string>,
    accepted: PlannedEntry[],
    locks: LockStates,
  ) => {
    report.rows++;
    if ('problem' in row) return skip(row.line, 'unreadable row', row.problem);
    const person = personOf(row);
    person.line.rows++;
    const user = person.user;
    if (!user) return skip(row.line, 'unknown person', person.line.person);
    if (actor && !canImportRowsOf(actor, user.id)) {
      return skip(row.line, "another person's row", person.line.person, false);
    }
    const project = projectOf(row.project);
    project.line.rows++;
    if (project.id === null) return skip(row.line, 'project not imported', row.project);
    const names = options.tagsAsActivities ? [...row.activities, ...row.tags] : row.activities;
    // Of the exact length: a batch holds one per row (an empty array grows 16 at a time).
    let activityIds: number[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const a = activityOf(name);
      a.line.rows++;
      if (a.id === null) return skip(row.line, 'activity not imported', name);
      activityIds[i] = a.id;
    }
    if (activityIds.length === 0) {
      const fallback = project.default_activity_id ?? defaultActivityId;
      if (fallback === undefined || fallback === null) {
        return skip(
          row.line,
          'no activity',
          `the row has no task and ${row.project} no default activity (use --default-activity)`,
        );
      }
      activityIds = [fallback];
    }
    if (row.duration > MAX_DURATION)
      return skip(row.line, 'duration too long', String(row.duration));
    if (row.notes !== null && row.notes.length > MAX_NOTES) {
      return skip(row.line, 'notes longer than 10,000 characters');
    }
    let date: string;
    let startTime: string | null = null;
    if (row.start === null) date = row.date as string;
    else {
      const wall =
        'wall' in row.start
          ? row.start.wall
          : wallTimeIn(row.start.at, options.timezone ?? user.timezone ?? undefined);
      date = wall.date;
      startTime = wall.clock;
    }
    // Locked periods (issue 32), as the times service refuses a write into them: before
    // the lock date, or in a submitted or approved week part of this person and project.
    const lock = locks.stateOf(date, user.id, project.id);
    if (lock.before !== null && date < lock.before) {
      return skip(row.line, 'locked period', `${date} is before the lock date ${lock.before}`);
    }
    if (lock.status === 'submitted' || lock.status === 'approved') {
      return skip(
        row.line,
        'locked period',
        `week ${lock.week} of ${user.username} in ${row.project} is ${lock.status}`,
      );
    }
    if (seen) {
      if (seen.has(row.key))
        return skip(row.line, 'duplicate row', 'the same entry as an earlier row');
      if (earlier.has(row.key)) return skip(row.line, 'already imported', undefined, false);
      seen.add(row.key);
    } else {
      const before = earlier.get(row.key);
      if (before !== undefined) {
        return before >= firstNewTimeId
          ? skip(row.line, 'duplicate row', 'the same entry as an earlier row')
          : skip(row.line, 'already imported', undefined, false);
      }
      if (batchKeys.has(row.key) || writingKeys?.has(row.key)) {
        return skip(row.line, 'duplicate row', 'the same entry as an earlier row');
      }
    }
    if (!membership(project.id, user.id)) {
      return skip(row.line, 'not a member', `${user.username} is not a member of ${row.project}`);
    }
    if (!dryRun) {
      batchKeys.add(row.key);
      accepted.push({
        key: row.key,
        duration: row.duration,
        user_id: user.id,
        project_id: project.id,
        date_worked: date,
        start_time: startTime,
        issue_uri: row.issue_uri,
        notes: row.notes,
        activityIds,
      });
    }
    report.entries.created++;
    const k = `${user.id}:${project.id}`;
    const t = totals.get(k);
    if (t) {
      t.entries++;
      t.seconds += row.duration;
    } else
      totals.set(k, { userId: user.id, projectId: project.id, entries: 1, seconds: row.duration });
  };

  const size = deps.batchRows ?? COMMAND_BATCH_ROWS;

  /** What one write batch has taken so far, and the report as it was before it. */
  interface Batch {
    line: number;
    rows: number;
    batchKeys: Set<string>;
    accepted: PlannedEntry[];
    locks: LockStates;
    before: ReturnType<typeof snapshot>;
  }
  // What a batch counts is kept aside first (`before`), so that a failed batch counts for
  // nothing, whatever it failed at.
  const begin = (line: number, before: ReturnType<typeof snapshot>): Batch => ({
    line,
    rows: 0,
    batchKeys: new Set(),
    accepted: [],
    locks: inserts.lockStates(),
    before,
  });
  const take = (batch: Batch, rows: readonly (ImportRow | RowProblem)[]) => {
    const earlier = earlierOf(rows);
    for (const row of rows) {
      importRow(row, earlier, batch.batchKeys, batch.accepted, batch.locks);
    }
    batch.rows += rows.length;
  };
  /**
   * The batch's plan, with what the checks created since the last one; `locks` when it is
   * written in another transaction than the one its checks read in.
   */
  const planOf = (batch: Batch, locks: string | null): ImportPlan => {
    const plan = packPlan(batch.accepted, ops, Date.now(), changedBy, locks);
    ops = [];
    return plan;
  };
  const failed = (
    line: number,
    before: ReturnType<typeof snapshot>,
    err: unknown,
  ): ImportStopped => {
    restore(report, reasons, totals, before);
    finish(report, reasons, totals, tally, usernames, projectNames);
    report.stopped = { line, error: (err as Error)?.message ?? String(err) };
    return new ImportStopped(report, line, line, err);
  };

  // The route (runBatch: it waits for the lock and lets other requests run between its
  // batches of `size` rows) checks and writes each batch in one call, its checks reading
  // inside the transaction that writes it. The command and a dry run are streamed (below).
  const streamed = dryRun || deps.writePlan !== undefined;
  const writer = streamed ? undefined : createPlanWriter(deps);
  const writePart = async (part: (ImportRow | RowProblem)[]) => {
    const line = part[0]?.line ?? 0;
    const before = snapshot(report, reasons, totals);
    const write = () => {
      const batch = begin(line, before);
      take(batch, part);
      writer?.write(planOf(batch, null));
    };
    try {
      if (deps.runBatch) await deps.runBatch(write);
      else writeTransaction(db, write);
    } catch (err) {
      throw failed(line, before, err);
    }
    onProgress?.(report.rows);
  };

  // The command (writePlan) and a dry run check the pieces the reader hands over (1,000
  // rows each: admin/import-from.ts) into a batch of `size` rows, holding only the rows to
  // write. The command hands the batch's plan to the writer thread, which writes it while
  // the next batch is checked. One plan is written at a time: the next is handed over
  // once the one before is committed, and a failure stops the run at the batch that
  // failed. A dry run has nothing to hand over.
  let current: Batch | undefined;
  let writing:
    | { line: number; before: ReturnType<typeof snapshot>; done: Promise<void> }
    | undefined;
  /** Waits for the plan being written; its failure stops the run where its batch began. */
  const written = async () => {
    if (!writing) return;
    const { line, before, done } = writing;
    writing = undefined;
    try {
      await done;
    } catch (err) {
      throw failed(line, before, err);
    }
    writingKeys = undefined;
    onProgress?.(report.rows);
  };
  const handOver = async () => {
    const batch = current;
    current = undefined;
    if (!batch || !deps.writePlan) {
      if (batch) onProgress?.(report.rows);
      return;
    }
    // Packed while the writer may still be busy with the plan before.
    const plan = planOf(batch, batch.locks.fingerprint());
    await written();
    const done = deps.writePlan(plan);
    done.catch(() => {}); // awaited by written()
    writing = { line: batch.line, before: batch.before, done };
    writingKeys = batch.batchKeys;
  };
  const takeStreamed = async (rows: (ImportRow | RowProblem)[]) => {
    if (!current) current = begin(rows[0]?.line ?? 0, snapshot(report, reasons, totals));
    try {
      take(current, rows);
    } catch (err) {
      await written(); // the batch before stays written, or its failure is the one to say
      throw failed(current.line, current.before, err);
    }
    if (current.rows >= size) await handOver();
  };
  const finishWrites = async () => {
    await handOver();
    await written();
  };

  // The reader hands over what one piece of the file held; the route cuts it into batches
  // of `size`.
  const source = batches[Symbol.asyncIterator]();
  let lastLine = 0;
  for (;;) {
    let next: IteratorResult<(ImportRow | RowProblem)[]>;
    try {
      next = await source.next();
    } catch (err) {
      // A file that is not the format is refused before any row; a file that breaks off
      // later (an unclosed quote) stops the run where it broke, as a failed batch does,
      // once the rows read before it are written.
      if (err instanceof NotThatFormat) throw err;
      await finishWrites();
      finish(report, reasons, totals, tally, usernames, projectNames);
      const line = (err as { line?: number }).line ?? lastLine + 1;
      report.stopped = { line, error: (err as Error)?.message ?? String(err) };
      throw new ImportStopped(report, line, Math.min(line, lastLine + 1), err);
    }
    if (next.done) break;
    const rows = next.value;
    lastLine = rows[rows.length - 1]?.line ?? lastLine;
    if (streamed) await takeStreamed(rows);
    else {
      for (let from = 0; from < rows.length; from += size) {
        await writePart(rows.slice(from, from + size));
      }
    }
  }
  await finishWrites();
  return finish(report, reasons, totals, tally, usernames, projectNames);
}

type Totals = Map<string, { userId: number; projectId: number; entries: number; seconds: number }>;

function snapshot(report: ImportReport, reasons: Map<string, number>, totals: Totals) {
  return {
    json: JSON.stringify({
      ...report,
      people: undefined,
      projects: undefined,
      activities: undefined,
    }),
    reasons: new Map(reasons),
    totals: new Map([...totals].map(([k, v]) => [k, { ...v }])),
  };
}

function restore(
  report: ImportReport,
  reasons: Map<string, number>,
  totals: Totals,
  before: ReturnType<typeof snapshot>,
) {
  const saved = JSON.parse(before.json) as ImportReport;
  report.rows = saved.rows;
  report.entries = saved.entries;
  report.problems = saved.problems;
  report.problem_count = saved.problem_count;
  reasons.clear();
  for (const [k, v] of before.reasons) reasons.set(k, v);
  totals.clear();
  for (const [k, v] of before.totals) totals.set(k, v);
}

function finish(
  report: ImportReport,
  reasons: Map<string, number>,
  totals: Totals,
  tally: ReadTally,
  usernames: Map<number, string>,
  projectNames: Map<number, string>,
): ImportReport {
  report.entries.reasons = [...reasons].map(([reason, rows]) => ({ reason, rows }));
  report.entries.by_person_project = [...totals.values()]
    .map((t) => ({
      user: usernames.get(t.userId) ?? '',
      project: projectNames.get(t.projectId) ?? '',
      entries: t.entries,
      seconds: t.seconds,
    }))
    .sort((a, b) => a.user.localeCompare(b.user) || a.project.localeCompare(b.project));
  report.dropped = [...tally.dropped].map(([column, values]) => ({ column, values }));
  return report;
}
