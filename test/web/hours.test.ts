// Typing hours into the week's cells, on a desktop and at 360×740: a bare number is hours
// (`8` saves 28,800 s), minutes need their `m`, more than 24 hours is refused and nothing
// is saved, and the hint under the grid says so. What is typed into a new row's cell, and
// "Add row" asked for, before the browser's first paint of them are kept as they are.
// See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { aliceInGwm, browserSuite, newPage, settled, signIn, skipReason } from './browser';

const skip = skipReason();

const SCREENS = [
  ['desktop', { width: 1280, height: 800 }, '2024-W05', '2024-01-29'],
  ['phone', { width: 360, height: 740 }, '2024-W06', '2024-02-05'],
] as const;

describe('the web app: hours in the timesheet', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
  });

  it('keeps hours typed into a new row’s cell before the browser has painted it', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W07`, alice.username, alice.password);
    await page.getByText('A number is hours (8, 1.5)').waitFor();
    // Types into Monday's cell in the very task that puts it in the page (a
    // MutationObserver's callback runs before the next frame): a state set by an effect
    // on mount, which runs after the paint, put the empty value back over it.
    const typed = page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const g = globalThis as any;
          const observer = new g.MutationObserver(() => {
            const cell = g.document.querySelector('input[aria-label*="Mon 2024-02-12"]');
            if (!cell) return;
            observer.disconnect();
            cell.value = '2';
            cell.dispatchEvent(new g.Event('input', { bubbles: true }));
            resolve();
          });
          observer.observe(g.document.body, { childList: true, subtree: true });
        }),
    );
    await page.getByRole('button', { name: 'Add row' }).click();
    await typed;
    await settled(page); // Preact's effects of that render have run
    const cell = page.getByRole('textbox', { name: /Development, Mon 2024-02-12/ });
    assert.equal(await cell.inputValue(), '2');
    await cell.press('Enter');
    await page
      .getByRole('status')
      .getByText(/Saved .*2024-02-12/)
      .waitFor();
    const saved = await server.api.get('/times', alice.token, {
      start: '2024-02-12',
      end: '2024-02-12',
    });
    assert.deepEqual(
      (saved.body as any[]).map((t) => t.duration),
      [7200],
    );
    await page.context().close();
  });

  it('adds a row with the project’s default activity when asked before the first paint', async () => {
    const page = await newPage(browser);
    // Clicks "Add row" in the very task that puts the form in the page: the activity it
    // preselects was set by an effect after the paint, and the row came without one.
    await page.addInitScript(() => {
      const g = globalThis as any;
      const observer = new g.MutationObserver(() => {
        const button = g.document.querySelector('form[aria-label="Add a row"] button');
        if (!button) return;
        observer.disconnect();
        button.click();
      });
      g.addEventListener('DOMContentLoaded', () =>
        observer.observe(g.document.body, { childList: true, subtree: true }),
      );
    });
    await signIn(page, `${server.url}/?week=2024-W08`, alice.username, alice.password);
    await page
      .getByRole('status')
      .getByText('Added the row Ganeti Web Manager, Development')
      .waitFor();
    await page
      .getByRole('textbox', { name: 'Ganeti Web Manager, Development, Mon 2024-02-19' })
      .waitFor();
    await page.context().close();
  });

  for (const [screen, viewport, week, monday] of SCREENS) {
    it(`reads a bare number as hours and refuses more than 24 (${screen})`, async () => {
      const page = await newPage(browser, { viewport });
      await signIn(page, `${server.url}/?week=${week}`, alice.username, alice.password);
      await page.getByText('A number is hours (8, 1.5)').waitFor();
      await page.getByRole('button', { name: 'Add row' }).click();
      const cell = page.getByRole('textbox', { name: new RegExp(`Development, Mon ${monday}`) });
      await cell.fill('8');
      await cell.press('Enter');
      await page
        .getByRole('status')
        .getByText(new RegExp(`Saved .*${monday}`))
        .waitFor();
      assert.equal(await cell.inputValue(), '8:00');
      const saved = async () =>
        (
          (await server.api.get('/times', alice.token, { start: monday, end: monday }))
            .body as any[]
        ).map((t) => t.duration);
      assert.deepEqual(await saved(), [28800]);

      await cell.fill('90');
      await cell.press('Enter');
      await page
        .getByRole('alert')
        .getByText(/at most 24 hours.*90m/)
        .waitFor();
      assert.deepEqual(await saved(), [28800]);
      await cell.fill('1,5');
      await cell.press('Enter');
      await page.getByRole('alert').waitFor({ state: 'detached' });
      await page.waitForFunction(
        (label) =>
          [...(globalThis as any).document.querySelectorAll('input')].some(
            (i: any) => i.getAttribute('aria-label')?.includes(label) && i.value === '1:30',
          ),
        `Mon ${monday}`,
      );
      assert.deepEqual(await saved(), [5400]);
      await page.context().close();
    });
  }
});
