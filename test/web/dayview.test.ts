// The timesheet on a phone (issue 34): at 360×740 one day at a time, today's by default,
// every row's cell of that day full-width, on screen and at least 44 px tall, no
// sideways scroll, the day's and the week's totals in view, previous and next day
// (across weeks too), `8` saves 28,800 s, ⋯ opens the day's entries, no hint about keys
// a phone has not, axe clean. A desktop keeps the week grid. See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createProject, type TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { clearOfMidnight } from '../helpers/timer-clock';
import {
  aliceInGwm,
  axeViolations,
  browserSuite,
  newPage,
  overflows,
  signIn,
  skipReason,
} from './browser';

const skip = skipReason();
const PHONE = { width: 360, height: 740 };
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** Today's week as the browser sees it (the same time zone as this process). */
function thisWeek(): { today: string; days: string[] } {
  const now = new Date();
  const monday = new Date(
    now.getFullYear(),
    now.getMonth(),
    now.getDate() - ((now.getDay() + 6) % 7),
  );
  const days = Array.from({ length: 7 }, (_, i) =>
    iso(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i)),
  );
  return { today: iso(now), days };
}
const weekday = (days: string[], date: string) => WEEKDAYS[days.indexOf(date)] as string;

/** The element's box lies inside the 360×740 window. */
async function inViewport(page: Page, name: string | RegExp) {
  const box = await page.getByRole('textbox', { name }).boundingBox();
  assert.ok(box, `${name} is not shown`);
  assert.ok(
    box.x >= 0 &&
      box.x + box.width <= PHONE.width &&
      box.y >= 0 &&
      box.y + box.height <= PHONE.height,
    `${name} is outside the window: ${JSON.stringify(box)}`,
  );
  return box;
}

