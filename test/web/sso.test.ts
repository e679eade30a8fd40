// Single sign-on in chromium (issue 33, part 2): the sign-in page's button, the real
// provider's login form (test/helpers/oidc-provider.ts), and back signed in on the
// timesheet, at desktop size and on a 360 px screen; the refusals as pages in the web
// app, accessible (axe-core) and without a code or token in the address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '../helpers/factories';
import { CLIENT, listenTestProvider, type TestProvider } from '../helpers/oidc-provider';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  axeViolations,
  ensureWebAssets,
  launchBrowser,
  newPage,
  overflows,
  pageErrors,
  skipReason,
} from './browser';

const skip = skipReason();
const LABEL = 'Sign in with Example SSO';

describe('single sign-on in chromium', { skip }, () => {
  let provider: TestProvider;
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    ensureWebAssets();
    provider = await listenTestProvider();
    [server, browser] = await Promise.all([
      startTestServer({
        env: {
          TIMETRACK_AUTH_MODULES: '["password","oidc"]',
          TIMETRACK_OIDC_ISSUER: provider.issuer,
          TIMETRACK_OIDC_CLIENT_ID: CLIENT.id,
          TIMETRACK_OIDC_CLIENT_SECRET: CLIENT.secret,
          TIMETRACK_OIDC_LABEL: LABEL,
        },
      }),
      launchBrowser(),
    ]);
    await provider.start([`${server.url}/v0/oidc/callback`]);
    await createUser(server, { username: 'alice' });
    await createUser(server, { username: 'bob' });
    await createUser(server, { username: 'sleeper' });
    await server.api.post('/users/sleeper', server.adminToken, { active: false });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await provider?.close();
    assert.deepEqual(pageErrors, []);
  });

  /** From our sign-in page through the provider's form, as `login`. */
  async function signInWithSso(page: Page, login: string): Promise<void> {
    await page.goto(server.url);
    await page.getByRole('link', { name: LABEL }).click();
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  /** Lands on the timesheet signed in as `username`, with no code or token in sight. */
  async function assertSignedIn(page: Page, username: string): Promise<void> {
    // The header's navigation, as the password sign-in helper waits for (any screen size).
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // The timesheet: a week grid on a desktop, a day view on a phone; both under this heading.
    await page.getByRole('heading', { name: /^Week \d+, \d{4}$/ }).waitFor();
    assert.equal(await page.locator('header .user').textContent(), username);
    const url = new URL(page.url());
    assert.equal(url.origin, server.url);
    assert.equal(url.pathname, '/');
    assert.equal(url.hash, '');
    assert.doesNotMatch(page.url(), /code|token/);
    const token = (await page.evaluate(() =>
      (globalThis as any).sessionStorage.getItem('timetrack.token'),
    )) as string;
    assert.equal((await server.api.get(`/users/${username}`, token)).status, 200);
    assert.ok(!server.logs.some((line) => line.includes(token)), 'the token is in no log line');
  }

  it('clicks the button, signs in at the provider and lands on the timesheet', async () => {
    const page = await newPage(browser);
    await signInWithSso(page, 'alice');
    await assertSignedIn(page, 'alice');
    // The password form is still there for those without single sign-on.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
    await page.getByRole('link', { name: LABEL }).waitFor();
    await page.context().close();
  });

  it('does the same on a 360 px screen, without horizontal overflow', async () => {
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    await page.goto(server.url);
    await page.getByRole('link', { name: LABEL }).waitFor();
    assert.deepEqual(await overflows(page), [], 'the sign-in page');
    await signInWithSso(page, 'bob');
    await assertSignedIn(page, 'bob');
    assert.deepEqual(await overflows(page), [], 'the timesheet');
    await page.context().close();
  });

  it('shows a refusal as a clear, accessible page: no account, auto-create off', async () => {
    for (const viewport of [undefined, { width: 360, height: 740 }]) {
      // CSP forbids the injected axe script: these pages alone bypass it.
      const page = await newPage(browser, { bypassCSP: true, ...(viewport ? { viewport } : {}) });
      await signInWithSso(page, 'newcomer');
      await page
        .getByRole('alert')
        .getByText('No account for newcomer and auto-create is off', { exact: true })
        .waitFor();
      await page.getByRole('heading', { name: 'Single sign-on failed' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/sso');
      assert.deepEqual(await axeViolations(page), [], 'the refusal page');
      await page.getByRole('link', { name: 'Back to sign in' }).click();
      await page.getByLabel('Username').waitFor();
      await page.context().close();
    }
  });

  it('says a deactivated account is deactivated', async () => {
    const page = await newPage(browser);
    await signInWithSso(page, 'sleeper');
    await page
      .getByRole('alert')
      .getByText('Your account exists but is deactivated', { exact: true })
      .waitFor();
    await page.context().close();
  });

  it('says a sign-in took too long, and Try again starts a new one', async () => {
    const page = await newPage(browser);
    await signInWithSso(page, 'alice');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
    // A used (or 60 s old) code, as after going back in the history.
    await page.goto(`${server.url}/sso#code=${'A'.repeat(43)}`);
    await page
      .getByRole('alert')
      .getByText('The sign-in took too long: try again', { exact: true })
      .waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the code left the address');
    // The provider still knows alice: Try again signs her in without its form.
    await page.getByRole('link', { name: 'Try again' }).click();
    await assertSignedIn(page, 'alice');
    await page.context().close();
  });
});
