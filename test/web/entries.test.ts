// The web app's entries and profile pages in a real browser: filters and pages of 50,
// edit with a field error in place, delete, restore, history; a plain user never sees
// another's entries; the profile's details and password. See test/web/browser.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openDatabase } from '../../src/db/open';
import type { Reply } from '../helpers/api';
import { createActivity, createProject, createUser, type TestUser } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  axeViolations,
  browserSuite,
  newPage,
  overflows,
  signIn,
  skipReason,
  unevenFilters,
} from './browser';

const skip = skipReason();

const ok = (res: Reply) => {
  assert.equal(res.status, 200, res.text);
  return res.body;
};

describe('the web app: entries and profile', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let alice: TestUser;
  let bob: TestUser;

  const book = async (user: TestUser, date: string, minutes: number, notes?: string) => {
    const res = await server.api.post('/times', user.token, {
      duration: minutes * 60,
      user: user.username,
      project: 'gwm',
      activities: ['dev'],
      date_worked: date,
      ...(notes ? { notes } : {}),
    });
    assert.equal(res.status, 200, res.text);
    return res.body as { uuid: string };
  };

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    alice = await createUser(server, { username: 'alice' });
    bob = await createUser(server, { username: 'bob', display_name: 'Bob Builder' });
    // The longest choice of the User filter: a select as wide as it once pushed the page
    // 112 px past a phone's screen.
    await createUser(server, {
      username: 'caroline',
      display_name: 'Caroline Bartholomew-Fitzgerald Longbottom',
    });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createActivity(server, { slug: 'docs', name: 'Documentation' });
    await createProject(server, {
      name: 'Ganeti Web Manager',
      slugs: ['gwm'],
      default_activity: 'dev',
      users: { alice: { member: true }, bob: { member: true }, caroline: { member: true } },
    });
    // 60 of alice's entries in January 2024 (so two pages), one of bob's.
    for (let i = 0; i < 60; i++) {
      await book(alice, `2024-01-${String((i % 28) + 1).padStart(2, '0')}`, 30 + i, `task ${i}`);
    }
    await book(bob, '2024-01-15', 90, 'bob’s secret work');
  });

  it('lists one’s entries 50 to a page, newest date worked first, with filters', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/entries`, alice.username, alice.password);
    await page.getByText('Entries 1–50 of 60, newest date worked first').waitFor();
    const rows = page.locator('table.list tbody tr');
    assert.equal(await rows.count(), 50);
    // 2024-01-28 holds tasks 27 and 55 (ties: the earlier change first).
    assert.match((await rows.first().textContent()) ?? '', /2024-01-28.*task 27(?!\d)/);
    await page.getByRole('button', { name: 'Next ›' }).click();
    await page.getByText('Entries 51–60 of 60').waitFor();
    assert.equal(await rows.count(), 10);
    assert.match((await rows.last().textContent()) ?? '', /2024-01-01.*task 56(?!\d)/);
    assert.match(page.url(), /page=2/);

    // A date range: 2024-01-01..02 holds entries 0, 1, 28, 29, 56, 57.
    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await page.getByLabel('To', { exact: true }).fill('2024-01-02');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Entries 1–6 of 6').waitFor();
    assert.match(page.url(), /start=2024-01-01&end=2024-01-02/);
    assert.doesNotMatch(page.url(), /page=/);
    await page.getByLabel('Activity').selectOption('docs');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match.').waitFor();
    await page.context().close();
  });

  for (const [screen, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 360, height: 740 }],
  ] as const) {
    it(`sorts by duration, searches the notes and totals every match (${screen})`, async () => {
      const page = await newPage(browser, { viewport, bypassCSP: true }); // for axe
      await signIn(page, `${server.url}/entries`, alice.username, alice.password);
      // 60 entries of 30 to 89 minutes: 59:30 in all, though a page shows 50.
      await page.getByText('Total 59:30').waitFor();
      const rows = page.locator('table.list tbody tr');
      const duration = page.getByRole('button', { name: 'Duration', exact: true });
      await duration.click();
      await page.getByText(/Entries 1–50 of 60, longest first/).waitFor();
      assert.match((await rows.first().textContent()) ?? '', /1:29/);
      await duration.click();
      await page.getByText(/shortest first/).waitFor();
      assert.match((await rows.first().textContent()) ?? '', /0:30/);
      assert.match(page.url(), /order=duration/);

      // tasks 1 and 10–19: 31 + 40 + … + 49 minutes.
      await page.getByLabel('Search notes').fill('TASK 1');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('Entries 1–11 of 11, shortest first').waitFor();
      await page.getByText('Total 7:56').waitFor();
      assert.match(page.url(), /q=TASK\+1/);
      assert.deepEqual(await unevenFilters(page), [], 'the filters’ fields side by side');
      if (screen === 'phone') {
        // Cards: no sideways scroll, each entry's duration and actions in view.
        assert.deepEqual(await overflows(page), [], 'the entries page');
        const edit = await page
          .getByRole('button', { name: /^Edit / })
          .first()
          .boundingBox();
        assert.ok(edit && edit.x + edit.width <= 360, 'Edit is off-screen');
        const cell = await rows.first().locator('td[data-label="Duration"]').boundingBox();
        assert.ok(cell && cell.x >= 0 && cell.x + cell.width <= 360, 'Duration is off-screen');
        assert.equal(await rows.first().locator('td[data-label="Duration"]').textContent(), '0:31');
      }
      assert.deepEqual(await axeViolations(page), [], 'entries');
      await page.context().close();
    });
  }

  it('never shows a plain user another user’s entries', async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/entries?user=*`, alice.username, alice.password);
    await page.getByText('Entries 1–50 of 60').waitFor();
    assert.equal(await page.getByText('bob’s secret work').count(), 0);
    // Asking for bob's by the URL: the API filters silently, so nothing.
    await page.goto(`${server.url}/entries?user=bob`);
    await page.getByText('No entries match.').waitFor();
    // The timesheet shows only her own week, too.
    await page.goto(`${server.url}/?week=2024-W03`);
    await page.getByRole('table').waitFor();
    assert.equal(await page.getByText('bob').count(), 0);
    await page.context().close();
  });

  it('edits an entry, shows a refusal next to its field, deletes, restores, shows history', async () => {
    const entry = await book(alice, '2023-12-31', 60, 'year end');
    const page = await newPage(browser);
    await signIn(
      page,
      `${server.url}/entries?start=2023-12-31&end=2023-12-31`,
      alice.username,
      alice.password,
    );
    await page.getByText('Entries 1–1 of 1').waitFor();
    await page.getByRole('button', { name: 'Edit entry of 2023-12-31, 1:00' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    await dialog.getByLabel('Duration').fill('1:45');
    await dialog.getByLabel('Notes').fill('year end, done');
    await dialog.getByLabel('Issue URI').fill('ftp://example.org/1');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    // The server's own text, tied to the field.
    const refused = await server.api.post(`/times/${entry.uuid}`, alice.token, {
      issue_uri: 'ftp://example.org/1',
    });
    const text = (refused.body as { text: string }).text;
    const field = dialog.getByLabel('Issue URI');
    await dialog.getByText(text, { exact: true }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    await field.fill('https://example.org/issues/1');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await server.api.get(`/times/${entry.uuid}`, alice.token)).body as any;
    assert.deepEqual(
      [saved.duration, saved.notes, saved.issue_uri, saved.revision],
      [6300, 'year end, done', 'https://example.org/issues/1', 2],
    );

    await page.getByRole('button', { name: 'Delete entry of 2023-12-31, 1:45' }).click();
    await page.getByText('No entries match.').waitFor();
    assert.equal((await server.api.get(`/times/${entry.uuid}`, alice.token)).status, 404);
    await page.getByLabel('Deleted too').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('deleted', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Restore entry of 2023-12-31, 1:45' }).click();
    await page.getByRole('status').getByText('Restored the entry of 2023-12-31, 1:45').waitFor();
    const restored = (await server.api.get(`/times/${entry.uuid}`, alice.token)).body as any;
    assert.deepEqual([restored.deleted_at, restored.revision], [null, 3]);

    await page.getByRole('button', { name: 'History of entry of 2023-12-31, 1:45' }).click();
    const history = page.getByRole('dialog', { name: 'Entry history' });
    const rows = history.locator('tbody tr');
    await rows.nth(2).waitFor();
    const cells = async (i: number) =>
      // Revision, when, by, (changes), date, duration.
      (await rows.nth(i).locator('th, td').allTextContents()).filter((_, c) => c !== 3).slice(0, 5);
    assert.equal(await rows.count(), 3);
    assert.deepEqual(
      (await cells(0)).filter((_, i) => i !== 1),
      ['3', 'alice', '2023-12-31', '1:45'],
    );
    assert.deepEqual(
      (await cells(2)).filter((_, i) => i !== 1),
      ['1', 'alice', '2023-12-31', '1:00'],
    );
    // When each revision was made, to the second (GET /times/:uuid/history, issue 29).
    for (const i of [0, 1, 2]) {
      assert.match((await cells(i))[1] as string, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    await history.getByRole('button', { name: 'Close' }).click();
    await page.context().close();
  });

  it('links only http and https issue URIs; any other stored one is shown as text', async () => {
    const good = await book(alice, '2023-11-01', 10, 'good link');
    const bad = await book(alice, '2023-11-02', 10, 'bad link');
    ok(
      await server.api.post(`/times/${good.uuid}`, alice.token, {
        issue_uri: 'https://example.org/issues/7',
      }),
    );
    // The API refuses such a URI; older data (an import, a migration) may still hold one.
    const evil = 'javascript:alert(document.domain)';
    const db = openDatabase(server.dbFile);
    try {
      const id = db.prepare('SELECT id FROM times WHERE uuid = ?').pluck().get(bad.uuid);
      // sql/009's triggers rewrite what reads send, as for any writer.
      db.prepare('UPDATE times SET issue_uri = ? WHERE id = ?').run(evil, id);
    } finally {
      db.close();
    }
    assert.equal((await server.api.get(`/times/${bad.uuid}`, alice.token)).body.issue_uri, evil);
    const page = await newPage(browser);
    await signIn(
      page,
      `${server.url}/entries?start=2023-11-01&end=2023-11-02`,
      alice.username,
      alice.password,
    );
    await page.getByText('Entries 1–2 of 2').waitFor();
    await page.getByText(`issue: ${evil}`).waitFor();
    const hrefs = await page
      .locator('td.notes a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, ['https://example.org/issues/7']);
    await page.context().close();
  });

  it('saves the profile’s details and changes the password', async () => {
    const dave = await createUser(server, { username: 'dave' });
    const page = await newPage(browser);
    await signIn(page, `${server.url}/profile`, dave.username, dave.password);
    await page.getByLabel('Display name').fill('Dave Example');
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const refusal = page.getByText(/Field email of user should be/);
    await refusal.waitFor();
    assert.equal(await page.getByLabel('Email').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Email').fill('dave@example.org');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Profile saved').waitFor();
    const user = (await server.api.get('/users/dave', dave.token)).body as any;
    assert.deepEqual([user.display_name, user.email], ['Dave Example', 'dave@example.org']);

    await page.getByLabel('Current password').fill('wrong');
    await page.getByLabel('New password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('Repeat the new password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Invalid username or password').waitFor();
    await page.getByLabel('Current password').fill(dave.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('status')
      .getByText(/Password changed/)
      .waitFor();
    // The old password no longer logs in, the new one does; this page's session goes on.
    assert.equal(
      (
        await server.api.raw('/v0/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            auth: { type: 'password', username: 'dave', password: dave.password },
          }),
        })
      ).status,
      401,
    );
    assert.ok(await server.api.login('dave', 'correct horse battery'));
    await page.getByRole('link', { name: 'Entries' }).click();
    await page.getByText('No entries match.').waitFor();
    await page.context().close();
  });
});