describe('the web app: the day view on a phone', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;
  // Today's week, taken once clear of midnight (the pages must find the same today).
  let today: string;
  let days: string[];
  let other: string;

  const suite = browserSuite();
  before(async () => {
    await clearOfMidnight();
    ({ today, days } = thisWeek());
    other = days[(days.indexOf(today) + 1) % 7] as string;
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
    await createProject(server, {
      name: 'Protein Geometry DB',
      slugs: ['pgd'],
      default_activity: 'dev',
      users: { alice: { member: true } },
    });
    await createProject(server, {
      name: 'Zeta',
      slugs: ['zeta'],
      default_activity: 'dev',
      users: { alice: { member: true } },
    });
    for (const [project, date, duration] of [
      ['gwm', today, 7200],
      ['pgd', other, 3600],
    ] as const) {
      const res = await server.api.post('/times', alice.token, {
        duration,
        user: 'alice',
        project,
        activities: ['dev'],
        date_worked: date,
        notes: 'planning',
      });
      assert.equal(res.status, 200, res.text);
    }
  });

  it('shows today, every row full-width and in view, the totals, no sideways scroll', async () => {
    const page = await newPage(browser, { viewport: PHONE, bypassCSP: true }); // for axe
    await signIn(page, server.url, alice.username, alice.password);
    await page.getByRole('button', { name: 'Previous day' }).waitFor();
    assert.equal(await page.getByRole('table').count(), 0, 'the week grid is gone');
    const label = (project: string, date: string) =>
      `${project}, Development, ${weekday(days, date)} ${date}`;
    for (const project of ['Ganeti Web Manager', 'Protein Geometry DB']) {
      const box = await inViewport(page, label(project, today));
      assert.ok(box.height >= 44, `${project}'s cell is ${box.height} px tall`);
      assert.ok(box.width >= 300, `${project}'s cell is ${box.width} px wide`);
    }
    assert.equal(
      await page.getByRole('textbox', { name: label('Ganeti Web Manager', today) }).inputValue(),
      '2:00',
    );
    assert.deepEqual(await overflows(page), []);
    // The day's and the week's totals, inside the window.
    for (const [name, value] of [
      ['Day total', '2:00'],
      ['Week total', '3:00'],
    ]) {
      const total = page.locator('.day-totals div', { hasText: name });
      assert.equal(await total.locator('dd').textContent(), value);
      const box = await total.boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height,
      );
    }
    // A row added: its cell of the day shown takes the focus, ready for typing.
    await page.getByLabel('Project').selectOption({ label: 'Zeta' });
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.waitForFunction(
      (name) => (globalThis as any).document.activeElement?.getAttribute('aria-label') === name,
      label('Zeta', today),
    );
    await inViewport(page, label('Zeta', today));
    const hint = (await page.locator('.hint').textContent()) ?? '';
    assert.match(hint, /A number is hours/);
    assert.doesNotMatch(hint, /Shift|Enter|Escape|arrow/i);
    assert.deepEqual(await axeViolations(page), []);
    await page.context().close();
  });

  it('moves a day at a time, across weeks too, and saves 8 as 8 hours', async () => {
    const page = await newPage(browser, { viewport: PHONE });
    await signIn(page, `${server.url}/?week=2024-W06`, alice.username, alice.password);
    // A week without today opens on its Monday; it has no rows yet: add one.
    await page.getByRole('heading', { name: /5 February/ }).waitFor();
    await page.getByRole('button', { name: 'Add row' }).click();
    const cell = (date: string, day: string) =>
      page.getByRole('textbox', { name: `Ganeti Web Manager, Development, ${day} ${date}` });
    await cell('2024-02-05', 'Mon').waitFor();
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByRole('heading', { name: /6 February/ }).waitFor();
    await inViewport(page, /Tue 2024-02-06/);
    assert.equal(await cell('2024-02-05', 'Mon').count(), 0, 'Monday is not shown with Tuesday');
    await cell('2024-02-06', 'Tue').fill('8');
    await cell('2024-02-06', 'Tue').press('Enter');
    await page
      .getByRole('status')
      .getByText('Saved Ganeti Web Manager, Development, 2024-02-06')
      .waitFor();
    const saved = await server.api.get('/times', alice.token, {
      start: '2024-02-06',
      end: '2024-02-06',
    });
    assert.deepEqual(
      (saved.body as any[]).map((t) => [t.project, t.duration]),
      [[['gwm'], 28800]],
    );
    assert.equal(
      await page.locator('.day-totals div', { hasText: 'Day total' }).locator('dd').textContent(),
      '8:00',
    );
    assert.equal(
      await page.locator('.day-totals div', { hasText: 'Week total' }).locator('dd').textContent(),
      '8:00',
    );
    // Back to Monday, then a day before it: the previous week's Sunday.
    await page.getByRole('button', { name: 'Previous day' }).click();
    await page.getByRole('heading', { name: /5 February/ }).waitFor();
    await page.getByRole('button', { name: 'Previous day' }).click();
    await page.getByRole('heading', { name: /4 February/ }).waitFor();
    await page.getByRole('heading', { name: 'Week 5, 2024' }).waitFor();
    // Next week keeps the weekday: Sunday of week 6.
    await page.getByRole('button', { name: 'Next week' }).click();
    await page.getByRole('heading', { name: /11 February/ }).waitFor();
    // The week strip jumps to a day; the saved Tuesday shows its hours and ⋯ opens its entry.
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.getByRole('heading', { name: /4 February/ }).waitFor();
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByRole('button', { name: 'Tue 6 8:00 h' }).click();
    await page.getByRole('heading', { name: /6 February/ }).waitFor();
    assert.equal(await cell('2024-02-06', 'Tue').inputValue(), '8:00');
    const open = page.getByRole('button', {
      name: 'Entries of Ganeti Web Manager, Development, Tue 2024-02-06',
    });
    const box = await open.boundingBox();
    assert.ok(box && box.height >= 44 && box.x + box.width <= PHONE.width, JSON.stringify(box));
    await open.click();
    // One entry opens in its form (notes, issue URI); Escape closes it.
    await page.getByRole('dialog').getByLabel('Notes').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('keeps the week grid on a desktop', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await signIn(page, server.url, alice.username, alice.password);
    await page.getByRole('table', { name: /Hours of alice/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous day' }).count(), 0);
    for (const date of days) {
      await page
        .getByRole('textbox', {
          name: `Ganeti Web Manager, Development, ${weekday(days, date)} ${date}`,
        })
        .waitFor();
    }
    assert.match((await page.locator('.hint').textContent()) ?? '', /Shift\+Enter/);
    await page.context().close();
  });
});
