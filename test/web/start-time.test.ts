// The web app's start time and time zone (issue 31) in a real browser: the entries list
// shows an entry's start time, the entry dialog sets and clears it, the profile sets and
// clears the time zone, an admin sets a person's; axe finds nothing serious, and the
// profile fits 360 px.
// See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createActivity, createProject, createUser, type TestUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app: start time and time zone', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let erin: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    erin = await createUser(server, { username: 'erin' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createProject(server, {
      name: 'Start Times',
      slugs: ['st'],
      default_activity: 'dev',
      users: { erin: { member: true } },
    });
  });

  const book = async (date: string, start_time?: string) => {
    const res = await server.api.post('/times', erin.token, {
      duration: 3600,
      user: 'erin',
      project: 'st',
      date_worked: date,
      ...(start_time ? { start_time } : {}),
    });
    assert.equal(res.status, 200, res.text);
    return res.body as { uuid: string };
  };
  const startOf = async (uuid: string) =>
    ((await server.api.get(`/times/${uuid}`, erin.token)).body as { start_time: unknown })
      .start_time;

  it('shows, sets and clears an entry’s start time in the entry dialog', async () => {
    await book('2025-05-05', '09:15:00');
    const later = await book('2025-05-06');
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(
      page,
      `${server.url}/entries?start=2025-05-05&end=2025-05-06`,
      erin.username,
      erin.password,
    );
    await page.getByText('Entries 1–2 of 2').waitFor();
    await page.getByRole('cell', { name: '2025-05-05 09:15' }).waitFor();

    await page.getByRole('button', { name: 'Edit entry of 2025-05-06, 1:00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    const field = dialog.getByLabel('Start time');
    assert.equal(await field.inputValue(), '');
    assert.deepEqual(await axeViolations(page), [], 'entry dialog');
    await field.fill('14:30:00');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await startOf(later.uuid), '14:30:00');
    await page.getByRole('cell', { name: '2025-05-06 14:30' }).waitFor();

    await page.getByRole('button', { name: 'Edit entry of 2025-05-06, 1:00' }).click();
    assert.equal(await field.inputValue(), '14:30:00');
    await field.fill('');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await startOf(later.uuid), null);
    await page.context().close();
  });

  it('sets and clears the time zone on the profile', async () => {
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(page, `${server.url}/profile`, erin.username, erin.password);
    const zone = page.getByLabel('Time zone');
    assert.equal(await zone.inputValue(), '', "not set: the server's");
    assert.deepEqual(await axeViolations(page), [], 'profile');
    await zone.selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Profile saved').waitFor();
    const zoneNow = async () =>
      ((await server.api.get('/users/erin', erin.token)).body as { timezone: unknown }).timezone;
    assert.equal(await zoneNow(), 'Europe/Berlin');
    await page.reload();
    assert.equal(await page.getByLabel('Time zone').inputValue(), 'Europe/Berlin');
    await page.getByLabel('Time zone').selectOption('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Profile saved').waitFor();
    assert.equal(await zoneNow(), null);
    await page.context().close();
  });

  it("lets an admin set a person's time zone; a site manager is not offered it", async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/people/erin`, ADMIN.username, ADMIN.password);
    await page.getByLabel('Time zone').selectOption('America/Denver');
    await page.getByRole('button', { name: 'Save user' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const erinNow = (await server.api.get('/users/erin', erin.token)).body as { timezone: unknown };
    assert.equal(erinNow.timezone, 'America/Denver');
    await page.context().close();

    const manager = await createUser(server, { username: 'sm', site_manager: true });
    const other = await newPage(browser);
    await signIn(other, `${server.url}/people/erin`, manager.username, manager.password);
    await other.getByLabel('Display name').waitFor();
    assert.equal(await other.getByLabel('Time zone').count(), 0);
    await other.context().close();
  });

  it('fits the profile on a 360 px screen', async () => {
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    await signIn(page, `${server.url}/profile`, erin.username, erin.password);
    await page.getByLabel('Time zone').waitFor();
    assert.deepEqual(await overflows(page), [], 'the profile in a 360 px window');
    await page.context().close();
  });
});
