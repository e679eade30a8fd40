// The benchmark data set of SPEC §9, seeded so it is the same everywhere: 50 users (plus
// the admin), 200 projects with 1–5 members, 30 activities, N time entries over 3 years,
// ~10 % of them with 1–3 older revisions. The working-day simulation (bench/day.ts) asks
// for the same shape scaled to its number of people: more users, 4 projects per user and
// a shorter history (`users`, `days`). Written straight into a database file made by
// our own openDatabase + migrate, in big transactions of prepared statements. Beside it,
// a sidecar JSON of keys the load uses (time uuids, slugs, users with busy months).
//
//   npx tsx bench/generate.ts --out bench/data/x.db [--times 1000000] [--seed 9]
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import bcrypt from 'bcryptjs';
import { migrate } from '../src/db/migrate';
import { openDatabase } from '../src/db/open';
import { createRng, type Rng } from './prng';

/** Bump when the shape of the generated data changes, so cached files are rebuilt. */
export const GENERATOR_VERSION = 2;

export const BENCH_PASSWORD = 'bench-password-1';
export const ADMIN_USERNAME = 'admin';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** A fixed end date: the data set must not depend on when it is generated. */
const END = Date.UTC(2026, 10, 1);
const DAYS = 3 * 365 + 1;
const USERS = 50;
const PROJECTS = 200;
const ACTIVITIES = 30;
const BATCH = 50_000;

export interface GenerateOptions {
  file: string;
  times: number;
  seed?: number;
  /** People (default 50); projects are 4 per person, as in the bench set. */
  users?: number;
  /** Days of history ending 2026-11-01 (default 3 years). */
  days?: number;
}

/** The bench set's shape: projects per user and entries per user and day (1,000,000 / 50 / 1,096). */
export const PROJECTS_PER_USER = PROJECTS / USERS;
export const TIMES_PER_USER_DAY = 1_000_000 / USERS / DAYS;
/** The last day of every data set (its history ends the day before 2026-11-01). */
export const END_DATE = '2026-11-01';

/** What the load needs to know about the data set. */
export interface Sidecar {
  generatorVersion: number;
  seed: number;
  times: number;
  password: string;
  admin: string;
  users: string[];
  activities: string[];
  /** Every project's first slug. */
  projectSlugs: string[];
  /** Per user, the first slug of each project they are a member of. */
  memberships: Record<string, string[]>;
  /** A sample of live time entries and their owners. */
  timeSamples: { uuid: string; user: string }[];
  /** A sample of (user, month) pairs with their number of live entries. */
  userMonths: { user: string; start: string; end: string; count: number }[];
  /** Live (not deleted) entries in the whole data set. */
  liveTimes: number;
  seconds: number;
}

