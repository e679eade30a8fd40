// The dialogs on a desktop and at 360×740: every label and legend is shown whole (above
// its field on a phone, not cut to "D" or "Is U"), and closing a dialog, by Escape or by
// Enter that saves, gives the focus back to the control that opened it; an entry's
// history shows every column without scrolling sideways. See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
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

/** Labels and legends of the open dialog that are cut, squeezed or outside it. */
async function cutLabels(dialog: Locator): Promise<string[]> {
  return dialog.evaluate((d: any) => {
    const box = d.getBoundingClientRect();
    const getComputedStyle = (globalThis as any).getComputedStyle;
    const cut: string[] = [];
    for (const el of d.querySelectorAll('label, legend')) {
      const r = el.getBoundingClientRect();
      const text = el.textContent.trim();
      if (!text) continue;
      // A label beside its field on a phone wraps its words: one word a line at most.
      const line = Number.parseFloat(getComputedStyle(el).lineHeight) || 20;
      const lines = Math.round(r.height / line);
      const words = text.split(/\s+/).length;
      if (
        r.width === 0 ||
        el.scrollWidth > el.clientWidth + 1 ||
        r.left < box.left ||
        r.right > box.right + 0.5 ||
        lines > Math.max(1, Math.ceil(words / 2))
      ) {
        cut.push(
          `${text} (${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(box.left)}–${Math.round(box.right)} px, ${el.scrollWidth}/${el.clientWidth}, ${lines} lines)`,
        );
      }
    }
    return cut;
  });
}

/**
 * Starts noting every moment an open dialog has nothing in it, or a name no dialog
 * should have; the returned function gives what was noted. A dialog that closed a frame
 * after its content went would show that: empty, under the next view's name, with the
 * focus on the page's body.
 */
async function watchDialogs(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = globalThis as any;
    w.__emptyDialogs = [];
    new w.MutationObserver(() => {
      for (const d of w.document.querySelectorAll('dialog[open]')) {
        if (d.childElementCount === 0) w.__emptyDialogs.push(d.getAttribute('aria-label'));
      }
    }).observe(w.document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (globalThis as any).__emptyDialogs as string[]);
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as any).document.activeElement;
    return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
  });

describe('the web app: dialogs', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
    for (const date of ['2024-01-29', '2024-02-05']) {
      const res = await server.api.post('/times', alice.token, {
        duration: 3600,
        user: 'alice',
        project: 'gwm',
        activities: ['dev'],
        date_worked: date,
        notes: 'planning',
      });
      assert.equal(res.status, 200, res.text);
    }
  });

  for (const [screen, viewport, week, monday] of [
    ['desktop', { width: 1280, height: 800 }, '2024-W05', '2024-01-29'],
    ['phone', { width: 360, height: 740 }, '2024-W06', '2024-02-05'],
  ] as const) {
    it(`shows whole labels and gives the focus back on close (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true }); // for axe
      await signIn(page, `${server.url}/?week=${week}`, alice.username, alice.password);
      const cell = page.getByRole('textbox', {
        name: `Ganeti Web Manager, Development, Mon ${monday}`,
      });
      await cell.press('Shift+Enter');
      const entry = page.getByRole('dialog', { name: /^Entries of / });
      await entry.getByLabel('Duration').waitFor();
      assert.deepEqual(await cutLabels(entry), [], 'the entry’s form');
      assert.deepEqual(await axeViolations(page), [], 'the entry’s form');
      await page.keyboard.press('Escape');
      await entry.waitFor({ state: 'detached' });
      assert.match(await focusedName(page), new RegExp(`Mon ${monday}`), 'after Escape');

      // Enter in a field saves and closes: the focus is back on the cell.
      await cell.press('Shift+Enter');
      await entry.getByLabel('Duration').fill('2');
      await entry.getByLabel('Duration').press('Enter');
      await entry.waitFor({ state: 'detached' });
      assert.match(await focusedName(page), new RegExp(`Mon ${monday}`), 'after Enter');
      const saved = await server.api.get('/times', alice.token, { start: monday, end: monday });
      assert.deepEqual(
        (saved.body as any[]).map((t) => t.duration),
        [7200],
      );

      const start = page.getByRole('region', { name: 'Timer' }).getByRole('button', {
        name: 'Start timer',
      });
      await start.click();
      const timer = page.getByRole('dialog', { name: 'Start the timer' });
      await timer.getByLabel('Notes').waitFor();
      assert.deepEqual(await cutLabels(timer), [], 'the timer’s form');
      await page.keyboard.press('Escape');
      await timer.waitFor({ state: 'hidden' });
      assert.equal(await focusedName(page), 'Start timer');

      await page.getByRole('link', { name: 'Entries' }).click();
      const edit = page.getByRole('button', { name: new RegExp(`^Edit .*${monday}`) });
      await edit.click();
      const form = page.getByRole('dialog', { name: 'Edit entry' });
      await form.getByLabel('Notes').waitFor();
      assert.deepEqual(await cutLabels(form), [], 'the entries page’s form');
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });
      assert.match(await focusedName(page), new RegExp(`^Edit .*${monday}`));

      // An entry's history (nine columns): on a phone each revision is a card, so nothing
      // is cut off at the side or needs scrolling sideways.
      const history = page.getByRole('button', { name: new RegExp(`^History of .*${monday}`) });
      await history.click();
      const revisions = page.getByRole('dialog', { name: 'Entry history' });
      await revisions.getByText('duration: 1:00 → 2:00').waitFor();
      assert.deepEqual(await overflows(page), [], 'an entry’s history');
      assert.deepEqual(await axeViolations(page), [], 'an entry’s history');
      const emptyDialogs = await watchDialogs(page);
      await page.keyboard.press('Escape');
      await revisions.waitFor({ state: 'hidden' });
      assert.deepEqual(await emptyDialogs(), [], 'open and empty while closing');
      assert.match(await focusedName(page), new RegExp(`^History of .*${monday}`));
      await page.context().close();
    });
  }
});
