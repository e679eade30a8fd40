// Personal API tokens in the web app (issue 33), in a real browser: the profile makes
// one, shows its secret once with a Copy button that works, lists it with its last use
// and revokes it; the password form says a password change does not revoke tokens; an
// admin sees and revokes a user's tokens on the user's page, others do not see them;
// axe (serious and critical) and a 360 px screen.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { authenticationBody } from '../helpers/errors';
import { createUser, type TestUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app: API tokens', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let jo: TestUser;
  let kim: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    jo = await createUser(server, { username: 'jo' });
    kim = await createUser(server, { username: 'kim' });
  });

  it('makes a token on the profile, shows its secret once with a working Copy button, lists and revokes it', async () => {
    const page = await newPage(browser, {
      bypassCSP: true, // for axe
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await signIn(page, `${server.url}/profile`, jo.username, jo.password);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByText('No API tokens.').waitFor();
    await page.getByText(/does not revoke your API\s+tokens/).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'profile');

    await page.getByLabel('Token name').fill('backup-script');
    await page.getByLabel('Access').selectOption('write');
    await page.getByLabel('Expires on (optional)').fill('2099-12-31');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretBox = page.getByLabel('The new token');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    assert.match(secret, /^tt_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard').waitFor();
    assert.equal(
      await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()),
      secret,
    );
    assert.deepEqual(await axeViolations(page), [], 'profile with a new token');

    // The token works, as jo; the list shows its last use once read again.
    const used = await server.api.post(`/users/${jo.username}`, secret, {
      display_name: 'Jo (script)',
    });
    assert.equal(used.status, 200, used.text);
    await page.reload();
    const row = page.getByRole('row', { name: /backup-script/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    assert.equal(cells[0], 'read and write');
    assert.equal(cells[2], '2099-12-31');
    assert.match(cells[3] ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    // Shown once: nowhere on the page any more.
    assert.equal((await page.content()).includes(secret), false);

    await row.getByRole('button', { name: 'Revoke backup-script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token backup-script revoked').waitFor();
    await page.getByText('No API tokens.').waitFor();
    assert.deepEqual(
      (await server.api.get('/projects', secret)).body,
      authenticationBody('Token has been revoked'),
    );
    await page.context().close();
  });

  it("shows an admin a user's tokens on the user's page, to revoke; not to others", async () => {
    const made = await server.api.post('/tokens', kim.token, { name: 'kim-ci', scope: 'read' });
    const secret = (made.body as { token: string }).token;
    const page = await newPage(browser, { bypassCSP: true });
    await signIn(page, `${server.url}/people/kim`, ADMIN.username, ADMIN.password);
    const row = page.getByRole('row', { name: /kim-ci/ });
    await row.waitFor();
    assert.equal((await row.getByRole('cell').allTextContents())[0], 'read only');
    assert.deepEqual(await axeViolations(page), [], 'user page');
    await row.getByRole('button', { name: 'Revoke kim-ci' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token kim-ci revoked').waitFor();
    assert.deepEqual(
      (await server.api.get('/projects', secret)).body,
      authenticationBody('Token has been revoked'),
    );
    await page.context().close();

    const other = await newPage(browser);
    await signIn(other, `${server.url}/people/kim`, jo.username, jo.password);
    await other.getByRole('heading', { name: 'kim', level: 1 }).waitFor();
    assert.equal(await other.getByRole('heading', { name: 'API tokens' }).count(), 0);
    await other.context().close();
  });

  it('fits a 360 px screen, a new token and the list included', async () => {
    await server.api.post('/tokens', jo.token, {
      name: 'a-rather-long-token-name-for-a-phone',
      scope: 'read',
    });
    const page = await newPage(browser, { bypassCSP: true, viewport: { width: 360, height: 740 } });
    await signIn(page, `${server.url}/profile`, jo.username, jo.password);
    await page.getByLabel('Token name').fill('phone');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('The new token').waitFor();
    await page.getByRole('row', { name: /a-rather-long/ }).waitFor();
    assert.deepEqual(await overflows(page), [], 'the profile in a 360 px window');
    assert.deepEqual(await axeViolations(page), [], 'profile at 360 px');
    await page.context().close();
  });
});
