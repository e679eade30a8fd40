// The working day of bench/day.ts, planned before it is played: who signs in when (the
// 9:00 wave), what each person does afterwards and at what minute of the day, and the
// clock that maps the day's minutes to seconds of the run. Pure and seeded, so a run of
// the same N plays the same day.
//
// The day (Monday 2026-10-26, the last full week of the data set) runs from 8:55 to
// 17:30 on a clock of two speeds: the wave (8:55–9:15, when everyone signs in and loads
// the week) at `waveSpeed`, the rest of the day at `daySpeed`. A speed-up multiplies
// every rate: at ×20 the wave's "ten minutes" are 30 s, so N simulated people sign in
// as fast as 20·N would over a real ten minutes (docs/capacity.md says what that means).
import type { Sidecar } from './generate';
import { createRng } from './prng';

export const DAY_DATE = '2026-10-26';
/** The timesheet's week (Monday to Sunday) and the reports' month ("this month"). */
export const WEEK = { start: '2026-10-26', end: '2026-11-01' };
export const MONTH = { start: '2026-10-01', end: '2026-10-31' };
/** Monday to Friday of that week: the days a timesheet's cells are saved on. */
const WORK_DAYS = ['2026-10-26', '2026-10-27', '2026-10-28', '2026-10-29', '2026-10-30'];

const min = (h: number, m: number) => h * 60 + m;
export const WAVE_FROM = min(8, 55);
export const WAVE_TO = min(9, 15);
export const DAY_END = min(17, 30);

export interface Clock {
  waveSpeed: number;
  daySpeed: number;
}

/** Milliseconds of the run from 8:55 to `minute` of the day. */
export function realMs(clock: Clock, minute: number): number {
  const wave = Math.min(minute, WAVE_TO) - WAVE_FROM;
  const rest = Math.max(0, minute - WAVE_TO);
  return (wave / clock.waveSpeed + rest / clock.daySpeed) * 60_000;
}

export const dayLengthMs = (clock: Clock) => realMs(clock, DAY_END);

export type ActionKind =
  | 'arrive'
  | 'save'
  | 'timer-start'
  | 'timer-stop'
  | 'entries'
  | 'report'
  | 'csv'
  | 'script-poll';

export interface Action {
  /** Minute of the day. */
  at: number;
  kind: ActionKind;
}

export interface Person {
  username: string;
  /** Projects the person is a member of (first slugs): rows of their timesheet. */
  projects: string[];
  actions: Action[];
}

export interface DayPlan {
  people: Person[];
  scripts: Person[];
  activities: string[];
  password: string;
  clock: Clock;
}

export interface PlanOptions {
  clock: Clock;
  /** Share of people who run reports and a CSV (default 10 %). */
  managers?: number;
  /** Scripts polling the API: one per this many people (at least one). */
  peoplePerScript?: number;
  /** Minutes between two polls of a script. */
  scriptEvery?: number;
  /** Cells saved per person over the day. */
  saves?: number;
}

export function planDay(s: Sidecar, options: PlanOptions): DayPlan {
  const rng = createRng(35);
  const between = (from: number, to: number) => from + rng.next() * (to - from);
  const managerEvery = Math.round(1 / (options.managers ?? 0.1));
  const saves = options.saves ?? 10;
  const people = s.users.map((username, i): Person => {
    // The wave: 85 % between 9:00 and 9:10, front-loaded (Monday, a stand-up at 9:15);
    // the others a little before or after.
    const u = rng.next();
    const arrive =
      u < 0.85
        ? min(9, 0) + 10 * (1 - Math.sqrt(1 - u / 0.85))
        : rng.chance(0.5)
          ? between(WAVE_FROM, min(9, 0))
          : between(min(9, 10), WAVE_TO);
    const actions: Action[] = [{ at: arrive, kind: 'arrive' }];
    // Three cells right after signing in (last Friday, this morning), the rest over the day.
    for (let k = 0; k < saves; k++) {
      actions.push({
        at: k < 3 ? arrive + 0.3 * (k + 1) : between(WAVE_TO, DAY_END - 5),
        kind: 'save',
      });
    }
    const timerStart = between(WAVE_TO, min(16, 0));
    actions.push({ at: timerStart, kind: 'timer-start' });
    actions.push({ at: Math.min(DAY_END - 1, timerStart + between(30, 120)), kind: 'timer-stop' });
    actions.push({ at: between(WAVE_TO, DAY_END - 5), kind: 'entries' });
    if (i % managerEvery === 0) {
      const report = between(WAVE_TO, DAY_END - 10);
      actions.push({ at: report, kind: 'report' });
      actions.push({ at: report + 3, kind: 'csv' });
    }
    actions.sort((a, b) => a.at - b.at);
    return { username, projects: s.memberships[username] ?? [], actions };
  });
  // Scripts (an export to payroll, a dashboard): the admin's account, polling today's
  // entries of everyone; each poll signs in first (see day-people.ts SCRIPT_AUTH).
  const scriptCount = Math.max(1, Math.round(s.users.length / (options.peoplePerScript ?? 50)));
  const every = options.scriptEvery ?? 30;
  const scripts = Array.from({ length: scriptCount }, (_, k): Person => {
    const actions: Action[] = [];
    for (let at = WAVE_FROM + (k * every) / scriptCount; at < DAY_END; at += every)
      actions.push({ at, kind: 'script-poll' });
    return { username: s.admin, projects: [], actions };
  });
  return {
    people,
    scripts,
    activities: s.activities,
    password: s.password,
    clock: options.clock,
  };
}

/** A working day of the timesheet's week, drawn with `pick` (0 ≤ pick < 1). */
export function workDay(pick: number): string {
  return WORK_DAYS[Math.min(WORK_DAYS.length - 1, Math.floor(pick * WORK_DAYS.length))] as string;
}
