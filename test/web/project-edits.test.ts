// Project history and unsaved edits in a real browser (issue 34), on a desktop and at
// 360×740: each revision says what it changed against the one before ("members added:
// bob"), when to the second, and what a revision that changed nothing is; leaving the
// project form with unsaved edits asks first (staying keeps the edits, leaving drops
// them), and nothing is asked when nothing was edited or after saving; the profile asks
// too, for its details and for a password half typed.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createProject, createUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { aliceInGwm, axeViolations, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

const SCREENS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 360, height: 740 }],
] as const;

describe('the web app: project history and unsaved edits', { skip }, () => {
  let server: TestServer;
  let browser: Browser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    await aliceInGwm(server);
    await createUser(server, { username: 'bob' });
    const admin = server.adminToken;
    const users = { alice: { member: true }, bob: { member: true } };
    assert.equal((await server.api.post('/projects/gwm', admin, { users })).status, 200);
    // A save that changes nothing.
    assert.equal((await server.api.post('/projects/gwm', admin, { users })).status, 200);
    // The project the edits are made on (its history stays out of the other test's way).
    await createProject(server, { name: 'Protocols', slugs: ['pgd'] });
  });

  /** Clicks the main navigation's Projects link (on a phone it may sit in a menu). */
  const clickProjects = (page: Page) =>
    page.evaluate(() => {
      (globalThis as any).document.querySelector('nav a[href="/projects"]').click();
    });
  /** Leaves by the Projects link, a dialog expected: its text, once answered. */
  const leaveAsked = async (page: Page, answer: 'accept' | 'dismiss') => {
    // Answered by the handler: the click waits for the dialog to close.
    const answered = new Promise<string>((resolve) => {
      page.once('dialog', async (d) => {
        await (answer === 'accept' ? d.accept() : d.dismiss());
        resolve(d.message());
      });
    });
    await clickProjects(page);
    // Leaving without a dialog fails here rather than waiting for one for good.
    const left = page
      .getByRole('heading', { name: 'Projects', level: 1 })
      .waitFor()
      .then(() => {
        throw new Error('left the page without asking');
      });
    return Promise.race([answered, left]);
  };
  /** Leaves by the Projects link with nothing asked: the Projects page shows. */
  const leaveFreely = async (page: Page) => {
    const asked: string[] = [];
    const onDialog = (d: import('playwright-core').Dialog) => {
      asked.push(d.message());
      void d.dismiss();
    };
    page.on('dialog', onDialog);
    await clickProjects(page);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    page.off('dialog', onDialog);
    assert.deepEqual(asked, []);
  };

  it('asks before leaving the profile with unsaved details or a password half typed', async () => {
    const page = await newPage(browser, { viewport: SCREENS[0][1] });
    await signIn(page, `${server.url}/profile`, ADMIN.username, ADMIN.password);
    const name = page.getByLabel('Display name');
    await name.waitFor();
    const original = await name.inputValue();
    await name.fill(`${original} (edited)`);
    assert.match(await leaveAsked(page, 'dismiss'), /unsaved changes/);
    assert.match(page.url(), /\/profile$/);
    await name.fill(original);

    const typed = page.getByLabel('New password', { exact: true });
    await typed.fill('half a new passw');
    assert.match(await leaveAsked(page, 'dismiss'), /unsaved changes/);
    assert.equal(await typed.inputValue(), 'half a new passw', 'kept on staying');
    await typed.fill('');
    await leaveFreely(page);
    await page.context().close();
  });

  for (const [screen, viewport] of SCREENS) {
    it(`shows what each revision changed, to the second (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true });
      await signIn(page, `${server.url}/projects/gwm`, ADMIN.username, ADMIN.password);
      const rows = page.getByRole('region', { name: 'Revisions' }).locator('tbody tr');
      await rows.first().getByText('no change (membership unchanged)').waitFor();
      await rows.nth(1).getByText('members added: bob').waitFor();
      await rows.nth(2).getByText('created with members: alice').waitFor();
      const when = await rows.nth(1).locator('td').first().textContent();
      assert.match(when ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.deepEqual(await axeViolations(page), []);
      await page.context().close();
    });

    it(`asks before leaving the project form with unsaved edits (${screen})`, async () => {
      const page = await newPage(browser, { viewport });
      await signIn(page, `${server.url}/projects/pgd`, ADMIN.username, ADMIN.password);
      const name = page.getByLabel('Name', { exact: true });
      await name.waitFor();
      const original = await name.inputValue();

      await name.fill('Protocols, renamed');
      assert.match(await leaveAsked(page, 'dismiss'), /unsaved changes/);
      assert.match(page.url(), /\/projects\/pgd$/);
      assert.equal(await name.inputValue(), 'Protocols, renamed');

      // Back to what it was: nothing to lose, nothing asked.
      await name.fill(original);
      await leaveFreely(page);

      // Edited, then leaving is confirmed: the edit is dropped.
      await page.goto(`${server.url}/projects/pgd`);
      await name.fill('Never saved');
      assert.match(await leaveAsked(page, 'accept'), /unsaved changes/);
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      const pgd = (await server.api.get('/projects/pgd', server.adminToken)).body as any;
      assert.equal(pgd.name, original);

      // Saved: nothing asked.
      await page.goto(`${server.url}/projects/pgd`);
      await name.fill(`${original} `);
      await name.fill(`${original} 2`);
      await page.getByRole('button', { name: 'Save project' }).click();
      await page.getByRole('status').getByText('Project saved').waitFor();
      await leaveFreely(page);
      await server.api.post('/projects/pgd', server.adminToken, { name: original });
      await page.context().close();
    });
  }
});
