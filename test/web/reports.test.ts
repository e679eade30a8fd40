// The web app's reports page in a real browser: a manager's "hours per person on project
// X last month" equals the entries behind it (the entries page and the API), the CSV
// download equals the table, both chart kinds render, and axe and a 360 px screen pass.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { formatDuration } from '../../src/web/base/duration';
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

const MARCH = 'range=custom&start=2024-03-01&end=2024-03-31';

describe('the web app: reports', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let manager: TestUser;
  let alice: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    manager = await createUser(server, { username: 'mgr' });
    alice = await createUser(server, { username: 'alice' });
    const bob = await createUser(server, { username: 'bob', display_name: 'Bob Builder' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createActivity(server, { slug: 'docs', name: 'Documentation' });
    await createProject(server, {
      name: 'Ganeti Web Manager',
      slugs: ['gwm'],
      default_activity: 'dev',
      users: { mgr: { manager: true }, alice: { member: true }, bob: { member: true } },
    });
    // "(internal)" is the longest word of the report at 360 px: with the desktop's cell
    // padding it pushed the four columns 7 px past the screen (the phone padding's test).
    await createProject(server, {
      name: 'Internal Operations',
      slugs: ['internal'],
      default_activity: 'dev',
      users: { alice: { member: true } },
    });
    const book = async (user: TestUser, project: string, date: string, minutes: number) => {
      const res = await server.api.post('/times', user.token, {
        duration: minutes * 60,
        user: user.username,
        project,
        activities: [minutes % 2 ? 'docs' : 'dev'],
        date_worked: date,
      });
      assert.equal(res.status, 200, res.text);
    };
    for (let d = 1; d <= 20; d++) {
      const date = `2024-03-${String(d).padStart(2, '0')}`;
      await book(alice, 'gwm', date, 30 + d);
      if (d % 3 === 0) await book(bob, 'gwm', date, 60 + d);
      if (d % 4 === 0) await book(alice, 'internal', date, 45);
    }
    await book(alice, 'gwm', '2024-04-02', 120); // outside the range
  });

  it('answers hours per person on a project for a month, as the entries behind it add up', async () => {
    const page = await newPage(browser, { acceptDownloads: true });
    await signIn(
      page,
      `${server.url}/reports?${MARCH}&project=gwm&group=user`,
      manager.username,
      manager.password,
    );
    const table = page.getByRole('table');
    await table.locator('tbody tr').nth(1).waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
    // The same numbers from the API's list of entries.
    const listed = (
      await server.api.get('/times', manager.token, {
        project: 'gwm',
        start: '2024-03-01',
        end: '2024-03-31',
      })
    ).body as any[];
    const sum = (user: string) =>
      listed.filter((t) => t.user === user).reduce((n, t) => n + t.duration, 0);
    const count = (user: string) => listed.filter((t) => t.user === user).length;
    assert.deepEqual(rows, [
      ['alice', formatDuration(sum('alice')), String(count('alice'))],
      // A display name beside the username, as the people filter shows it.
      ['Bob Builder (bob)', formatDuration(sum('bob')), String(count('bob'))],
    ]);
    const total = listed.reduce((n, t) => n + t.duration, 0);
    assert.deepEqual(await table.locator('tfoot td').allTextContents(), [
      formatDuration(total),
      String(listed.length),
    ]);
    // The ranked bars of the chart, largest first.
    assert.equal(await page.locator('ol.ranked meter').count(), 2);

    // The entries page with the same range and filters shows as many entries, adding up the same.
    await page.goto(`${server.url}/entries?start=2024-03-01&end=2024-03-31&project=gwm&user=*`);
    await page.getByText(`Entries 1–${listed.length} of ${listed.length}`).waitFor();
    const durations = await page.locator('table.list tbody tr td.num').allTextContents();
    const minutes = durations
      .map((d) => d.split(':').map(Number))
      .reduce((n, [h, m]) => n + (h as number) * 60 + (m as number), 0);
    assert.equal(minutes * 60, total);
    await page.context().close();
  });

  it('downloads the report and its entries as CSV matching the table', async () => {
    const page = await newPage(browser, { acceptDownloads: true });
    await signIn(
      page,
      `${server.url}/reports?${MARCH}&group=project&then=user`,
      manager.username,
      manager.password,
    );
    const table = page.getByRole('table');
    await table.locator('tbody tr').first().waitFor();
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download report (CSV)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'timetrack-report-2024-03-01-2024-03-31.csv');
    const csv = parse(readFileSync(await download.path(), 'utf8'), {
      columns: true,
      bom: true,
    }) as Record<string, string>[];
    // The CSV has the project's name and the user's display name beside slug and username,
    // as the table shows them.
    const beside = (name: string | undefined, id: string | undefined) =>
      name ? `${name} (${id})` : id;
    assert.deepEqual(
      csv.map((r) => [
        beside(r.project_name, r.project),
        beside(r.user_name, r.user),
        formatDuration(Number(r.duration_seconds)),
        r.entries,
      ]),
      shown,
    );
    // The manager sees gwm only (SPEC §3): the report and the download agree on that too.
    assert.deepEqual([...new Set(csv.map((r) => r.project))], ['gwm']);

    const [entries] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download entries (CSV)' }).click(),
    ]);
    assert.equal(entries.suggestedFilename(), 'timetrack-times-2024-03-01-2024-03-31.csv');
    const lines = parse(readFileSync(await entries.path(), 'utf8'), {
      columns: true,
      bom: true,
    }) as Record<string, string>[];
    assert.equal(String(lines.length), (await table.locator('tfoot td').allTextContents())[1]);
    const bobs = lines.filter((l) => l.user === 'bob');
    assert.ok(bobs.length > 0);
    for (const l of bobs) {
      assert.deepEqual([l.user_name, l.project_name], ['Bob Builder', 'Ganeti Web Manager']);
    }
    await page.context().close();
  });

  it('charts hours over time, keeps its settings in the URL, and passes axe at 360 px', async () => {
    const page = await newPage(browser, { bypassCSP: true, viewport: { width: 360, height: 740 } });
    await signIn(page, `${server.url}/reports?${MARCH}`, alice.username, alice.password);
    await page.getByRole('table').waitFor();
    await page.getByLabel('Group by').selectOption('week');
    await page.getByLabel('Then by').selectOption('project');
    await page.getByRole('button', { name: 'Show report' }).click();
    await page
      .getByRole('img', { name: 'Hours per week, 2024-03-01 to 2024-03-31' })
      .locator('canvas')
      .waitFor();
    assert.match(page.url(), /group=week&then=project/);
    const weeks = await page.locator('tbody tr td:first-child').allTextContents();
    assert.deepEqual([...new Set(weeks)], ['2024-W09', '2024-W10', '2024-W11', '2024-W12']);
    const projects = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    assert.deepEqual([...new Set(projects)].sort(), [
      'Ganeti Web Manager (gwm)',
      'Internal Operations (internal)',
    ]);
    assert.deepEqual(await overflows(page), [], 'a report of four columns in 360 px');
    assert.deepEqual(await unevenFilters(page), [], 'the settings’ fields side by side');
    // A preset range fills the dates; the back button brings the last report back.
    await page.getByLabel('Range').selectOption('last-month');
    assert.notEqual(await page.getByLabel('From', { exact: true }).inputValue(), '2024-03-01');
    await page.goBack();
    await page.getByRole('button', { name: 'Show report' }).waitFor();
    assert.equal(await page.getByLabel('Group by').inputValue(), 'project');
    assert.deepEqual(await axeViolations(page), [], 'reports');
    assert.deepEqual(await overflows(page), [], 'the reports page in a 360 px window');
    await page.context().close();
  });
  it('charts an entry of two activities once for its project, grouped by project then activity (360 px)', async () => {
    const res = await server.api.post('/times', alice.token, {
      duration: 90 * 60,
      user: alice.username,
      project: 'internal',
      activities: ['dev', 'docs'],
      date_worked: '2024-05-02',
    });
    assert.equal(res.status, 200, res.text);
    const page = await newPage(browser, { viewport: { width: 360, height: 740 } });
    await signIn(
      page,
      `${server.url}/reports?range=custom&start=2024-05-01&end=2024-05-31&group=project&then=activity`,
      alice.username,
      alice.password,
    );
    const table = page.getByRole('table');
    await table.waitFor();
    // The table: a row per activity, each with the whole entry; the total counts it once.
    assert.deepEqual(await table.locator('tbody tr td:nth-child(3)').allTextContents(), [
      '1:30',
      '1:30',
    ]);
    // The chart: the project's one entry, not the sum of its rows (3:00).
    assert.deepEqual(
      await page
        .locator('ol.ranked meter')
        .evaluateAll((ms) => ms.map((m) => m.getAttribute('aria-label'))),
      ['Internal Operations (internal): 1:30'],
    );
    // Its name wraps rather than leave the bar a sliver of the screen.
    const bar = await page.locator('ol.ranked meter').boundingBox();
    assert.ok(bar && bar.width >= 100, `the bar is ${bar?.width} px wide`);
    await page.context().close();
  });
});
