// Sessions that last while used (issue 34), on a desktop and at 360×740: a second tab of a
// signed-in browser is signed in (the token handed over on a BroadcastChannel, never in
// localStorage or a cookie); with 60-second tokens, ten minutes of use never show the
// sign-in dialog (the app renews: POST /v0/login/renew) and ten idle minutes do. The
// page's clock is fast-forwarded (playwright's page.clock); the server's runs as usual.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { aliceInGwm, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

/**
 * Waits (in real time: the renewal's round trip is real) until the page's token outlasts
 * the next 20-second step: its stored deadline lies more than 20 s past the page's now.
 * A renewal still under way when runFor returns would otherwise meet the token's end.
 */
async function renewedBeyondNextStep(page: Page, step: number): Promise<void> {
  const giveUp = Date.now() + 10_000;
  for (;;) {
    const left = await page.evaluate(
      () =>
        Number((globalThis as any).sessionStorage.getItem('timetrack.deadline')) -
        (globalThis as any).Date.now(),
    );
    // (None left: signed out, which the caller's check reports.)
    if (left > 20_000 || left <= 0) return;
    if (Date.now() > giveUp) {
      assert.fail(`after ${step * 20 + 20} s the token has ${left} ms left: never renewed`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SCREENS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 360, height: 740 }],
] as const;

describe('the web app: sessions', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite({ TIMETRACK_TOKEN_TTL: '60', TIMETRACK_SESSION_IDLE: '60' });
  before(async () => {
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
  });

  for (const [screen, viewport] of SCREENS) {
    it(`signs in a second tab of a signed-in browser (${screen})`, async () => {
      const page = await newPage(browser, { viewport });
      await signIn(page, `${server.url}/entries`, alice.username, alice.password);
      const second = await page.context().newPage();
      await second.goto(`${server.url}/profile`);
      await second.getByRole('navigation', { name: 'Main' }).waitFor();
      await second.getByLabel('Display name').waitFor();
      assert.equal(await second.getByRole('button', { name: 'Log in' }).count(), 0);
      // Nowhere a script of another origin or a later visit could read it.
      const stored = await second.evaluate(() => ({
        local: (globalThis as any).localStorage.length,
        cookie: (globalThis as any).document.cookie,
      }));
      assert.deepEqual(stored, { local: 0, cookie: '' });
      // Signing out in one tab signs out the other.
      await second.goto(`${server.url}/`);
      await second.getByRole('navigation', { name: 'Main' }).waitFor();
      // (On a phone the header's Sign out is hidden: clicked by script on both.)
      await page.evaluate(() =>
        [...(globalThis as any).document.querySelectorAll('header button')]
          .find((b: any) => b.textContent === 'Sign out')
          .click(),
      );
      await second.getByRole('button', { name: 'Log in' }).waitFor();
      await page.context().close();
    });

    it(`keeps a used session for ten minutes of 60-second tokens, ends an idle one (${screen})`, async () => {
      const page = await newPage(browser, { viewport });
      await page.clock.install();
      let renewals = 0;
      page.on('response', (res) => {
        if (res.url().endsWith('/v0/login/renew') && res.status() === 200) renewals++;
      });
      await signIn(page, `${server.url}/?week=2024-W05`, alice.username, alice.password);
      const expired = page.getByRole('dialog', { name: 'Session expired' });
      // Ten minutes of someone at work: a key every 20 s.
      for (let step = 0; step < 30; step++) {
        await page.keyboard.press('Shift');
        await page.clock.runFor(20_000);
        await renewedBeyondNextStep(page, step);
        assert.equal(
          await expired.isVisible(),
          false,
          `asked to sign in after ${step * 20 + 20} s`,
        );
      }
      assert.ok(renewals >= 9, `${renewals} renewals in ten minutes of 60-second tokens`);
      // The app still works with its token: a page that asks the server.
      await page.getByRole('link', { name: 'Entries' }).click();
      await page.getByText(/^(No entries|Entries \d)/).waitFor();
      assert.equal(await expired.isVisible(), false);

      // Ten idle minutes: the session ends, the sign-in dialog covers the page.
      for (let minute = 0; minute < 10; minute++) await page.clock.runFor(60_000);
      await expired.getByLabel('Password').waitFor();
      await page.context().close();
    });
  }
});