export function generateDataset(options: GenerateOptions): Sidecar {
  const started = performance.now();
  const seed = options.seed ?? 9;
  const rng = createRng(seed);
  const shape = {
    users: options.users ?? USERS,
    projects: Math.round((options.users ?? USERS) * PROJECTS_PER_USER),
    days: options.days ?? DAYS,
  };
  for (const f of [options.file, `${options.file}-wal`, `${options.file}-shm`]) {
    rmSync(f, { force: true });
  }
  const db = openDatabase(options.file);
  migrate(db);
  // A bulk load into a fresh file: no journal, no fsync, no per-row foreign key lookups
  // (the data is consistent by construction); WAL is switched back on at the end.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -1000000');

  // bcrypt once, with a fixed salt so the file is the same on every run: every user
  // shares the same known password.
  const hash = bcrypt.hashSync(BENCH_PASSWORD, '$2a$10$timetrackbenchmarksalt.');

  const start = END - shape.days * DAY;
  const users = insertUsers(db, hash, shape.users, start);
  const activityIds = insertActivities(db, start);
  const projects = insertProjects(db, rng, users.ids, activityIds, shape.projects, start);
  const timesResult = insertTimes(
    db,
    rng,
    options.times,
    users,
    projects,
    activityIds,
    start,
    shape.days,
  );

  db.pragma('journal_mode = WAL');
  db.close();

  const sidecar: Sidecar = {
    generatorVersion: GENERATOR_VERSION,
    seed,
    times: options.times,
    password: BENCH_PASSWORD,
    admin: ADMIN_USERNAME,
    users: users.names,
    activities: activityIds.map((_, i) => activitySlug(i)),
    projectSlugs: projects.map((p) => p.slug),
    memberships: Object.fromEntries(
      users.names.map((name, i) => [
        name,
        projects.filter((p) => p.members.includes(users.ids[i] as number)).map((p) => p.slug),
      ]),
    ),
    ...timesResult,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  writeFileSync(sidecarPath(options.file), `${JSON.stringify(sidecar, null, 1)}\n`);
  return sidecar;
}

export const sidecarPath = (dbFile: string) => dbFile.replace(/\.db$/, '.json');

const activitySlug = (i: number) => `activity-${String(i + 1).padStart(2, '0')}`;
const userName = (i: number) => `user${String(i + 1).padStart(2, '0')}`;
const projectSlug = (i: number, count: number) =>
  `project-${String(i + 1).padStart(Math.max(3, String(count).length), '0')}`;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function insertUsers(
  db: ReturnType<typeof openDatabase>,
  hash: string,
  count: number,
  START: number,
) {
  const insert = db.prepare(`INSERT INTO users (username, display_name, password_hash, email,
    site_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
  const names: string[] = [];
  const ids: number[] = [];
  db.transaction(() => {
    insert.run(ADMIN_USERNAME, 'Administrator', hash, null, 1, START);
    for (let i = 0; i < count; i++) {
      const name = userName(i);
      names.push(name);
      ids.push(
        Number(
          insert.run(name, `User ${i + 1}`, hash, `${name}@example.com`, 0, START).lastInsertRowid,
        ),
      );
    }
  })();
  return { names, ids };
}

function insertActivities(db: ReturnType<typeof openDatabase>, START: number): number[] {
  const insert = db.prepare(`INSERT INTO activities (uuid, revision, name, slug, created_at)
    VALUES (?, 1, ?, ?, ?)`);
  const rng = createRng(1);
  const ids: number[] = [];
  db.transaction(() => {
    for (let i = 0; i < ACTIVITIES; i++) {
      ids.push(
        Number(insert.run(rng.uuid(), `Activity ${i + 1}`, activitySlug(i), START).lastInsertRowid),
      );
    }
  })();
  return ids;
}

interface Project {
  id: number;
  slug: string;
  members: number[];
}

function insertProjects(
  db: ReturnType<typeof openDatabase>,
  rng: Rng,
  userIds: number[],
  activityIds: number[],
  count: number,
  START: number,
): Project[] {
  const insert = db.prepare(`INSERT INTO projects (uuid, revision, name, uri, owner_id,
    default_activity_id, created_at) VALUES (?, 1, ?, ?, ?, ?, ?)`);
  const insertSlug = db.prepare(
    'INSERT INTO project_slugs (project_id, position, slug) VALUES (?, ?, ?)',
  );
  const insertMember = db.prepare(`INSERT INTO project_users (project_id, user_id, member,
    spectator, manager) VALUES (?, ?, 1, ?, ?)`);
  const projects: Project[] = [];
  for (let i = 0; i < count; i++) {
    const members = new Set<number>();
    const size = rng.int(1, 5);
    while (members.size < size) members.add(rng.pick(userIds));
    projects.push({
      id: 0,
      slug: projectSlug(i, count),
      members: [...members],
    });
  }
  // Every user works somewhere: add the unassigned to projects that still have room.
  for (const id of userIds) {
    if (projects.some((p) => p.members.includes(id))) continue;
    const open = projects.filter((p) => p.members.length < 5);
    rng.pick(open).members.push(id);
  }
  db.transaction(() => {
    projects.forEach((p, i) => {
      const n = projectSlug(i, count).slice('project-'.length);
      p.id = Number(
        insert.run(
          rng.uuid(),
          `Project ${n}`,
          rng.chance(0.5) ? `https://example.com/projects/${n}` : null,
          p.members[0],
          rng.chance(0.5) ? rng.pick(activityIds) : null,
          START,
        ).lastInsertRowid,
      );
      insertSlug.run(p.id, 0, p.slug);
      if (rng.chance(0.2)) insertSlug.run(p.id, 1, `p${n}`);
      p.members.forEach((userId, k) => {
        insertMember.run(p.id, userId, rng.chance(0.1) ? 1 : 0, k === 0 ? 1 : 0);
      });
    });
  })();
  return projects;
}

