// The web app's timer, and what keeps typed work from being lost, in a real browser:
// the timer survives a reload and shows on a second device (a second browser context);
// a save that meets a network failure waits behind the banner's Retry (and one whose
// answer was lost is made once, by its Idempotency-Key); a save that meets an ended
// session waits for the sign-in dialog and is then made.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import { createUser, type TestUser } from '../helpers/factories';
import { bcryptHash, type TestServer } from '../helpers/server';
import { clearOfMidnight, timerRunFor } from '../helpers/timer-clock';
import { aliceInGwm, browserSuite, newPage, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app: timer, lost connection, ended session', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    alice = await aliceInGwm(server);
  });

  const timerOf = (page: Page) => page.getByRole('region', { name: 'Timer' });

  it('starts a timer that a reload and a second device show, and stop makes the entry', async () => {
    // The entry is booked on the server's today and looked for in the week the page loaded
    // at sign-in: one day from here to the stop.
    await clearOfMidnight();
    const page = await newPage(browser);
    await signIn(page, server.url, alice.username, alice.password);
    await timerOf(page).getByRole('button', { name: 'Start timer' }).click();
    const form = page.getByRole('dialog', { name: 'Start the timer' });
    assert.equal(
      await form.getByLabel('Project').locator('option:checked').textContent(),
      'Ganeti Web Manager',
    );
    assert.equal(await form.getByLabel('Activity').inputValue(), 'dev');
    await form.getByLabel('Notes').fill('Settings page');
    await form.getByRole('button', { name: 'Start' }).click();
    await timerOf(page).getByRole('button', { name: 'Stop timer' }).waitFor();
    assert.match(
      (await timerOf(page).textContent()) ?? '',
      /0:00:0\d Ganeti Web Manager · Settings page/,
    );
    await page.waitForFunction(() =>
      /^0:00:0\d · Ganeti Web Manager — timetrack$/.test((globalThis as any).document.title),
    );
    const running = await server.api.get('/timer', alice.token);
    assert.equal(running.status, 200);
    assert.deepEqual((running.body as any).project, ['gwm']);

    // A reload (same tab, same session) shows the same timer.
    await page.reload();
    await timerOf(page).getByRole('button', { name: 'Stop timer' }).waitFor();
    assert.match((await timerOf(page).textContent()) ?? '', /Ganeti Web Manager · Settings page/);

    // A second device sees it too, and cannot start another.
    const other = await newPage(browser);
    await signIn(other, server.url, alice.username, alice.password);
    await timerOf(other)
      .getByText(/Ganeti Web Manager · Settings page/)
      .waitFor();

    // Two minutes on the server's clock (a stop under one --timer-rounding step books
    // nothing: test/web/grid-timer.test.ts).
    timerRunFor(server.dbFile, alice.username, 125);
    await timerOf(page).getByRole('button', { name: 'Stop timer' }).click();
    await timerOf(page)
      .getByRole('status')
      .getByText(/Booked 0:02 on Ganeti Web Manager, \d{4}-\d\d-\d\d/)
      .waitFor();
    await timerOf(page).getByRole('button', { name: 'Start timer' }).waitFor();
    assert.equal(await page.title(), 'timetrack');
    const listed = (await server.api.get('/times', alice.token, { user: 'alice' })).body as any[];
    assert.equal(listed.length, 1);
    assert.deepEqual(
      [listed[0].project, listed[0].activities, listed[0].notes],
      [['gwm'], ['dev'], 'Settings page'],
    );
    assert.equal(listed[0].duration, 120);
    // The new entry shows on the timesheet without a reload.
    await page
      .getByRole('textbox', {
        name: new RegExp(`Ganeti Web Manager, Development, \\w+ ${listed[0].date_worked}`),
      })
      .waitFor();

    // The second device finds the timer gone when it looks again (here: on coming back into view).
    await other.evaluate(() =>
      (globalThis as any).document.dispatchEvent(new Event('visibilitychange')),
    );
    await timerOf(other).getByRole('button', { name: 'Start timer' }).waitFor();
    await other.context().close();
    await page.context().close();
  });

  it('discards a timer after asking, and makes no entry', async () => {
    const bob = await createUser(server, { username: 'bob' });
    await server.api.post(`/projects/gwm`, server.adminToken, {
      users: { alice: { member: true }, bob: { member: true } },
    });
    const page = await newPage(browser);
    await signIn(page, server.url, bob.username, bob.password);
    await timerOf(page).getByRole('button', { name: 'Start timer' }).click();
    await page
      .getByRole('dialog', { name: 'Start the timer' })
      .getByRole('button', { name: 'Start' })
      .click();
    await timerOf(page).getByRole('button', { name: 'Discard' }).click();
    const ask = page.getByRole('dialog', { name: 'Discard the timer?' });
    await ask.getByRole('button', { name: 'Keep it running' }).click();
    assert.equal((await server.api.get('/timer', bob.token)).status, 200);
    await timerOf(page).getByRole('button', { name: 'Discard' }).click();
    await ask.getByRole('button', { name: 'Discard' }).click();
    await timerOf(page).getByRole('status').getByText('Timer discarded').waitFor();
    assert.equal((await server.api.get('/timer', bob.token)).status, 404);
    assert.deepEqual((await server.api.get('/times', bob.token, { user: 'bob' })).body, []);
    await page.context().close();
  });

  it('keeps a save through a network failure: banner, Retry, saved', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W10`, alice.username, alice.password);
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.route('**/v0/times', (route) => route.abort('internetdisconnected'));
    const cell = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Development, Mon 2024-03-04',
    });
    await cell.fill('2:15');
    await cell.press('Enter');
    const banner = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await banner.waitFor();
    assert.equal(await cell.inputValue(), '2:15');
    await page.unroute('**/v0/times');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('status')
      .getByText('Saved Ganeti Web Manager, Development, 2024-03-04')
      .waitFor();
    await banner.waitFor({ state: 'detached' });
    const listed = (
      await server.api.get('/times', alice.token, {
        user: 'alice',
        start: '2024-03-04',
        end: '2024-03-04',
      })
    ).body as any[];
    assert.deepEqual(
      listed.map((t) => t.duration),
      [8100],
    );
    await page.context().close();
  });

  it('makes a save whose answer was lost once: its retry sends the same Idempotency-Key', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W12`, alice.username, alice.password);
    await page.getByRole('button', { name: 'Add row' }).click();
    const keys: string[] = [];
    const keyOf = (route: Route) => route.request().headers()['idempotency-key'] ?? '';
    // The first attempt reaches the server, which makes the entry; its answer is lost.
    await page.route('**/v0/times', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(keyOf(route));
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    const cell = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Development, Mon 2024-03-18',
    });
    await cell.fill('1:30');
    await cell.press('Enter');
    const banner = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await banner.waitFor();
    await page.unroute('**/v0/times');
    await page.route('**/v0/times', (route) => {
      if (route.request().method() === 'POST') keys.push(keyOf(route));
      return route.continue();
    });
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page
      .getByRole('status')
      .getByText('Saved Ganeti Web Manager, Development, 2024-03-18')
      .waitFor();
    const listed = (
      await server.api.get('/times', alice.token, {
        user: 'alice',
        start: '2024-03-18',
        end: '2024-03-18',
      })
    ).body as any[];
    assert.deepEqual(
      listed.map((t) => t.duration),
      [5400],
      'one entry, not two',
    );
    assert.equal(keys.length, 2);
    assert.match(keys[0] ?? '', /^[0-9a-f]{32}$/);
    assert.equal(keys[1], keys[0], 'the retry carries the first attempt’s key');
    await page.context().close();
  });

  it('keeps what was typed when the session ends mid-edit, and saves it after signing in again', async () => {
    const carol = await createUser(server, { username: 'carol' });
    await server.api.post(`/projects/gwm`, server.adminToken, {
      users: { alice: { member: true }, bob: { member: true }, carol: { member: true } },
    });
    const page = await newPage(browser);
    const quiet = requestsSettled(page);
    await signIn(page, `${server.url}/?week=2024-W11`, carol.username, carol.password);
    await page.getByRole('button', { name: 'Add row' }).click();
    const cell = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Development, Tue 2024-03-12',
    });
    await cell.fill('45m');
    // The page's own requests (its loading, the added row kept on the server) are answered
    // first: one still on its way when the tokens go would end the session before the
    // cell is saved, and the dialog would take the Enter below.
    await quiet();
    // Meanwhile an admin resets carol's password: every token she had is revoked.
    const reset = await server.api.post('/users/carol', server.adminToken, {
      password: bcryptHash('a new one 123'),
    });
    assert.equal(reset.status, 200, reset.text);
    await cell.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Session expired' });
    await dialog.getByLabel('Password').fill('a new one 123');
    assert.equal(await dialog.getByLabel('Username').inputValue(), 'carol');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('status')
      .getByText('Saved Ganeti Web Manager, Development, 2024-03-12')
      .waitFor();
    assert.equal(await cell.inputValue(), '0:45');
    const token = await server.api.login('carol', 'a new one 123');
    const listed = (await server.api.get('/times', token, { user: 'carol' })).body as any[];
    assert.deepEqual(
      listed.map((t) => [t.date_worked, t.duration]),
      [['2024-03-12', 2700]],
    );
    await page.context().close();
  });
});

/**
 * Follows the page's requests from now on; the function it answers resolves once none is
 * in flight (at once when none is).
 */
function requestsSettled(page: Page): () => Promise<void> {
  const inFlight = new Set<unknown>();
  let wake: (() => void) | undefined;
  const done = (request: unknown) => {
    inFlight.delete(request);
    if (inFlight.size === 0) wake?.();
  };
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () =>
    inFlight.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          wake = resolve;
        });
}
