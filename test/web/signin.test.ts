// The sign-in page on a desktop and at 360×740: it shows the instance's display name
// (TIMETRACK_DISPLAY_NAME, not the tokens' issuer name) and has the focus in Username, so
// one types at once. See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createUser, type TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, skipReason } from './browser';

const skip = skipReason();

describe('the web app: the sign-in page', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite({ TIMETRACK_DISPLAY_NAME: 'Acme Hours' });
  before(async () => {
    ({ server, browser } = suite);
    alice = await createUser(server, { username: 'alice' });
  });

  for (const [screen, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`shows the display name and takes typing at once (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true }); // for axe
      await page.goto(server.url);
      const form = page.getByRole('form', { name: 'Sign in' });
      await form.getByText('Acme Hours', { exact: true }).waitFor();
      assert.equal(await form.getByText('timesync').count(), 0);
      await page.waitForFunction(
        () => (globalThis as any).document.activeElement?.name === 'username',
      );
      assert.deepEqual(await axeViolations(page), []);
      await page.keyboard.type(alice.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type(alice.password);
      await page.keyboard.press('Enter');
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await page.context().close();
    });
  }
});
