// The web app's projects pages in a real browser: a project manager adds a member, who
// can log time at once; a plain member gets "not allowed" (and the server agrees); a
// slug change shows in the history with who made it; "already exists" at the slug
// field; an admin creates, deletes and restores a project; axe and a 360 px screen.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createActivity, createProject, createUser, type TestUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

// One unbroken address, longer than a phone is wide; with the long name and slugs of its
// project it also tried the width of a desktop's history (8 columns).
const LONG_URI =
  'https://code.example.org/an-organisation/infrastructure-modernisation-programme-2026';

describe('the web app: projects', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let manager: TestUser;
  let alice: TestUser;
  let carol: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    manager = await createUser(server, { username: 'mgr' });
    alice = await createUser(server, { username: 'alice' });
    carol = await createUser(server, { username: 'carol' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createProject(server, {
      name: 'Ganeti Web Manager',
      slugs: ['gwm'],
      default_activity: 'dev',
      users: { mgr: { manager: true }, alice: { member: true } },
    });
    await createProject(server, { name: 'Other', slugs: ['other'], users: {} });
    await createProject(server, {
      name: 'The Extraordinarily Long-Named Infrastructure Modernisation Programme',
      slugs: ['infra', 'infrastructure-modernisation-programme'],
      uri: LONG_URI,
      users: { alice: { member: true } },
    });
  });

  it('lets a project manager add a member, who can log time to it at once', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/projects`, manager.username, manager.password);
    await page.getByRole('link', { name: 'Ganeti Web Manager' }).click();
    await page.getByRole('heading', { name: 'Ganeti Web Manager', level: 1 }).waitFor();
    await page.getByLabel('Add to members', { exact: true }).fill('carol');
    await page.getByRole('button', { name: 'Add member', exact: true }).click();
    await page.getByRole('button', { name: 'Remove carol from members' }).waitFor();
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.getByRole('status').getByText('Project saved').waitFor();
    const project = (await server.api.get('/projects/gwm', manager.token)).body as any;
    assert.deepEqual(project.users.carol, { member: true, spectator: false, manager: false });

    const other = await newPage(browser);
    await signIn(other, `${server.url}/?week=2024-W10`, carol.username, carol.password);
    // The timesheet fills the select once its catalog has loaded: wait for it, then check
    // that it offers exactly the project carol was just added to.
    const options = other.getByLabel('Project').locator('option');
    await options.first().waitFor({ state: 'attached' });
    assert.deepEqual(await options.allTextContents(), ['Ganeti Web Manager']);
    await other.getByRole('button', { name: 'Add row' }).click();
    const cell = other.getByRole('textbox', {
      name: 'Ganeti Web Manager, Development, Mon 2024-03-04',
    });
    await cell.fill('1:00');
    await cell.press('Enter');
    await other
      .getByRole('status')
      .getByText(/Saved Ganeti Web Manager/)
      .waitFor();
    await other.context().close();
    await page.context().close();
  });

  it('tells a plain member they may not change the project, as the server does', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/projects/gwm`, alice.username, alice.password);
    await page
      .getByRole('note')
      .getByText(
        'You are not allowed to change this project: its managers, site managers and admins can.',
      )
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save project' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Delete project' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'New project' }).count(), 0);
    const refused = await server.api.post('/projects/gwm', alice.token, { name: 'Mine now' });
    assert.equal(refused.status, 401);
    assert.equal((refused.body as any).error, 'Authorization failure');
    await page.goto(`${server.url}/projects/new`);
    await page
      .getByText('You are not allowed to create projects: site managers and admins can.')
      .waitFor();
    await page.context().close();
  });

  it('shows "already exists" at the slug field, and a slug change in the history with who made it', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/projects/gwm`, manager.username, manager.password);
    await page.getByLabel('New slug').fill('other');
    await page.getByRole('button', { name: 'Save project' }).click();
    const refusal = page.getByText('Slug other already exists on another object');
    await refusal.waitFor();
    assert.equal(await page.getByLabel('New slug').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('New slug').fill('ganeti');
    await page.getByRole('button', { name: 'Add slug' }).click();
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.getByRole('status').getByText('Project saved').waitFor();
    const history = page.getByRole('region', { name: 'Revisions' });
    const newest = history.locator('tbody tr').first();
    await newest.getByText('gwm, ganeti').waitFor();
    const cells = await newest.locator('th, td').allTextContents();
    // Revision, when, by, changes, name, slugs…
    assert.deepEqual([cells[0], cells[2], cells[5]], [String(cells[0]), 'mgr', 'gwm, ganeti']);
    assert.ok(Number(cells[0]) >= 3, cells.join(' | '));
    // When, to the second (GET /projects/:uuid/history, issue 29).
    assert.match(cells[1] as string, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.context().close();
  });

  it('lets an admin create a project, delete it and restore it under a new slug', async () => {
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(page, `${server.url}/projects`, ADMIN.username, ADMIN.password);
    assert.deepEqual(await axeViolations(page), [], 'projects list');
    await page.getByRole('link', { name: 'New project' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Short Lived');
    await page.getByLabel('New slug').fill('short-lived');
    await page.getByLabel('Default activity').selectOption('dev');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Short Lived', level: 1 }).waitFor();
    assert.match(page.url(), /\/projects\/short-lived$/);
    assert.deepEqual(await axeViolations(page), [], 'project page');
    const made = (await server.api.get('/projects/short-lived', server.adminToken)).body as any;
    assert.deepEqual([made.name, made.default_activity], ['Short Lived', 'dev']);
    await page.getByRole('button', { name: 'Delete project' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the project?' })
      .getByRole('button', { name: 'Delete project' })
      .click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    assert.equal((await server.api.get('/projects/short-lived', server.adminToken)).status, 404);
    assert.equal(await page.getByRole('link', { name: 'Short Lived' }).count(), 0);

    // Restored (issue 17): someone took its slug meanwhile, so it gets a new one.
    const taker = await server.api.post('/projects', server.adminToken, {
      name: 'Taker',
      slugs: ['short-lived'],
    });
    assert.equal(taker.status, 200, taker.text);
    await page.getByLabel('Deleted too').check();
    await page.waitForURL(/\/projects\?deleted=1$/);
    await page.getByRole('button', { name: 'Restore Short Lived' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore project Short Lived' });
    const slugs = restore.getByLabel('Slugs (comma-separated)');
    assert.equal(await slugs.inputValue(), 'short-lived');
    assert.deepEqual(await axeViolations(page), [], 'restore dialog');
    await restore.getByRole('button', { name: 'Restore' }).click();
    await restore.getByText('Slug short-lived already exists on another object').waitFor();
    assert.equal(await slugs.getAttribute('aria-invalid'), 'true');
    await slugs.fill('short-lived-again');
    await restore.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').getByText('Restored Short Lived').waitFor();
    const back = (await server.api.get('/projects/short-lived-again', server.adminToken))
      .body as any;
    assert.deepEqual([back.name, back.deleted_at], ['Short Lived', null]);
    await page.getByRole('link', { name: 'Short Lived' }).click();
    await page.getByRole('heading', { name: 'Short Lived', level: 1 }).waitFor();
    await page.context().close();
  });

  it('keeps a long address inside the page: the facts on a phone, the history on a desktop', async () => {
    for (const viewport of [
      { width: 360, height: 740 },
      { width: 1280, height: 800 },
    ]) {
      const page = await newPage(browser, { viewport });
      await signIn(page, `${server.url}/projects/infra`, alice.username, alice.password);
      await page.getByText(LONG_URI).first().waitFor();
      await page.getByRole('region', { name: 'Revisions' }).getByText(LONG_URI).waitFor();
      assert.deepEqual(await overflows(page), [], `a long URI at ${viewport.width} px`);
      await page.context().close();
    }
  });

  it('fits a 360 px screen', async () => {
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    await signIn(page, `${server.url}/projects/gwm`, manager.username, manager.password);
    await page.getByRole('button', { name: 'Save project' }).waitFor();
    assert.deepEqual(await overflows(page), [], 'the project page in a 360 px window');
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('link', { name: 'Ganeti Web Manager' }).waitFor();
    assert.deepEqual(await overflows(page), [], 'the projects list in a 360 px window');
    await page.context().close();
  });
});
