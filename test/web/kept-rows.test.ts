// "Copy last week" and rows that stay (issue 34), on a desktop and at 360×740: the button
// brings last week's rows (project and activities, no hours) that are not rows yet; a
// row added and not yet filled survives a reload and shows in a second browser context
// of the same user; once filled it is no longer kept, and a kept row can be removed.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createActivity, createProject, type TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { aliceInGwm, axeViolations, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

// Each screen its own week and the week before it.
const SCREENS = [
  ['desktop', { width: 1280, height: 800 }, '2024-W10', '2024-03-04', '2024-02-26'],
  ['phone', { width: 360, height: 740 }, '2024-W12', '2024-03-18', '2024-03-11'],
] as const;

describe('the web app: copy last week, and rows that stay', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
    await createActivity(server, { slug: 'docs', name: 'Documentation' });
    await createProject(server, {
      name: 'Protocols',
      slugs: ['pgd'],
      users: { alice: { member: true } },
    });
  });

  const book = async (project: string, activity: string, date: string) => {
    const res = await server.api.post('/times', alice.token, {
      duration: 3600,
      user: 'alice',
      project,
      activities: [activity],
      date_worked: date,
    });
    assert.equal(res.status, 200, res.text);
  };
  const keptRows = async (week: string) =>
    (
      (await server.api.get(`/weeks/alice/${week}/rows`, alice.token)).body as {
        rows: { project: string[]; activities: string[] }[];
      }
    ).rows.map((r) => `${r.project[0]}/${r.activities.join(',')}`);
  /** Does `act`, and waits for the PUT of the kept rows it makes. */
  const keeping = async (page: Page, act: () => Promise<void>) => {
    const put = page.waitForResponse(
      (r) => r.url().includes('/rows') && r.request().method() === 'PUT',
    );
    await act();
    assert.equal((await put).status(), 200);
  };
  const cellOf = (page: Page, row: string, monday: string) =>
    page.getByRole('textbox', { name: `${row}, Mon ${monday}` });

  for (const [screen, viewport, week, monday, lastMonday] of SCREENS) {
    it(`copies last week's rows, and keeps them across reloads and devices (${screen})`, async () => {
      // Last week: gwm/dev and pgd/docs; this week gwm/dev already has an entry.
      await book('gwm', 'dev', lastMonday);
      await book('pgd', 'docs', lastMonday);
      await book('gwm', 'dev', monday);
      const page = await newPage(browser, { viewport, bypassCSP: true });
      await signIn(page, `${server.url}/?week=${week}`, alice.username, alice.password);
      await cellOf(page, 'Ganeti Web Manager, Development', monday).waitFor();
      assert.equal(await cellOf(page, 'Protocols, Documentation', monday).count(), 0);

      await keeping(page, () => page.getByRole('button', { name: 'Copy last week' }).click());
      await page
        .getByRole('status')
        .getByText(/Copied 1 row from week \d+/)
        .waitFor();
      await cellOf(page, 'Protocols, Documentation', monday).waitFor();
      assert.equal(await cellOf(page, 'Ganeti Web Manager, Development', monday).count(), 1);
      assert.deepEqual(await keptRows(week), ['pgd/docs']);
      // Copied again: nothing new.
      await page.getByRole('button', { name: 'Copy last week' }).click();
      await page
        .getByRole('status')
        .getByText(/every row of week \d+ is here already/)
        .waitFor();

      // Add row: Protocols with Development, kept too.
      const form = page.getByRole('form', { name: 'Add a row' });
      await form.getByLabel('Project').selectOption({ label: 'Protocols' });
      await form.getByLabel('Activity').selectOption({ label: 'Development' });
      await keeping(page, () => form.getByRole('button', { name: 'Add row' }).click());
      await cellOf(page, 'Protocols, Development', monday).waitFor();
      assert.deepEqual(await keptRows(week), ['pgd/docs', 'pgd/dev']);
      assert.deepEqual(await axeViolations(page), []);

      // A reload, and a second browser context of the same user: the rows are there.
      await page.reload();
      await cellOf(page, 'Protocols, Documentation', monday).waitFor();
      await cellOf(page, 'Protocols, Development', monday).waitFor();
      const other = await newPage(browser, { viewport });
      await signIn(other, `${server.url}/?week=${week}`, alice.username, alice.password);
      await cellOf(other, 'Protocols, Documentation', monday).waitFor();
      await cellOf(other, 'Protocols, Development', monday).waitFor();
      await other.context().close();

      // Filled: no longer kept (a row of its entry now). Removed: gone.
      const cell = cellOf(page, 'Protocols, Documentation', monday);
      await cell.fill('2');
      await keeping(page, () => cell.press('Enter'));
      await page
        .getByRole('status')
        .getByText(new RegExp(`Saved .*${monday}`))
        .waitFor();
      assert.deepEqual(await keptRows(week), ['pgd/dev']);
      await keeping(page, () =>
        page.getByRole('button', { name: 'Remove row Protocols, Development' }).click(),
      );
      await cellOf(page, 'Protocols, Development', monday).waitFor({ state: 'detached' });
      assert.deepEqual(await keptRows(week), []);
      await page.reload();
      await cellOf(page, 'Protocols, Documentation', monday).waitFor();
      assert.equal(await cellOf(page, 'Protocols, Development', monday).count(), 0);
      await page.context().close();
    });
  }
});
