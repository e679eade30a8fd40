// Project history and unsaved edits in a real browser (issue 34), on a desktop and at
// 360×740: each revision says what it changed against the one before ("members added:
// bob"), when to the second, and what a revision that changed nothing is; leaving the
// project form with unsaved edits asks first (staying keeps the edits, leaving drops
// them), and nothing is asked when nothing was edited or after saving.
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

  /** Leaves by the main navigation's Projects link; the confirm dialog's text, if any. */
  const leave = async (page: Page, answer: 'accept' | 'dismiss') => {
    let asked: string | undefined;
    const onDialog = async (d: import('playwright-core').Dialog) => {
      asked = d.message();
      await (answer === 'accept' ? d.accept() : d.dismiss());
    };
    page.once('dialog', onDialog);
    await page.evaluate(() => {
      // The main navigation's link (on a phone it may sit in a collapsed menu).
      const link = (globalThis as any).document.querySelector('nav a[href="/projects"]');
      link.click();
    });
    await page.waitForTimeout(200);
    page.off('dialog', onDialog);
    return asked;
  };

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
      const asked = await leave(page, 'dismiss');
      assert.match(asked ?? '', /unsaved changes/);
      assert.match(page.url(), /\/projects\/pgd$/);
      assert.equal(await name.inputValue(), 'Protocols, renamed');

      // Back to what it was: nothing to lose, nothing asked.
      await name.fill(original);
      assert.equal(await leave(page, 'dismiss'), undefined);
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();

      // Edited, then leaving is confirmed: the edit is dropped.
      await page.goto(`${server.url}/projects/pgd`);
      await name.fill('Never saved');
      assert.match((await leave(page, 'accept')) ?? '', /unsaved changes/);
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      const pgd = (await server.api.get('/projects/pgd', server.adminToken)).body as any;
      assert.equal(pgd.name, original);

      // Saved: nothing asked.
      await page.goto(`${server.url}/projects/pgd`);
      await name.fill(`${original} `);
      await name.fill(`${original} 2`);
      await page.getByRole('button', { name: 'Save project' }).click();
      await page.getByRole('status').getByText('Project saved').waitFor();
      assert.equal(await leave(page, 'dismiss'), undefined);
      await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
      await server.api.post('/projects/pgd', server.adminToken, { name: original });
      await page.context().close();
    });
  }
});
