// What each simulated person sends, request by request, as the web app sends it
// (src/web/api.ts and the pages): the token in `Authorization: Bearer`, an
// Idempotency-Key on every write, the requests a page makes at once sent at once. Each
// person has a keep-alive agent of their own (a browser's connections). Every answer is
// timed from the request's start to its last byte and counted under its kind.

import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { type Action, type DayPlan, MONTH, type Person, WEEK, workDay } from './day-plan';
import { createRng, type Rng } from './prng';

/**
 * How a script authenticates. 'login': POST /v0/login (bcrypt) before each poll, as
 * scripts must until personal tokens exist. SWITCH: once the tokens issue has landed,
 * add 'personal-token' here (a token made once for the script's account, sent as
 * Bearer with no login) and make it the default of `bench:day --script-auth`.
 */
export type ScriptAuth = 'login';
export const SCRIPT_AUTHS: ScriptAuth[] = ['login'];

export type Kind =
  | 'page'
  | 'info'
  | 'login'
  | 'projects'
  | 'activities'
  | 'me'
  | 'timer'
  | 'week'
  | 'create'
  | 'update'
  | 'timer-start'
  | 'timer-stop'
  | 'users'
  | 'entries-count'
  | 'entries-page'
  | 'report'
  | 'csv'
  | 'script-login'
  | 'script-times';

export interface Tally {
  /** Latencies in ms of every answer of this kind. */
  latencies: number[];
  errors: number;
  /** A few of the failures, for the log: status and the start of the body. */
  samples: string[];
}

export type Tallies = Partial<Record<Kind, Tally>>;

interface Answer {
  status: number;
  body: string;
  /** X-Total-Count, when sent. */
  total?: number;
}

export class Browser {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 6 });
  token: string | undefined;

  constructor(
    private readonly base: URL,
    private readonly tallies: Tallies,
  ) {}

  /** One request, timed and counted; a non-2xx answer or a failed connection is an error. */
  send(
    kind: Kind,
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; accept?: string; anonymous?: boolean; absentIs404?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (this.token && !options.anonymous) headers.authorization = `Bearer ${this.token}`;
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST' && !options.anonymous)
      headers['idempotency-key'] = randomBytes(16).toString('hex');
    this.tallies[kind] ??= { latencies: [], errors: 0, samples: [] };
    const tally = this.tallies[kind];
    const started = performance.now();
    return new Promise((resolve) => {
      const fail = (what: string, answer: Answer) => {
        tally.errors++;
        if (tally.samples.length < 5) tally.samples.push(`${method} ${path}: ${what}`);
        resolve(answer);
      };
      let retried = false;
      const attempt = () => {
        const req = request(
          new URL(path, this.base),
          { method, headers, agent: this.agent, timeout: 60_000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const ms = performance.now() - started;
              const total = res.headers['x-total-count'];
              const answer = {
                status: res.statusCode ?? 0,
                body: Buffer.concat(chunks).toString(),
                total: total === undefined ? undefined : Number(total),
              };
              tally.latencies.push(ms);
              const fine =
                (answer.status >= 200 && answer.status < 300) ||
                (answer.status === 404 && options.absentIs404);
              if (!fine) fail(`${answer.status} ${answer.body.slice(0, 120)}`, answer);
              else resolve(answer);
            });
            res.on('error', (err) => fail(String(err), { status: 0, body: '' }));
          },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (err: NodeJS.ErrnoException) => {
          // A kept-alive connection the server closed (idle for its 5 s) just as this
          // request was sent on it: a browser sends it again on a new connection (a write
          // with the same Idempotency-Key, so never twice). So does this one, once, on the
          // same clock.
          if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) {
            retried = true;
            attempt();
          } else fail(String(err), { status: 0, body: '' });
        });
        req.end(payload);
      };
      attempt();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const json = <T>(a: Answer, fallback: T): T => {
  try {
    return a.status === 200 ? (JSON.parse(a.body) as T) : fallback;
  } catch {
    return fallback;
  }
};
const q = encodeURIComponent;

/** One person's day: their actions in order, each at its time or as soon as the last is done. */
export async function livePerson(
  person: Person,
  plan: DayPlan,
  base: URL,
  tallies: Tallies,
  waitUntil: (minute: number) => Promise<void>,
  seed: number,
): Promise<void> {
  const browser = new Browser(base, tallies);
  const rng = createRng(seed);
  const state: PersonState = { mine: [], rows: [] };
  try {
    for (const action of person.actions) {
      await waitUntil(action.at);
      await act(action, person, plan, browser, rng, state);
    }
  } finally {
    browser.close();
  }
}

interface PersonState {
  /** Own entries of the week (uuid, duration): the cells an edit changes. */
  mine: { uuid: string; duration: number }[];
  /** The timesheet's rows: (project, activity). */
  rows: { project: string; activity: string }[];
  /** When the running timer started, in the day's minutes. */
  timerSince?: number;
}

async function signIn(browser: Browser, username: string, password: string, kind: Kind) {
  const a = await browser.send(kind, 'POST', '/v0/login', {
    anonymous: true,
    body: { auth: { type: 'password', username, password } },
  });
  browser.token = json<{ token?: string }>(a, {}).token;
}

