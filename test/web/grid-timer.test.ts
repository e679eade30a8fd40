// The timer in the grid and cells that stay typeable (issue 34), on a desktop and at
// 360×740: a row's "Start timer on PROJECT, ACTIVITY" starts the timer, and its stop adds
// to that cell's one entry (one entry, the summed duration); a stop under one rounding
// step offers Discard; a cell of two entries takes a new total on its most recent entry,
// and a total too low for that opens the list saying why; notes and issue links show as
// marks with a description; axe finds nothing serious. The page's clock is page.clock's;
// how long the timer ran on the server is set in the database (test/helpers/timer-clock.ts).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { createUser, type TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { clearOfMidnight, timerRunFor } from '../helpers/timer-clock';
import { aliceInGwm, axeViolations, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

const SCREENS = [
  ['desktop', { width: 1280, height: 800 }, '2024-W10', '2024-03-04'],
  ['phone', { width: 360, height: 740 }, '2024-W11', '2024-03-11'],
] as const;

const ROW = 'Ganeti Web Manager, Development';

/** The day `days` after an ISO date. */
const plus = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The texts of an element's aria-describedby. */
const description = (el: Locator) =>
  el.evaluate((node) =>
    (node.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id: string) => (globalThis as any).document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );

describe('the web app: the timer in the grid, typeable cells, marks', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const users: Record<string, TestUser> = {};

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    users.desktop = await aliceInGwm(server);
    users.phone = await createUser(server, { username: 'bob' });
    await server.api.post('/projects/gwm', server.adminToken, {
      users: { alice: { member: true }, bob: { member: true } },
    });
  });

  const book = async (user: TestUser, date: string, duration: number, extra: object = {}) => {
    const res = await server.api.post('/times', user.token, {
      duration,
      user: user.username,
      project: 'gwm',
      activities: ['dev'],
      date_worked: date,
      ...extra,
    });
    assert.equal(res.status, 200, res.text);
    return res.body as { uuid: string };
  };
  const entriesOn = async (user: TestUser, date: string) =>
    (
      (await server.api.get('/times', user.token, { user: user.username, start: date, end: date }))
        .body as any[]
    ).map((t) => [t.duration, t.revision, t.notes]);
  const timerOf = (page: Page) => page.getByRole('region', { name: 'Timer' });

  for (const [screen, viewport, week, monday] of SCREENS) {
    it(`starts the timer from a row; the stop joins the cell's one entry (${screen})`, async () => {
      const user = users[screen] as TestUser;
      // Today on the server's clock (TZ=UTC in the tests), as the browser's: the page's
      // clock starts 125 s back, so that after it has run forward it is the server's again.
      await clearOfMidnight();
      const today = new Date().toISOString().slice(0, 10);
      await book(user, today, 3600);
      const page = await newPage(browser, { viewport, bypassCSP: true });
      await page.clock.install({ time: Date.now() - 125_000 });
      await signIn(page, server.url, user.username, user.password);
      const start = page.getByRole('button', { name: `Start timer on ${ROW}` });
      assert.deepEqual(await axeViolations(page), [], 'the week with its row buttons');
      await start.click();
      const stop = timerOf(page).getByRole('button', { name: 'Stop timer' });
      await stop.waitFor();
      await page.getByText('Timer running').waitFor();
      assert.equal(await start.count(), 0, 'the running row says so instead');

      // Two minutes and five seconds: on the server (its real clock) and on the page.
      timerRunFor(server.dbFile, user.username, 125);
      await page.clock.runFor(125_000);
      await stop.click();
      await timerOf(page)
        .getByRole('status')
        .getByText(`Added to Ganeti Web Manager, ${today}: now 1:02`)
        .waitFor();
      const cell = page.getByRole('textbox', { name: new RegExp(`^${ROW}, \\w+ ${today}$`) });
      await page.waitForFunction((el) => (el as any)?.value === '1:02', await cell.elementHandle());
      assert.deepEqual(await entriesOn(user, today), [[3720, 2, null]], 'one entry, summed');

      // Under one rounding step: nothing is booked, Discard is offered.
      await page.getByRole('button', { name: `Start timer on ${ROW}` }).click();
      await stop.waitFor();
      await stop.click();
      const ask = page.getByRole('dialog', { name: 'Discard the timer?' });
      await ask
        .getByText(/less than one rounding step of 60 seconds: nothing was booked/)
        .waitFor();
      await ask.getByRole('button', { name: 'Discard' }).click();
      await timerOf(page).getByRole('status').getByText('Timer discarded').waitFor();
      assert.equal((await server.api.get('/timer', user.token)).status, 404);
      assert.deepEqual(await entriesOn(user, today), [[3720, 2, null]], 'nothing booked');
      await page.context().close();
    });

    it(`takes a new total on a two-entry cell's most recent entry, never below zero (${screen})`, async () => {
      const user = users[screen] as TestUser;
      await book(user, monday, 600);
      const recent = await book(user, monday, 1200);
      const page = await newPage(browser, { viewport, bypassCSP: true });
      await signIn(page, `${server.url}/?week=${week}`, user.username, user.password);
      const cell = page.getByRole('textbox', { name: `${ROW}, Mon ${monday} (2 entries)` });
      assert.equal(await cell.inputValue(), '0:30');
      await cell.fill('1');
      await cell.press('Enter');
      await page.getByRole('status').getByText(`Saved ${ROW}, ${monday}`).waitFor();
      assert.deepEqual(
        await entriesOn(user, monday),
        [
          [600, 1, null],
          [3000, 2, null],
        ],
        'the most recent entry took the difference',
      );
      const latest = (await server.api.get(`/times/${recent.uuid}`, user.token)).body as any;
      assert.equal(latest.duration, 3000);
      await page.waitForFunction((el) => (el as any)?.value === '1:00', await cell.elementHandle());

      // 0:05 would take the most recent entry (0:50) below zero: the list opens, saying why.
      await cell.fill('0:05');
      await cell.press('Enter');
      const list = page.getByRole('dialog', { name: `Entries of ${ROW}, ${monday}` });
      await list
        .getByRole('alert')
        .getByText(
          'A total of 0:05 would take the most recent entry (0:50) below zero: the other entries hold 0:10. Change or delete them here.',
        )
        .waitFor();
      assert.deepEqual(await axeViolations(page), [], 'the list with its reason');
      assert.deepEqual(
        await entriesOn(user, monday),
        [
          [600, 1, null],
          [3000, 2, null],
        ],
        'nothing written',
      );
      await list.getByRole('button', { name: 'Close' }).click();
      await list.waitFor({ state: 'detached' });
      assert.equal(await cell.inputValue(), '1:00', 'the cell shows what is saved');
      await page.context().close();
    });

    it(`marks cells with notes or an issue link, with a description (${screen})`, async () => {
      const user = users[screen] as TestUser;
      const [tue, wed, thu] = [plus(monday, 1), plus(monday, 2), plus(monday, 3)];
      await book(user, tue, 1800, { notes: 'planning' });
      await book(user, wed, 1800, { issue_uri: 'https://code.example.org/gwm/issues/7' });
      await book(user, thu, 1800);
      const page = await newPage(browser, { viewport, bypassCSP: true });
      await signIn(page, `${server.url}/?week=${week}`, user.username, user.password);
      const cellOn = (day: string, date: string) =>
        page.getByRole('textbox', { name: new RegExp(`^${ROW}, ${day} ${date}`) });
      // A phone shows one day at a time: each is opened by its address.
      const phone = viewport.width < 600;
      const show = async (date: string) => {
        if (phone) await page.goto(`${server.url}/?week=${week}&day=${date}`);
      };
      const marks = [
        ['Tue', tue, '✎', 'Has notes'],
        ['Wed', wed, '#', 'Has an issue link'],
        ['Thu', thu, '', ''],
      ] as const;
      for (const [day, date, sign, text] of marks) {
        await show(date);
        const cell = cellOn(day, date);
        await cell.waitFor();
        assert.equal(await description(cell), text, `the description of ${day}`);
        if (!sign) continue;
        // The mark is seen, inside its cell.
        const box = page.locator('.cell').filter({ has: cell });
        const mark = box.locator('.mark');
        await mark.scrollIntoViewIfNeeded();
        assert.equal(await mark.textContent(), sign);
        assert.ok(await mark.isVisible(), `the mark of ${day}`);
        const [outer, inner] = [await box.boundingBox(), await mark.boundingBox()];
        assert.ok(outer && inner, `boxes of ${day}`);
        assert.ok(
          inner.x >= outer.x &&
            inner.x + inner.width <= outer.x + outer.width &&
            inner.y >= outer.y &&
            inner.y + inner.height <= outer.y + outer.height,
          `the mark of ${day} lies inside its cell`,
        );
        if (phone) assert.deepEqual(await axeViolations(page), [], `the day with a mark (${day})`);
      }
      assert.deepEqual(await axeViolations(page), [], 'the week with marks');
      await page.context().close();
    });
  }
});