function insertTimes(
  db: ReturnType<typeof openDatabase>,
  rng: Rng,
  count: number,
  users: { names: string[]; ids: number[] },
  projects: Project[],
  activityIds: number[],
  START: number,
  DAYS: number,
) {
  const insertTime = db.prepare(`INSERT INTO times (id, uuid, revision, duration, user_id,
    project_id, date_worked, issue_uri, notes, created_at, updated_at, deleted_at, changed_by)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertActivity = db.prepare(
    'INSERT INTO time_activities (time_id, activity_id) VALUES (?, ?)',
  );
  const insertRevision = db.prepare(`INSERT INTO time_revisions (time_id, revision, duration,
    user_id, project_id, date_worked, issue_uri, notes, activity_ids, created_at, updated_at,
    deleted_at, changed_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`);

  const projectsOf = users.ids.map((id) =>
    projects.filter((p) => p.members.includes(id)).map((p) => p.id),
  );
  const userIndexById = new Map(users.ids.map((id, i) => [id, i]));
  const monthCounts = new Map<string, number>();
  const timeSamples: Sidecar['timeSamples'] = [];
  const sampleEvery = Math.max(1, Math.floor(count / 2000));
  let live = 0;

  const notes = () =>
    rng.chance(0.6)
      ? `Worked on ${rng.pick(NOTE_WORDS)} ${rng.pick(NOTE_WORDS)} (#${rng.int(1, 9999)})`
      : null;
  const issue = () =>
    rng.chance(0.3) ? `https://github.com/example/repo/issues/${rng.int(1, 20_000)}` : null;
  const activitiesOf = () => {
    const first = rng.pick(activityIds);
    if (rng.chance(0.5)) return [first];
    const second = rng.pick(activityIds);
    return second === first ? [first] : [first, second];
  };

  const writeBatch = db.transaction((from: number, to: number) => {
    for (let id = from; id < to; id++) {
      // Entries arrive in time order (ids grow with created_at), as in a real instance.
      const day = Math.floor(((id - 1) * DAYS) / count);
      const createdAt = START + day * DAY + rng.int(7 * HOUR, 20 * HOUR);
      const dateWorked = dateOf(createdAt - rng.int(0, 2) * DAY);
      const userIndex = rng.int(0, users.ids.length - 1);
      const userId = users.ids[userIndex] as number;
      const olderRevisions = rng.chance(0.1) ? rng.int(1, 3) : 0;
      let projectId = rng.pick(projectsOf[userIndex] as number[]);
      let activities = activitiesOf();
      for (let r = 1; r <= olderRevisions; r++) {
        insertRevision.run(
          id,
          r,
          rng.int(1, 32) * 900,
          userId,
          projectId,
          dateWorked,
          issue(),
          notes(),
          JSON.stringify(activities),
          createdAt,
          r === 1 ? null : createdAt + (r - 1) * HOUR,
          userId,
        );
        if (rng.chance(0.3)) projectId = rng.pick(projectsOf[userIndex] as number[]);
        if (rng.chance(0.3)) activities = activitiesOf();
      }
      const deleted = rng.chance(0.005);
      const uuid = rng.uuid();
      insertTime.run(
        id,
        uuid,
        olderRevisions + 1,
        rng.int(1, 32) * 900,
        userId,
        projectId,
        dateWorked,
        issue(),
        notes(),
        createdAt,
        olderRevisions > 0 ? createdAt + olderRevisions * HOUR : null,
        deleted ? createdAt + 30 * DAY : null,
        userId,
      );
      for (const a of activities) insertActivity.run(id, a);
      if (deleted) continue;
      live++;
      const month = `${userIndexById.get(userId)}|${dateWorked.slice(0, 7)}`;
      monthCounts.set(month, (monthCounts.get(month) ?? 0) + 1);
      if (id % sampleEvery === 0)
        timeSamples.push({ uuid, user: users.names[userIndex] as string });
    }
  });
  for (let from = 1; from <= count; from += BATCH)
    writeBatch(from, Math.min(count + 1, from + BATCH));

  // A sample of user-months (every month of the middle year for each user, 600 at 1M).
  const userMonths: Sidecar['userMonths'] = [];
  for (const [key, n] of monthCounts) {
    const [index, month] = key.split('|') as [string, string];
    const [y, m] = month.split('-').map(Number) as [number, number];
    if (y !== new Date(START + DAYS * DAY * 0.5).getUTCFullYear()) continue;
    userMonths.push({
      user: users.names[Number(index)] as string,
      start: `${month}-01`,
      end: dateOf(Date.UTC(y, m, 0)),
      count: n,
    });
  }
  return { timeSamples, userMonths, liveTimes: live };
}

const NOTE_WORDS = [
  'the API',
  'login',
  'reports',
  'billing',
  'the importer',
  'tests',
  'review',
  'docs',
  'deploy',
  'a bug',
  'search',
  'the UI',
];

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'bench/data/bench.db' },
      times: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '9' },
      users: { type: 'string' },
      days: { type: 'string' },
    },
  });
  const file = values.out as string;
  if (existsSync(file)) process.stderr.write(`overwriting ${file}\n`);
  const s = generateDataset({
    file,
    times: Number(values.times),
    seed: Number(values.seed),
    users: values.users === undefined ? undefined : Number(values.users),
    days: values.days === undefined ? undefined : Number(values.days),
  });
  process.stdout.write(
    `wrote ${file}: ${s.users.length} users, ${s.projectSlugs.length} projects, ` +
      `${s.activities.length} activities, ${s.times} time entries (${s.liveTimes} live) in ${s.seconds} s\n`,
  );
}
