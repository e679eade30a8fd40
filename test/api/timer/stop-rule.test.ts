// The timer in the timesheet grid (issue 34): a stop with `add_to_entry` adds its time to
// the one entry of its row (project, activities) and day when there is exactly one and
// the time has no notes or issue URI of its own (one new revision), else makes a new
// entry; a duration from the clock is rounded to --timer-rounding, and a stop under one
// step books nothing (409 Timer too short, the timer keeps running). How long a timer ran
// is set in the database (test/helpers/timer-clock.ts), never waited for.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reply } from '../../helpers/api';
import { createActivity, createProject, createUser, type TestUser } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import { timerRunFor } from '../../helpers/timer-clock';

let server: TestServer;
let dev: string;
let docs: string;
let P: string;

before(async () => {
  server = await startTestServer();
  dev = (await createActivity(server)).slug;
  docs = (await createActivity(server)).slug;
  P = (await createProject(server, { default_activity: dev })).slugs[0] as string;
});
after(() => server.close());

const ok = <T = any>(res: Reply<T>): T => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

let day = 0;
/** A date of its own for each test, so that the rows of one never meet another's. */
const nextDate = () => `2026-03-${String(++day).padStart(2, '0')}`;

/** A new member of P. */
async function member(): Promise<TestUser> {
  const user = await createUser(server);
  const project = ok(await server.api.get(`/projects/${P}`, server.adminToken));
  const users = { ...project.users, [user.username]: { member: true } };
  ok(await server.api.post(`/projects/${P}`, server.adminToken, { users }));
  return user;
}

const book = async (user: TestUser, date: string, duration: number, extra: object = {}) =>
  ok(
    await server.api.post('/times', user.token, {
      duration,
      user: user.username,
      project: P,
      activities: [dev],
      date_worked: date,
      ...extra,
    }),
  );
const entriesOf = async (user: TestUser, date: string) =>
  ok<any[]>(
    await server.api.get('/times', user.token, { user: user.username, start: date, end: date }),
  ).sort((a, b) => b.duration - a.duration);

/** Starts a timer on the row (P, dev) of `date`, lets it run `seconds`, stops it. */
async function runTimer(
  user: TestUser,
  date: string,
  seconds: number,
  start: object = {},
  stop: object = { add_to_entry: true },
) {
  ok(
    await server.api.post('/timer', user.token, {
      project: P,
      activities: [dev],
      date_worked: date,
      ...start,
    }),
  );
  timerRunFor(server.dbFile, user.username, seconds);
  return server.api.post('/timer/stop', user.token, stop);
}

describe('a timer stopped with add_to_entry', () => {
  it('adds to the one entry of its row and day: one new revision, no new entry', async () => {
    const alice = await member();
    const date = nextDate();
    const entry = await book(alice, date, 3600);
    // Another row's entry that day (other activities) does not count.
    await book(alice, date, 600, { activities: [docs] });
    const stopped = ok(await runTimer(alice, date, 125));
    assert.equal(stopped.uuid, entry.uuid, 'the answer is the entry added to');
    assert.deepEqual(
      [stopped.duration, stopped.revision, stopped.activities, stopped.date_worked],
      [3600 + 120, 2, [dev], date],
    );
    const listed = await entriesOf(alice, date);
    assert.deepEqual(
      listed.map((t) => [t.uuid, t.duration, t.revision]),
      [
        [entry.uuid, 3720, 2],
        [(listed[1] as any).uuid, 600, 1],
      ],
    );
    const history = ok<any[]>(await server.api.get(`/times/${entry.uuid}/history`, alice.token));
    assert.deepEqual(
      history.map((t) => [t.revision, t.duration, t.changed_by]),
      [
        [2, 3720, alice.username],
        [1, 3600, alice.username],
      ],
    );
    assert.equal((await server.api.get('/timer', alice.token)).status, 404, 'the timer is gone');
  });

  it('finds the row of a timer started without activities: the project default', async () => {
    const alice = await member();
    const date = nextDate();
    const entry = await book(alice, date, 1800);
    const stopped = ok(await runTimer(alice, date, 60, { activities: [] }));
    assert.deepEqual([stopped.uuid, stopped.duration, stopped.revision], [entry.uuid, 1860, 2]);
  });

  it('makes a new entry when the cell holds two entries', async () => {
    const alice = await member();
    const date = nextDate();
    await book(alice, date, 3600);
    await book(alice, date, 1800);
    const stopped = ok(await runTimer(alice, date, 240));
    assert.deepEqual([stopped.duration, stopped.revision], [240, 1]);
    assert.deepEqual(
      (await entriesOf(alice, date)).map((t) => [t.duration, t.revision]),
      [
        [3600, 1],
        [1800, 1],
        [240, 1],
      ],
    );
  });

  it('makes a new entry when the timer has notes or an issue link of its own', async () => {
    const alice = await member();
    const date = nextDate();
    await book(alice, date, 3600);
    const withNotes = ok(await runTimer(alice, date, 60, { notes: 'review' }));
    assert.deepEqual([withNotes.duration, withNotes.notes, withNotes.revision], [60, 'review', 1]);
    const other = nextDate();
    await book(alice, other, 3600);
    const issue = 'https://code.example.org/p/issues/1';
    // Notes sent at stop count as the timer's own too.
    const withIssue = ok(await runTimer(alice, other, 60, { issue_uri: issue }));
    assert.deepEqual([withIssue.issue_uri, withIssue.revision], [issue, 1]);
    const third = nextDate();
    await book(alice, third, 3600);
    const notedAtStop = ok(
      await runTimer(alice, third, 60, {}, { add_to_entry: true, notes: 'done' }),
    );
    assert.deepEqual([notedAtStop.notes, notedAtStop.revision], ['done', 1]);
    for (const d of [date, other, third]) {
      assert.deepEqual(
        (await entriesOf(alice, d)).map((t) => [t.duration, t.revision]),
        [
          [3600, 1],
          [60, 1],
        ],
        d,
      );
    }
  });

  it('makes a new entry without add_to_entry (what other clients see stays as it was)', async () => {
    const alice = await member();
    const date = nextDate();
    await book(alice, date, 3600);
    const stopped = ok(await runTimer(alice, date, 60, {}, {}));
    assert.deepEqual([stopped.duration, stopped.revision], [60, 1]);
    assert.equal((await entriesOf(alice, date)).length, 2);
  });

  it('refuses add_to_entry that is not a boolean (kind 4) and keeps the timer', async () => {
    const alice = await member();
    const date = nextDate();
    const res = await runTimer(alice, date, 60, {}, { add_to_entry: 'yes' });
    assert.deepEqual(res.body, {
      status: 400,
      error: 'Bad object',
      text: 'Field add_to_entry of time should be boolean but was sent as string',
    });
    assert.equal((await server.api.get('/timer', alice.token)).status, 200);
    assert.deepEqual(await entriesOf(alice, date), []);
  });
});