async function act(
  action: Action,
  person: Person,
  plan: DayPlan,
  b: Browser,
  rng: Rng,
  state: PersonState,
): Promise<void> {
  const me = q(person.username);
  switch (action.kind) {
    case 'arrive': {
      // The page, its sign-in form (which login types), the login, then what the
      // timesheet loads at once: the catalog (projects, activities, me), the header's
      // timer and the week.
      await b.send('page', 'GET', '/', { accept: 'text/html', anonymous: true });
      await b.send('info', 'GET', '/v0/info', { anonymous: true });
      await signIn(b, person.username, plan.password, 'login');
      const [, , , , week] = await Promise.all([
        b.send('projects', 'GET', '/v0/projects'),
        b.send('activities', 'GET', '/v0/activities'),
        b.send('me', 'GET', `/v0/users/${me}`),
        // No timer running is a 404, which the app shows as "no timer".
        b.send('timer', 'GET', '/v0/timer', { absentIs404: true }),
        b.send('week', 'GET', `/v0/times?user=${me}&start=${WEEK.start}&end=${WEEK.end}`),
      ]);
      const times = json<
        { uuid: string; duration: number; project: string[]; activities: string[] }[]
      >(week, []);
      state.mine = times.map((t) => ({ uuid: t.uuid, duration: t.duration }));
      // The timesheet's rows: a few of the person's projects, each with one activity.
      const projects = person.projects.length > 0 ? person.projects : [];
      for (let i = 0; i < Math.min(4, projects.length); i++)
        state.rows.push({ project: rng.pick(projects), activity: rng.pick(plan.activities) });
      return;
    }
    case 'save': {
      // A cell typed into: the one entry there updated (half the time, when the week has
      // entries of theirs), else a new entry in an empty cell.
      const old = state.mine.length > 0 && rng.chance(0.5) ? rng.pick(state.mine) : undefined;
      const duration = rng.int(1, 32) * 900;
      if (old) {
        await b.send('update', 'POST', `/v0/times/${old.uuid}`, { body: { object: { duration } } });
        old.duration = duration;
        return;
      }
      const row = state.rows.length > 0 ? rng.pick(state.rows) : undefined;
      if (!row) return;
      const a = await b.send('create', 'POST', '/v0/times', {
        body: {
          object: {
            duration,
            user: person.username,
            project: row.project,
            activities: [row.activity],
            date_worked: workDay(rng.next()),
          },
        },
      });
      const made = json<{ uuid?: string }>(a, {});
      if (made.uuid) state.mine.push({ uuid: made.uuid, duration });
      return;
    }
    case 'timer-start': {
      const row = state.rows.length > 0 ? rng.pick(state.rows) : undefined;
      if (!row) return;
      state.timerSince = action.at;
      await b.send('timer-start', 'POST', '/v0/timer', {
        body: {
          object: { project: row.project, activities: [row.activity], notes: 'Benchmark day' },
        },
      });
      return;
    }
    case 'timer-stop': {
      if (state.rows.length === 0) return;
      // The day runs sped up, so the seconds the timer really ran are far fewer than the
      // day's: the stop sends the day's (whole minutes, as --timer-rounding's default
      // would round them), and adds them to the row's entry as the web app does.
      const minutes = Math.max(1, Math.round(action.at - (state.timerSince ?? action.at)));
      const a = await b.send('timer-stop', 'POST', '/v0/timer/stop', {
        body: { object: { duration: minutes * 60, add_to_entry: true } },
      });
      const made = json<{ uuid?: string; duration?: number }>(a, {});
      if (made.uuid) state.mine.push({ uuid: made.uuid, duration: made.duration ?? 0 });
      return;
    }
    case 'entries': {
      // The entries page: the people for its filter, the count of the person's entries,
      // then their last page (50 by last change).
      const [, count] = await Promise.all([
        b.send('users', 'GET', '/v0/users'),
        b.send('entries-count', 'GET', `/v0/times?user=${me}&limit=1`),
      ]);
      const total = count.total ?? 0;
      const skip = Math.max(0, total - 50);
      const limit = total - skip;
      if (limit > 0)
        await b.send('entries-page', 'GET', `/v0/times?user=${me}&skip=${skip}&limit=${limit}`);
      return;
    }
    case 'report': {
      // The reports page: this month by project over everyone the manager may see.
      await Promise.all([
        b.send('users', 'GET', '/v0/users'),
        b.send(
          'report',
          'GET',
          `/v0/reports?start=${MONTH.start}&end=${MONTH.end}&group_by=project`,
        ),
      ]);
      return;
    }
    case 'csv': {
      await b.send('csv', 'GET', `/v0/times?start=${MONTH.start}&end=${MONTH.end}`, {
        accept: 'text/csv',
      });
      return;
    }
    case 'script-poll': {
      await signIn(b, person.username, plan.password, 'script-login');
      await b.send('script-times', 'GET', `/v0/times?start=${WEEK.start}&end=${WEEK.start}`);
      b.token = undefined;
      return;
    }
  }
}
