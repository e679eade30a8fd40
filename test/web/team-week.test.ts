// The manager's week (issue 34), on a desktop and at 360×740: a manager who is a member
// of no project lands on who logged what on their projects this week (another person's
// hours, per person and project, the week's total), not on the "a manager can add you"
// dead end; previous and next week; links to the reports; axe clean. A member who also
// manages a project keeps the timesheet and reaches the same view as "Team week".
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createProject, createUser, type TestUser } from '../helpers/factories';
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

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** This week's Monday and the Monday before, as the browser sees them. */
function mondays(): [string, string] {
  const now = new Date();
  const monday = new Date(
    now.getFullYear(),
    now.getMonth(),
    now.getDate() - ((now.getDay() + 6) % 7),
  );
  const before = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() - 7);
  return [iso(monday), iso(before)];
}

describe('the web app: the manager’s week', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  // This week's Monday, taken once clear of midnight (the pages must find the same week).
  let monday: string;
  let lastMonday: string;

  const suite = browserSuite();
  before(async () => {
    await clearOfMidnight();
    [monday, lastMonday] = mondays();
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
    // carol manages gwm and pgd and logs time nowhere; dave is a member of pgd who also
    // manages gwm.
    carol = await createUser(server, { username: 'carol', display_name: 'Carol Chief' });
    dave = await createUser(server, { username: 'dave', display_name: 'Dave Dev' });
    await server.api.post('/projects/gwm', server.adminToken, {
      users: { alice: { member: true }, carol: { manager: true }, dave: { manager: true } },
    });
    await createProject(server, {
      name: 'Protein Geometry DB',
      slugs: ['pgd'],
      default_activity: 'dev',
      users: { dave: { member: true }, carol: { manager: true } },
    });
    // A project carol does not manage: its hours are not hers to see.
    await createProject(server, {
      name: 'Secret',
      slugs: ['secret'],
      users: { alice: { member: true } },
    });
    for (const [who, project, date, duration] of [
      [alice, 'gwm', monday, 27000],
      [alice, 'gwm', lastMonday, 3600],
      [dave, 'pgd', monday, 5400],
      [alice, 'secret', monday, 1800],
    ] as const) {
      const res = await server.api.post('/times', who.token, {
        duration,
        user: who.username,
        project,
        activities: ['dev'],
        date_worked: date,
      });
      assert.equal(res.status, 200, res.text);
    }
  });

  for (const [screen, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`lands a manager who is a member of nothing on their projects' week (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true }); // for axe
      await signIn(page, server.url, carol.username, carol.password);
      const table = page.getByRole('table', { name: /Hours per person and project/ });
      await table.waitFor();
      await page.getByRole('heading', { name: /^Team week \d+, \d{4}$/ }).waitFor();
      const rowText = async () =>
        (await table.locator('tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      const rows = await rowText();
      assert.equal(rows.length, 2, rows.join(' | '));
      assert.match(rows[0] as string, /^alice Ganeti Web Manager .*7:30$/);
      assert.match(rows[1] as string, /^Dave Dev dave Protein Geometry DB.* 1:30$/);
      assert.equal(
        (await table.locator('tfoot .week-total').textContent())?.trim(),
        '9:00',
        'the week total leaves out the project carol does not manage',
      );
      // At /team, which the navigation marks; a timesheet she could not fill is not offered.
      await page.waitForURL(/\/team$/);
      const nav = page.getByRole('navigation', { name: 'Main' });
      assert.equal(
        await nav.getByRole('link', { name: 'Team week' }).getAttribute('aria-current'),
        'page',
      );
      assert.equal(await nav.getByRole('link', { name: 'Timesheet' }).count(), 0);
      const body = (await page.locator('main').textContent()) ?? '';
      assert.doesNotMatch(body, /not a member of any project/);
      await page.getByRole('link', { name: 'Ganeti Web Manager, per person and day' }).waitFor();
      assert.deepEqual(await overflows(page), []);
      assert.deepEqual(await axeViolations(page), []);

      // The week before: alice's one hour.
      await page.getByRole('button', { name: 'Previous week' }).click();
      await page.waitForFunction(
        () => /week=/.test((globalThis as any).location.search),
        undefined,
      );
      await table.locator('tfoot .week-total', { hasText: '1:00' }).waitFor();
      assert.equal((await rowText()).length, 1);
      // A report of the project, a click away.
      await page.getByRole('link', { name: 'Ganeti Web Manager, per person and day' }).click();
      await page.waitForURL(/\/reports\?.*project=gwm/);
      await page.context().close();
    });
  }

  it('keeps the timesheet of a member who also manages, with Team week in the navigation', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await signIn(page, server.url, dave.username, dave.password);
    await page.getByRole('table', { name: /Hours of dave/ }).waitFor();
    await page.getByRole('link', { name: 'Team week' }).click();
    const table = page.getByRole('table', { name: /Hours per person and project/ });
    await table.locator('tbody tr', { hasText: 'Ganeti Web Manager' }).waitFor();
    assert.match(
      ((await table.locator('tbody').textContent()) ?? '').replace(/\s+/g, ' '),
      /alice/,
    );
    // A plain member sees no Team week.
    const other = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await signIn(other, server.url, alice.username, alice.password);
    await other.getByRole('table', { name: /Hours of alice/ }).waitFor();
    assert.equal(await other.getByRole('link', { name: 'Team week' }).count(), 0);
    await page.context().close();
    await other.context().close();
  });
});