describe('a timer stopped without a duration', () => {
  it('is rounded to the nearest minute by default', async () => {
    const alice = await member();
    const date = nextDate();
    // (Each runs from its set start to the stop a little longer than set: values in the
    // middle of a half-step, so that a slow machine's extra seconds cannot cross it.)
    assert.equal(ok(await runTimer(alice, date, 75, {}, {})).duration, 60);
    assert.equal(ok(await runTimer(alice, date, 91, {}, {})).duration, 120);
    assert.equal(ok(await runTimer(alice, date, 3615, {}, {})).duration, 3600);
    // A duration sent is booked as sent.
    assert.equal(ok(await runTimer(alice, date, 91, {}, { duration: 91 })).duration, 91);
  });

  it('books nothing under one step: 409 Timer too short, and the timer keeps running', async () => {
    const alice = await member();
    const date = nextDate();
    await book(alice, date, 3600);
    const res = await runTimer(alice, date, 42);
    // (It has run 42 seconds and the time the stop took to come: 42 on a fast machine.)
    const { text, ...rest } = res.body as { text: string };
    assert.deepEqual(rest, { status: 409, error: 'Timer too short' });
    assert.match(
      text,
      new RegExp(
        `^The timer of ${alice.username} has run 4[2-9] seconds, less than one rounding step of 60 seconds: nothing was booked$`,
      ),
    );
    assert.equal(res.status, 409);
    assert.deepEqual(
      (await entriesOf(alice, date)).map((t) => [t.duration, t.revision]),
      [[3600, 1]],
    );
    assert.equal((await server.api.get('/timer', alice.token)).status, 200, 'still running');
    assert.equal((await server.api.del('/timer', alice.token)).status, 200, 'can be discarded');
  });

  it('follows --timer-rounding', async () => {
    const coarse = await startTestServer({ env: { TIMETRACK_TIMER_ROUNDING: '900' } });
    try {
      const user = await createUser(coarse);
      const slug = (await createProject(coarse, { users: { [user.username]: { member: true } } }))
        .slugs[0] as string;
      const act = (await createActivity(coarse)).slug;
      const stopAfter = async (seconds: number) => {
        ok(await coarse.api.post('/timer', user.token, { project: slug, activities: [act] }));
        timerRunFor(coarse.dbFile, user.username, seconds);
        return coarse.api.post('/timer/stop', user.token, {});
      };
      assert.equal(ok(await stopAfter(1300)).duration, 900);
      assert.equal(ok(await stopAfter(1400)).duration, 1800);
      const short = await stopAfter(600);
      assert.equal(short.status, 409);
      assert.match(
        (short.body as any).text,
        /has run 60\d seconds, less than one rounding step of 900 seconds/,
      );
    } finally {
      await coarse.close();
    }
  });
});
