// Setting an instance up as an admin, on a desktop and at 360×740: a new project's slug is
// suggested from its name, every create says so, a new user's password follows the one
// rule (at least 8 characters, as the profile's), empty lists say they are empty, and the
// activities' and roles' forms have each label above its field. See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Locator } from 'playwright-core';
import { createActivity } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

/** Each label of the form above its own field, 3 px or more apart, neither overlapping. */
async function jammed(form: Locator): Promise<string[]> {
  return form.evaluate((f: any) => {
    const bad: string[] = [];
    for (const label of f.querySelectorAll('label[for]')) {
      const field = f.ownerDocument.getElementById(label.getAttribute('for'));
      const l = label.getBoundingClientRect();
      const i = field.getBoundingClientRect();
      if (!(l.bottom + 3 <= i.top && l.left <= i.left + 1)) {
        bad.push(`${label.textContent}: label ${l.left},${l.bottom} field ${i.left},${i.top}`);
      }
    }
    return bad;
  });
}

describe('the web app: setting up as an admin', { skip }, () => {
  let server: TestServer;
  let browser: Browser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    await createActivity(server, { slug: 'dev', name: 'Development' });
  });

  for (const [screen, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`suggests slugs, confirms creates, keeps one password rule (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true }); // for axe
      const name = `Ganeti Web Manager ${screen}`;
      await signIn(page, `${server.url}/projects/new`, ADMIN.username, ADMIN.password);
      await page.getByLabel('Name').fill(name);
      assert.equal(await page.getByLabel('New slug').inputValue(), `ganeti-web-manager-${screen}`);
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('status').getByText(`Created ${name}`).waitFor();
      const project = await server.api.get(
        `/projects/ganeti-web-manager-${screen}`,
        server.adminToken,
      );
      assert.equal((project.body as any).name, name);
      assert.deepEqual(await axeViolations(page), [], 'a created project');

      // A new user: `abc` is refused at the field and nobody is created.
      const username = `newbie-${screen}`;
      await page.goto(`${server.url}/people/new`);
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Initial password').fill('abc');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByText('Use at least 8 characters').waitFor();
      assert.equal((await server.api.get(`/users/${username}`, server.adminToken)).status, 404);
      await page.getByLabel('Initial password').fill('long enough 1');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('status').getByText(`Created ${username}`).waitFor();
      assert.ok(await server.api.login(username, 'long enough 1'));
      // An admin's reset follows the same rule.
      await page.getByLabel('New password').fill('short');
      await page.getByRole('button', { name: 'Save user' }).click();
      await page.getByText('Use at least 8 characters').waitFor();
      assert.ok(await server.api.login(username, 'long enough 1'));

      // People: a search matching nobody says so.
      await page.goto(`${server.url}/people`);
      await page.getByLabel('Search').fill('zzz-nobody');
      await page.getByText('Nobody matches “zzz-nobody”.').waitFor();

      // Roles: none yet, said so; the form's labels sit above their fields.
      await page.goto(`${server.url}/roles`);
      const roleForm = page.getByRole('form', { name: 'New role' });
      await roleForm.waitFor();
      if (screen === 'desktop') {
        await page.getByText('No organization roles yet: create the first role above.').waitFor();
        assert.deepEqual(await axeViolations(page), [], 'no roles');
      }
      assert.deepEqual(await jammed(roleForm), [], 'roles');
      await roleForm.getByLabel('Name').fill(`Engineer ${screen}`);
      await roleForm.getByRole('button', { name: 'Create role' }).click();
      await page.getByRole('status').getByText(`Created Engineer ${screen}`).waitFor();
      await page.goto(`${server.url}/activities`);
      const activityForm = page.getByRole('form', { name: 'New activity' });
      await activityForm.waitFor();
      assert.deepEqual(await jammed(activityForm), [], 'activities');
      await page.context().close();
    });
  }
});
