// The requests of each benchmark row, drawn (seeded) from the data set's sidecar keys.
// Reads use the owner's own token, as a client would; GET tokens travel in the query
// string as TimeSync clients send them.
import type { Sidecar } from './generate';
import type { LoadRequest } from './load';
import { createRng } from './prng';

export type Tokens = Record<string, string>;

export interface Scenarios {
  timeReads: LoadRequest[];
  projectReads: LoadRequest[];
  monthReads: LoadRequest[];
  creates: LoadRequest[];
  updates: LoadRequest[];
  logins: LoadRequest[];
  /** The whole list, as the admin (who sees every entry). */
  wholeList: string;
  /** One user's month grouped by day, as that user. */
  reportMonths: LoadRequest[];
  /** A whole year of everyone's entries by project and month, as the admin. */
  reportYears: LoadRequest[];
  /** The whole list as CSV, as the admin. */
  wholeCsv: string;
}

const KEYS = 500;
const q = encodeURIComponent;

export function buildScenarios(s: Sidecar, tokens: Tokens): Scenarios {
  const rng = createRng(42);
  const tokenOf = (user: string) => tokens[user] as string;
  const post = (path: string, token: string, object: unknown): LoadRequest => ({
    path,
    body: JSON.stringify({ auth: { type: 'token', token }, object }),
  });
  const timeSamples = s.timeSamples.slice(0, KEYS);
  const updated = s.timeSamples.slice(-KEYS);
  return {
    timeReads: timeSamples.map((t) => ({ path: `/v0/times/${t.uuid}?token=${tokenOf(t.user)}` })),
    projectReads: s.projectSlugs.map((slug) => ({
      path: `/v0/projects/${slug}?token=${tokenOf(rng.pick(s.users))}`,
    })),
    monthReads: s.userMonths.slice(0, KEYS).map((m) => ({
      path: `/v0/times?user=${q(m.user)}&start=${m.start}&end=${m.end}&token=${tokenOf(m.user)}`,
    })),
    creates: Array.from({ length: KEYS }, () => {
      const user = rng.pick(s.users.filter((u) => (s.memberships[u] ?? []).length > 0));
      return post('/v0/times', tokenOf(user), {
        duration: rng.int(1, 32) * 900,
        user,
        project: rng.pick(s.memberships[user] as string[]),
        activities: [rng.pick(s.activities)],
        date_worked: `2026-11-${String(rng.int(1, 30)).padStart(2, '0')}`,
        notes: `Benchmark entry ${rng.int(1, 1e6)}`,
        issue_uri: null,
      });
    }),
    updates: updated.map((t) =>
      post(`/v0/times/${t.uuid}`, tokenOf(t.user), {
        duration: rng.int(1, 32) * 900,
        notes: `Revised by the benchmark ${rng.int(1, 1e6)}`,
      }),
    ),
    logins: s.users.map((username) => ({
      path: '/v0/login',
      body: JSON.stringify({ auth: { type: 'password', username, password: s.password } }),
    })),
    wholeList: `/v0/times?token=${tokenOf(s.admin)}`,
    reportMonths: s.userMonths.slice(0, KEYS).map((m) => ({
      path: `/v0/reports?user=${q(m.user)}&start=${m.start}&end=${m.end}&group_by=day&token=${tokenOf(m.user)}`,
    })),
    // The data set ends 2026-11-01 after three years: 2024 and 2025 are whole years.
    reportYears: ['2024', '2025'].map((y) => ({
      path: `/v0/reports?start=${y}-01-01&end=${y}-12-31&group_by=project&group_by=month&token=${tokenOf(s.admin)}`,
    })),
    wholeCsv: `/v0/times?format=csv&token=${tokenOf(s.admin)}`,
  };
}
