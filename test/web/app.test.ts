// The web app in a real browser against a real server: signing in and out, the week
// timesheet typed by keyboard and checked through the API, accessibility (axe-core) and
// a 360 px screen. See test/web/browser.ts for how chromium is found.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { formatDuration } from '../../src/web/base/duration';
import {
  createActivity,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factories';
import { ADMIN, startTestServer, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app in chromium', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;
  let project: TestProject;
  let other: TestProject;

  const suite = browserSuite({ TIMETRACK_LOGIN_MAX_FAILURES: '3' });
  before(async () => {
    ({ server, browser } = suite);
    alice = await createUser(server, { username: 'alice' });
    const dev = await createActivity(server, { slug: 'dev', name: 'Development' });
    await createActivity(server, { slug: 'docs', name: 'Documentation' });
    project = await createProject(server, {
      name: 'Ganeti Web Manager',
      slugs: ['gwm'],
      default_activity: dev.slug,
      users: { alice: { member: true } },
    });
    other = await createProject(server, {
      name: 'Not Alice’s',
      slugs: ['other'],
      users: {},
    });
  });

  it('signs in, shows the server’s text on a wrong password, signs out', async () => {
    const page = await newPage(browser);
    await page.goto(server.url);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('not her password');
    await page.getByRole('button', { name: 'Log in' }).click();
    // The page shows the text the server answers to exactly this.
    const wrong = await server.api.raw('/v0/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth: { type: 'password', username: 'alice', password: 'nope' } }),
    });
    assert.equal(wrong.status, 401);
    const text = (wrong.body as { text: string }).text;
    await page.getByRole('alert').getByText(text, { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.length), 0);

    await page.getByLabel('Password').fill(alice.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    assert.equal(await page.locator('header .user').textContent(), 'alice');
    // The token is in sessionStorage, never in a URL.
    assert.doesNotMatch(page.url(), /token/);
    const token = (await page.evaluate(() =>
      (globalThis as any).sessionStorage.getItem('timetrack.token'),
    )) as string;
    assert.equal((await server.api.get('/users/alice', token)).status, 200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.length), 0);
    // Sign out ended the session on the server too (POST /v0/logout): the token is refused.
    let answer = await server.api.get('/users/alice', token);
    for (let i = 0; i < 50 && answer.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await server.api.get('/users/alice', token);
    }
    assert.deepEqual(answer.body, {
      status: 401,
      error: 'Authentication failure',
      text: 'Token has been revoked',
    });
    await page.context().close();
  });

  it('offers the LDAP choice only when GET /v0/info lists ldap', async () => {
    const page = await newPage(browser);
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await page.getByRole('radio').count(), 0);
    const ldap = await startTestServer({
      env: {
        TIMETRACK_AUTH_MODULES: '["password","ldap"]',
        TIMETRACK_LDAP_URL: 'ldap://127.0.0.1:9',
        TIMETRACK_LDAP_SEARCH_BASE: 'dc=example,dc=org',
      },
    });
    try {
      await page.goto(ldap.url);
      await page.getByRole('radio', { name: 'LDAP directory' }).check();
      assert.equal(await page.getByRole('radio', { name: 'Password' }).isChecked(), false);
    } finally {
      await page.context().close();
      await ldap.close();
    }
  });

  it('lets the first admin of a fresh instance set up a project and fill a day', async () => {
    const fresh = await startTestServer();
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    try {
      await signIn(page, `${fresh.url}/?week=2024-W05`, ADMIN.username, ADMIN.password);
      await page.getByRole('heading', { name: 'Set up a project to book time on' }).waitFor();
      assert.equal(await page.getByLabel('First activity').inputValue(), 'Development');
      assert.deepEqual(await axeViolations(page), [], 'the first project form');
      await page.getByLabel('Project name').fill('Our First Project');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('button', { name: 'Add row' }).click();
      const monday = page.getByRole('textbox', {
        name: 'Our First Project, Development, Mon 2024-01-29',
      });
      await monday.fill('7:30');
      await monday.press('Enter');
      await page
        .getByRole('status')
        .getByText(/Saved Our First Project/)
        .waitFor();
      const listed = (await fresh.api.get('/times', fresh.adminToken, { user: ADMIN.username }))
        .body as any[];
      assert.deepEqual(
        listed.map((t) => [t.project, t.activities, t.duration]),
        [[['our-first-project'], ['development'], 27000]],
      );
    } finally {
      await page.context().close();
      await fresh.close();
    }
  });

  it('says how long to wait when logins are throttled', async () => {
    const victim = await createUser(server, { username: 'throttled' });
    const page = await newPage(browser);
    await page.goto(server.url);
    await page.getByLabel('Username').fill(victim.username);
    for (let i = 0; i < 4; i++) {
      await page.getByLabel('Password').fill(`wrong ${i}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Log in' }).and(page.locator(':enabled')).waitFor();
    }
    await page
      .getByRole('alert')
      .getByText(/Too many failed logins; try again later \(wait \d+ minutes?\)/)
      .waitFor();
    await page.context().close();
  });

  it('fills two days of a week by keyboard and the API has them', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W05`, alice.username, alice.password);
    await page.getByRole('heading', { name: 'Week 5, 2024' }).waitFor();
    // Add row offers alice's projects only, the default activity preselected. The list
    // comes with the page's own request for them, which may answer after the heading.
    const options = page.getByLabel('Project').locator('option');
    await options.first().waitFor({ state: 'attached' });
    const projects = await options.allTextContents();
    assert.deepEqual(projects, [project.name]);
    assert.ok(!projects.includes(other.name as string));
    await page.getByLabel('Activity').locator('option[value="dev"]').waitFor({ state: 'attached' });
    assert.equal(await page.getByLabel('Activity').inputValue(), 'dev');
    await page.getByRole('button', { name: 'Add row' }).click();

    const monday = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Development, Mon 2024-01-29',
    });
    await monday.focus();
    await page.keyboard.type('1:30');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .getByText('Saved Ganeti Web Manager, Development, 2024-01-29')
      .waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('2h');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .getByText(/Saved .*2024-01-30/)
      .waitFor();
    // An arrow moves on; Escape puts back what is saved.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('nonsense');
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('textbox', { name: /Wed 2024-01-31/ }).inputValue(), '');

    const listed = await server.api.get('/times', alice.token, {
      user: 'alice',
      start: '2024-01-29',
      end: '2024-02-04',
    });
    const got = (listed.body as any[])
      .map((t) => [t.date_worked, t.duration, t.project[0], t.activities.join()])
      .sort();
    assert.deepEqual(got, [
      ['2024-01-29', 5400, 'gwm', 'dev'],
      ['2024-01-30', 7200, 'gwm', 'dev'],
    ]);
    assert.equal(await page.locator('.week-total').textContent(), '3:30');

    // A reload finds the row by itself; `90m` (minutes) updates, emptied deletes.
    await page.reload();
    const tuesday = page.getByRole('textbox', { name: /Tue 2024-01-30/ });
    assert.equal(await tuesday.inputValue(), '2:00');
    await tuesday.fill('90m');
    await tuesday.press('Enter');
    await page
      .getByRole('status')
      .getByText(/Saved .*2024-01-30/)
      .waitFor();
    await monday.fill('');
    await monday.press('Enter');
    await page
      .getByRole('status')
      .getByText(/Saved .*2024-01-29/)
      .waitFor();
    const after = await server.api.get('/times', alice.token, {
      user: 'alice',
      start: '2024-01-29',
      end: '2024-02-04',
    });
    assert.deepEqual(
      (after.body as any[]).map((t) => [t.date_worked, t.duration]),
      [['2024-01-30', 5400]],
    );
    await page.context().close();
  });

  it('opens a cell holding two entries as a list (Shift+Enter): edit one, delete the other', async () => {
    const made: string[] = [];
    for (const duration of [600, 1200]) {
      const res = await server.api.post('/times', alice.token, {
        duration,
        user: 'alice',
        project: 'gwm',
        activities: ['docs'],
        date_worked: '2024-02-07',
      });
      assert.equal(res.status, 200, res.text);
      made.push((res.body as { uuid: string }).uuid);
    }
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W06`, alice.username, alice.password);
    const cell = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Documentation, Wed 2024-02-07 (2 entries)',
    });
    assert.equal(await cell.inputValue(), '0:30');
    // Typeable (issue 34: a new total changes the most recent entry); Shift+Enter lists them.
    assert.equal(await cell.getAttribute('readonly'), null);
    await cell.press('Shift+Enter');
    const list = page.getByRole('dialog', {
      name: 'Entries of Ganeti Web Manager, Documentation, 2024-02-07',
    });
    await list.getByRole('button', { name: 'Edit entry 1 (0:10)' }).click();
    await list.getByLabel('Notes').fill('release notes');
    await list.getByRole('button', { name: 'Save entry' }).click();
    await list.getByRole('button', { name: 'Delete entry 2 (0:20)' }).click();
    await list
      .getByRole('button', { name: 'Delete entry 2 (0:20)' })
      .waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Close' }).click();
    await list.waitFor({ state: 'hidden' });
    // One entry left: the cell is a plain cell again.
    const single = page.getByRole('textbox', {
      name: 'Ganeti Web Manager, Documentation, Wed 2024-02-07',
      exact: true,
    });
    assert.equal(await single.inputValue(), '0:10');
    const first = (await server.api.get(`/times/${made[0]}`, alice.token)).body as any;
    assert.equal(first.notes, 'release notes');
    assert.equal((await server.api.get(`/times/${made[1]}`, alice.token)).status, 404);

    // Shift+Enter opens a single entry's form: notes and issue URI live there.
    await single.press('Shift+Enter');
    const form = page.getByRole('dialog', { name: /^Entries of / });
    await form.getByLabel('Issue URI').fill('https://example.org/gwm/7');
    await form.getByRole('button', { name: 'Save entry' }).click();
    await form.waitFor({ state: 'hidden' });
    const now = (await server.api.get(`/times/${made[0]}`, alice.token)).body as any;
    assert.deepEqual([now.notes, now.issue_uri], ['release notes', 'https://example.org/gwm/7']);
    await page.context().close();
  });

  it('renders a week of 100 entries (time from data to screen logged)', async (t) => {
    const busy = await createUser(server, { username: 'busy' });
    await server.api.post('/projects/gwm', server.adminToken, {
      users: { alice: { member: true }, busy: { member: true } },
    });
    const days = ['2024-04-01', '2024-04-02', '2024-04-03', '2024-04-04', '2024-04-05'];
    for (let i = 0; i < 100; i++) {
      const res = await server.api.post('/times', busy.token, {
        duration: 60 * (i + 1),
        user: 'busy',
        project: 'gwm',
        activities: [i % 2 ? 'dev' : 'docs'],
        date_worked: days[i % 5],
      });
      assert.equal(res.status, 200, res.text);
    }
    const page = await newPage(browser);
    await signIn(page, `${server.url}/?week=2024-W14`, busy.username, busy.password);
    await page.getByRole('table').waitFor();
    const ms = await page.evaluate(
      () => performance.getEntriesByName('timesheet-render')[0]?.duration ?? -1,
    );
    assert.ok(ms >= 0, 'the timesheet measured its render');
    t.diagnostic(`a week of 100 entries rendered ${ms.toFixed(1)} ms after the data arrived`);
    // 100 entries, 20 a day in two rows: the week's total is 1+2+…+100 minutes.
    assert.equal(await page.locator('.week-total').textContent(), formatDuration(5050 * 60));
    await page.context().close();
  });

  it('asks to sign in again over the page when the server refuses the token', async () => {
    const page = await newPage(browser);
    await page.goto(server.url);
    // A token the server did not sign (as an expired one): sub alice, bad signature.
    const payload = Buffer.from(JSON.stringify({ sub: 'alice' })).toString('base64url');
    await page.evaluate((token) => {
      (globalThis as any).sessionStorage.setItem('timetrack.token', token);
    }, `eyJhbGciOiJIUzUxMiJ9.${payload}.c2lnbmF0dXJl`);
    await page.goto(`${server.url}/?week=2024-W05`);
    const dialog = page.getByRole('dialog', { name: 'Session expired' });
    await dialog.getByLabel('Username').waitFor();
    assert.equal(await dialog.getByLabel('Username').inputValue(), 'alice');
    await dialog.getByLabel('Password').fill(alice.password);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('table').waitFor();
    await page.context().close();
  });

  it('has no serious accessibility violations on any page or dialog (axe-core)', async () => {
    // CSP forbids the injected axe script: this page alone bypasses it.
    const page = await newPage(browser, { bypassCSP: true });
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'sign-in page');
    await signIn(page, `${server.url}/?week=2024-W06`, alice.username, alice.password);
    await page.getByRole('table').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'timesheet');
    await page.getByRole('textbox', { name: /Documentation, Wed 2024-02-07/ }).press('Shift+Enter');
    await page.getByRole('dialog', { name: /^Entries of / }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'an entry’s form');
    await page.keyboard.press('Escape');
    await page
      .getByRole('region', { name: 'Timer' })
      .getByRole('button', { name: 'Start timer' })
      .click();
    await page.getByRole('dialog', { name: 'Start the timer' }).getByLabel('Notes').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'the timer’s start form');
    await page
      .getByRole('dialog', { name: 'Start the timer' })
      .getByRole('button', { name: 'Start' })
      .click();
    await page.getByRole('button', { name: 'Stop timer' }).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'a running timer');
    await page.getByRole('link', { name: 'Entries' }).click();
    await page.getByText(/^Entries 1–/).waitFor();
    assert.deepEqual(await axeViolations(page), [], 'entries');
    await page
      .getByRole('button', { name: /^History of / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Entry history' }).locator('tbody tr').first().waitFor();
    assert.deepEqual(await axeViolations(page), [], 'an entry’s history');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByLabel('Display name').waitFor();
    assert.deepEqual(await axeViolations(page), [], 'profile');
    await page.getByRole('button', { name: 'Discard' }).click();
    await page
      .getByRole('dialog', { name: 'Discard the timer?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await page.getByRole('button', { name: 'Start timer' }).waitFor();
    await page.context().close();
  });

  it('fits a 360 px screen without horizontal page overflow', async () => {
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    // With a timer running on a long project name, the header's widest state.
    const started = await server.api.post('/timer', alice.token, {
      project: 'gwm',
      notes: 'A note long enough to need cutting short on a phone',
    });
    assert.equal(started.status, 200, started.text);
    await signIn(page, `${server.url}/?week=2024-W05`, alice.username, alice.password);
    // A phone's timesheet is the day view, not the week's table (issue 34).
    await page.getByRole('button', { name: 'Previous day' }).waitFor();
    await page.getByRole('button', { name: 'Stop timer' }).waitFor();
    assert.deepEqual(await overflows(page), [], 'the timesheet in a 360 px window');
    // Nor do the lists scroll sideways inside the page: entries and projects are cards,
    // and a report by day and project fits its four columns.
    const report = `${server.url}/reports?range=custom&start=2024-01-29&end=2024-02-04&group=day&then=project`;
    for (const [link, ready] of [
      ['Entries', page.getByText(/^Entries 1–/)],
      ['Projects', page.getByRole('link', { name: 'Ganeti Web Manager' })],
      [report, page.getByRole('rowheader', { name: 'Total' })],
      ['Profile', page.getByLabel('Display name')],
    ] as const) {
      if (link === report) await page.goto(report);
      else await page.getByRole('link', { name: link, exact: true }).click();
      await ready.waitFor();
      assert.deepEqual(await overflows(page), [], `${link} in a 360 px window`);
    }
    assert.equal((await server.api.del('/timer', alice.token)).status, 200);
    await page.context().close();
  });
});
