// One way to load data (src/web/base/resource.ts), on a desktop and at 360×740: a page
// shows only the answer for what it now shows. Going back to one project and forward to
// another before the first's slow answer arrives keeps the second on screen (the race
// that made the reports page draw the previous report's chart); the same for people.
// See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createProject, createUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { browserSuite, newPage, settled, signIn, skipReason } from './browser';

const skip = skipReason();

/** An in-app move (as a link does): pushState and the router's popstate. */
const go = (page: Page, path: string) =>
  page.evaluate((to) => {
    const w = globalThis as any;
    w.history.pushState(null, '', to);
    w.dispatchEvent(new w.PopStateEvent('popstate'));
  }, path);

describe('the web app: loading data', { skip }, () => {
  let server: TestServer;
  let browser: Browser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    await createProject(server, { name: 'Alpha Project', slugs: ['alpha'], users: {} });
    await createProject(server, { name: 'Beta Project', slugs: ['beta'], users: {} });
    await createUser(server, { username: 'anna', display_name: 'Anna A' });
    await createUser(server, { username: 'bert', display_name: 'Bert B' });
  });

  for (const [screen, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`never shows a slow answer for what is no longer shown (${screen})`, async () => {
      const page = await newPage(browser, { viewport });
      await signIn(page, `${server.url}/projects/alpha`, ADMIN.username, ADMIN.password);
      await page.getByRole('heading', { name: 'Alpha Project', level: 1 }).waitFor();
      await go(page, '/projects/beta');
      await page.getByRole('heading', { name: 'Beta Project', level: 1 }).waitFor();
      await go(page, '/people/anna');
      await page.getByRole('heading', { name: 'anna', level: 1 }).waitFor();
      await go(page, '/people/bert');
      await page.getByRole('heading', { name: 'bert', level: 1 }).waitFor();

      // Alpha's and anna's answers now come late.
      let slow = 0;
      const late = /\/v0\/(projects\/alpha|users\/anna)(\?|$)/;
      await page.route(late, async (route) => {
        slow++;
        await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue();
      });
      for (const [back, forward] of [
        ['anna', 'bert'],
        ['Alpha Project', 'Beta Project'],
      ]) {
        if (back === 'Alpha Project') {
          await page.goBack(); // bert → anna
          await page.goBack(); // anna → beta
        }
        const slowAnswer = page.waitForEvent('requestfinished', (r) => late.test(r.url()));
        await page.goBack(); // to the slow one
        await page.goForward(); // and on, before its answer
        await page.getByRole('heading', { name: forward, level: 1 }).waitFor();
        await slowAnswer; // the slow answer has come meanwhile
        await settled(page); // and the page has done with it whatever it does
        assert.equal(
          await page.getByRole('heading', { level: 1 }).textContent(),
          forward,
          `after going back to ${back} and on`,
        );
      }
      assert.ok(slow >= 2, `${slow} slow answers`);
      await page.context().close();
    });
  }
});
