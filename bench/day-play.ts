// Plays a working day: every person and script of the plan on the plan's clock, each
// person's actions in order. Returns every latency by kind, how late the actions
// started and the CPU time it used itself.

import { livePerson, type Tallies } from './day-people';
import { type DayPlan, realMs, WAVE_FROM } from './day-plan';

export interface DayRequest {
  url: string;
  plan: DayPlan;
}

export interface DayResult {
  tallies: Tallies;
  /** The day's length on the run's clock, ms. */
  seconds: number;
  /** How late actions started (their person still busy, or this process behind), ms. */
  lateP99: number;
  lateMax: number;
  /** This process's CPU time (user + system), s. */
  cpuSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export async function play(req: DayRequest): Promise<DayResult> {
  const base = new URL(req.url);
  const tallies: Tallies = {};
  const late: number[] = [];
  const cpu = process.cpuUsage();
  const t0 = performance.now() + 200;
  const waitUntil = async (minute: number) => {
    const due = t0 + realMs(req.plan.clock, Math.max(WAVE_FROM, minute));
    await sleep(due - performance.now());
    late.push(Math.max(0, performance.now() - due));
  };
  const everyone = [...req.plan.people, ...req.plan.scripts];
  await Promise.all(
    everyone.map((p, i) => livePerson(p, req.plan, base, tallies, waitUntil, 1000 + i)),
  );
  late.sort((a, b) => a - b);
  const used = process.cpuUsage(cpu);
  return {
    tallies,
    seconds: (performance.now() - t0) / 1000,
    lateP99: late[Math.floor(late.length * 0.99)] ?? 0,
    lateMax: late.at(-1) ?? 0,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}
