// The web app's administration in a real browser: people (an admin creates a user who
// signs in with the initial password and changes it; an admin is asked before dropping
// their own admin flag), activities and organization roles (a role still held cannot be
// deleted: the server's words), navigation that shows only what one may use, axe on
// every page and a 360 px screen.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createActivity, createRole, createUser, type TestUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app: administration', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let plain: TestUser;
  let siteManager: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    plain = await createUser(server, { username: 'plain' });
    siteManager = await createUser(server, { username: 'sm', site_manager: true });
  });

  const nav = async (page: import('playwright-core').Page) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();

  it('lets an admin create a user, who signs in with the initial password and changes it', async () => {
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(page, `${server.url}/people`, ADMIN.username, ADMIN.password);
    assert.deepEqual(await nav(page), [
      'Timesheet',
      'Entries',
      'Reports',
      'Approvals', // issue 32: admins decide on week parts and set the lock date
      'Projects',
      'People',
      'Activities',
      'Roles',
      'Import',
      'Profile',
    ]);
    await page.getByRole('link', { name: 'plain' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'people');
    await page.getByLabel('Search').fill('sm');
    await page.getByRole('link', { name: 'plain' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'New user' }).click();
    await page.getByLabel('Username').fill('newbie');
    await page.getByLabel('Display name').fill('New Bie');
    await page.getByLabel('Initial password').fill('first password 1');
    await page.getByLabel('Site spectator').check();
    assert.deepEqual(await axeViolations(page), [], 'new user');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('heading', { name: 'newbie', level: 1 }).waitFor();
    const made = (await server.api.get('/users/newbie', server.adminToken)).body as any;
    assert.deepEqual(
      [made.display_name, made.site_spectator, made.site_manager],
      ['New Bie', true, false],
    );

    const other = await newPage(browser);
    await signIn(other, `${server.url}/profile`, 'newbie', 'first password 1');
    // A site spectator may look at people, not manage activities or roles.
    assert.deepEqual(await nav(other), [
      'Timesheet',
      'Entries',
      'Reports',
      'Projects',
      'People',
      'Profile',
    ]);
    await other.getByLabel('Current password').fill('first password 1');
    await other.getByLabel('New password', { exact: true }).fill('second password 2');
    await other.getByLabel('Repeat the new password').fill('second password 2');
    await other.getByRole('button', { name: 'Change password' }).click();
    await other
      .getByRole('status')
      .getByText(/Password changed/)
      .waitFor();
    assert.ok(await server.api.login('newbie', 'second password 2'));
    await other.context().close();
    await page.context().close();
  });

  it('asks an admin before they drop their own admin flag, and changes nothing on No', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/people/${ADMIN.username}`, ADMIN.username, ADMIN.password);
    await page.getByLabel('Admin', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save user' }).click();
    const ask = page.getByRole('dialog', { name: 'Are you sure?' });
    await ask.getByText('You will no longer be an admin').waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    const me = (await server.api.get(`/users/${ADMIN.username}`, server.adminToken)).body as any;
    assert.equal(me.site_admin, true);
    await page.context().close();
  });

  it('offers a site manager only the flags they may set, and a plain user no editing at all', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/people/plain`, siteManager.username, siteManager.password);
    await page.getByLabel('Site spectator').waitFor();
    assert.equal(await page.getByLabel('Site spectator').isEnabled(), true);
    for (const flag of ['Site manager', 'Admin', 'Active']) {
      assert.equal(await page.getByLabel(flag, { exact: true }).isDisabled(), true, flag);
    }
    assert.equal(await page.getByLabel('New password').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Delete user' }).count(), 0);
    await page.context().close();

    const mine = await newPage(browser);
    await signIn(mine, `${server.url}/roles`, plain.username, plain.password);
    assert.deepEqual(await nav(mine), ['Timesheet', 'Entries', 'Reports', 'Projects', 'Profile']);
    await mine
      .getByRole('note')
      .getByText(/Site managers and admins manage the organization roles/)
      .waitFor();
    assert.equal(await mine.getByRole('button', { name: 'Create role' }).count(), 0);
    await mine.goto(`${server.url}/people/sm`);
    await mine
      .getByText('You are not allowed to change this user: admins and site managers can.')
      .waitFor();
    await mine.context().close();
  });

  it('manages activities and roles; a role still held cannot be deleted', async () => {
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(page, `${server.url}/activities`, siteManager.username, siteManager.password);
    await page.getByLabel('Name').fill('Code Review');
    assert.equal(await page.getByLabel('Slug').inputValue(), 'code-review');
    await page.getByRole('button', { name: 'Create activity' }).click();
    await page.getByRole('status').getByText('Created Code Review').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'activities');
    await page.getByRole('button', { name: 'Edit Code Review' }).click();
    const edit = page.getByRole('form', { name: 'Edit Code Review' });
    await edit.getByLabel('Name').fill('Reviews');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved Reviews').waitFor();
    const activity = (await server.api.get('/activities/code-review', siteManager.token))
      .body as any;
    assert.equal(activity.name, 'Reviews');

    // Deleted, then listed with "Deleted too" and restored with its slug (issue 17).
    await page.getByRole('button', { name: 'Delete Reviews' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the activity?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('status').getByText('Deleted Reviews').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Restore Reviews' }).count(), 0);
    await page.getByLabel('Deleted too').check();
    await page.waitForURL(/\/activities\?deleted=1$/);
    await page.getByRole('button', { name: 'Restore Reviews' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore activity Reviews' });
    assert.equal(await restore.getByLabel('Slug').inputValue(), 'code-review');
    assert.deepEqual(await axeViolations(page), [], 'restore dialog');
    await restore.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').getByText('Restored Reviews').waitFor();
    const back = (await server.api.get('/activities/code-review', siteManager.token)).body as any;
    assert.deepEqual([back.name, back.deleted_at, back.revision], ['Reviews', null, 3]);
    // The list is read again after the status shows: wait for the row, then count it.
    await page.getByRole('button', { name: 'Edit Reviews' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Edit Reviews' }).count(), 1);
    // Its history: who made each revision and when (GET /activities/:uuid/history).
    await page.getByRole('button', { name: 'History of Reviews' }).click();
    const history = page.getByRole('dialog', { name: 'Activity history' });
    const rows = history.locator('tbody tr');
    await rows.nth(2).waitFor();
    const revisions = [];
    for (const row of await rows.all())
      revisions.push(await row.locator('th, td').allTextContents());
    assert.deepEqual(
      revisions.map((r) => [r[0], r[2], r[4], r[5]]), // r[3]: what changed
      [
        ['3', siteManager.username, 'Reviews', 'code-review'],
        ['2', siteManager.username, 'Reviews', 'code-review'],
        ['1', siteManager.username, 'Code Review', 'code-review'],
      ],
    );
    assert.match(revisions[0]?.[1] as string, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(await axeViolations(page), [], 'activity history');
    await history.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('heading', { name: 'Organization roles' }).waitFor();
    // Org roles are deleted for good: nothing to list or restore.
    assert.equal(await page.getByLabel('Deleted too').count(), 0);
    await page.getByLabel('Name').fill('Developers');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('cell', { name: 'developers', exact: true }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'roles');
    const held = await server.api.post('/users/plain', server.adminToken, {
      'org-roles': ['developers'],
    });
    assert.equal(held.status, 200, held.text);
    await page.getByRole('button', { name: 'Delete Developers' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the role?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const refused = await server.api.del('/users/org-roles/developers', server.adminToken);
    await page
      .getByRole('alert')
      .getByText((refused.body as any).text, { exact: true })
      .waitFor();
    assert.equal(
      (await server.api.get('/users/org-roles/developers', siteManager.token)).status,
      200,
    );
    await page.context().close();
  });

  it('lets an admin reset a password, deactivate, delete and restore a user', async () => {
    await createUser(server, { username: 'temp' });
    const page = await newPage(browser);
    await signIn(page, `${server.url}/people/temp`, ADMIN.username, ADMIN.password);
    await page.getByLabel('New password').fill('reset by admin 9');
    await page.getByLabel('Active', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save user' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const inactive = (await server.api.get('/users/temp', server.adminToken)).body as any;
    assert.equal(inactive.active, false);
    await page.getByLabel('Active', { exact: true }).check();
    await page.getByRole('button', { name: 'Save user' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    assert.ok(await server.api.login('temp', 'reset by admin 9'));

    await page.getByRole('button', { name: 'Delete user' }).click();
    await page
      .getByRole('dialog', { name: 'Are you sure?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    assert.equal((await server.api.get('/users/temp', server.adminToken)).status, 404);
    await page.getByRole('link', { name: 'temp' }).click();
    await page.getByText(/^Deleted on /).waitFor();
    await page.getByRole('button', { name: 'Restore user' }).click();
    await page.getByRole('status').getByText('Restored').waitFor();
    const back = (await server.api.get('/users/temp', server.adminToken)).body as any;
    assert.deepEqual([back.deleted_at, back.active], [null, true]);
    await page.context().close();
  });

  it('fits a 360 px screen', async () => {
    // Long values, each on a list: an unbroken email, and rows with three actions.
    await createUser(server, {
      username: 'theodore',
      email: 'theodore.alexander.longname@example.org',
    });
    await createActivity(server, { slug: 'pairing', name: 'Code review and pair programming' });
    await createRole(server, { slug: 'qa', name: 'Quality assurance' });
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    await signIn(page, `${server.url}/people`, ADMIN.username, ADMIN.password);
    for (const [path, ready] of [
      ['/people', 'theodore.alexander.longname@example.org'],
      ['/people/plain', 'Save user'],
      ['/activities', 'Code review and pair programming'],
      ['/roles', 'Quality assurance'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByText(ready, { exact: true }).waitFor();
      assert.deepEqual(await overflows(page), [], `${path} in a 360 px window`);
    }
    await page.context().close();
  });
});
