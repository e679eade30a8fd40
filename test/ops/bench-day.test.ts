// npm run bench:day's people against a real server: on a small data set of the bench
// shape, a day played on a fast clock gets only the answers the web app expects, for
// every kind of request it sends — so the capacity it reports is never that of a day
// of failed requests (a route or body that drifted from the API).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planDay, WAVE_FROM } from '../../bench/day-plan';
import { type DayResult, play } from '../../bench/day-play';
import { searchCapacity } from '../../bench/day-search';
import { generateDataset, type Sidecar } from '../../bench/generate';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/log';
import { type RunningServer, startServer } from '../../src/server';
import { tempDir } from '../helpers/server';

describe('bench:day', () => {
  let server: RunningServer;
  let sidecar: Sidecar;
  let day: DayResult;

  before(async () => {
    const file = join(tempDir(), 'day.db');
    sidecar = generateDataset({ file, times: 400, users: 6, days: 14 });
    const config = loadConfig(
      { port: 0, host: '127.0.0.1', db: file },
      { TIMETRACK_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789' },
    );
    server = await startServer(config, { log: createLogger('warn', () => {}), announce: () => {} });
    // ×600 and ×20,000: the wave in 2 s, the rest of the day in 1.5 s.
    const plan = planDay(sidecar, { clock: { waveSpeed: 600, daySpeed: 20_000 }, managers: 0.5 });
    day = await play({ url: server.url, plan });
  });
  after(() => server?.close());

  it('gets only the answers the web app expects, for every kind of request', () => {
    const failed = Object.entries(day.tallies).filter(([, t]) => t && t.errors > 0);
    assert.deepEqual(
      failed.map(([kind, t]) => `${kind}: ${t?.samples.join('; ')}`),
      [],
    );
    const kinds = Object.keys(day.tallies).sort();
    assert.deepEqual(kinds, [
      'activities',
      'create',
      'csv',
      'entries-count',
      'entries-page',
      'info',
      'login',
      'me',
      'page',
      'projects',
      'report',
      'script-login',
      'script-times',
      'timer',
      'timer-start',
      'timer-stop',
      'update',
      'users',
      'week',
    ]);
  });

  it('signs everyone in once, in the wave, and each script before each poll', () => {
    assert.equal(day.tallies.login?.latencies.length, sidecar.users.length);
    const plan = planDay(sidecar, { clock: { waveSpeed: 20, daySpeed: 1000 } });
    const arrivals = plan.people.map((p) => p.actions[0]?.at as number);
    assert.ok(arrivals.every((at) => at >= WAVE_FROM && at <= 9 * 60 + 15));
    const polls = plan.scripts.reduce((n, s) => n + s.actions.length, 0);
    assert.equal(day.tallies['script-login']?.latencies.length, polls);
    assert.equal(day.tallies['script-times']?.latencies.length, polls);
  });

  it('puts 85 % of a large team’s sign-ins between 9:00 and 9:10', () => {
    const users = Array.from({ length: 2000 }, (_, i) => `u${i}`);
    const plan = planDay(
      { ...sidecar, users, memberships: {} },
      { clock: { waveSpeed: 20, daySpeed: 1000 } },
    );
    const inWave = plan.people.filter((p) => {
      const at = p.actions[0]?.at as number;
      return at >= 9 * 60 && at < 9 * 60 + 10;
    }).length;
    assert.ok(Math.abs(inWave / users.length - 0.85) < 0.03, `${inWave} of ${users.length}`);
  });
});

describe('bench:day search', () => {
  it('finds the largest N that passes within 10 % (or 5 people)', async () => {
    for (const capacity of [7, 60, 137, 290]) {
      const r = await searchCapacity({
        start: 25,
        precision: 0.1,
        tryPeople: async (n) => n <= capacity,
        fits: () => true,
      });
      assert.ok(r.passed !== undefined && r.failed !== undefined);
      assert.ok(r.passed <= capacity && r.failed > capacity, `${capacity}: ${JSON.stringify(r)}`);
      assert.ok(
        r.failed - r.passed <= Math.max(5, r.passed * 0.1),
        `${capacity}: ${JSON.stringify(r)}`,
      );
    }
  });

  it('begins no day that would not fit the time left', async () => {
    const tried: number[] = [];
    await searchCapacity({
      start: 25,
      precision: 0.1,
      tryPeople: async (n) => {
        tried.push(n);
        return true;
      },
      fits: (n) => n <= 100,
    });
    assert.deepEqual(tried, [25, 50, 100]);
  });
});
