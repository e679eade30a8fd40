// The Import page in a real browser (issue 31 §3): an admin chooses the tool and the file,
// the dry run's report shows as tables (people to match or create, projects and activities
// to create, entries per person and project, what is dropped), nothing is written until
// Import is pressed; then the entries are there. Axe on the page and its report, at desktop
// size and on a 360 px screen.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { fixture, importWorld } from '../helpers/import-world';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

describe('the web app: Import', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    await importWorld(server);
  });

  const times = async () =>
    (await server.api.get('/times', server.adminToken)).body as Record<string, any>[];

  const tableRows = (page: Page, name: string) =>
    page
      .getByRole('region', { name })
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim())),
      );

  const flow = async (page: Page, width: string) => {
    await page.getByRole('link', { name: 'Import' }).first().click();
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    assert.deepEqual(await axeViolations(page), [], `import page, ${width}`);
    await page.getByLabel('Tool').selectOption('clockify');
    await page.getByLabel('Export file').setInputFiles(fixture('clockify'));
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByRole('status')
      .getByText(/Checked: 3 entries would be imported/)
      .waitFor();
    assert.deepEqual(await tableRows(page, 'People'), [
      ['alice@example.com', 'alice', 'matched', '2'],
      ['bob@example.com', 'bob', 'matched', '3'],
      ['dan@example.com', '—', 'skipped (no such user)', '1'],
    ]);
    assert.deepEqual(await tableRows(page, 'Projects'), [
      ['Website Redesign', '—', 'matched', '2'],
      ['Mobile App', 'mobile-app', 'to create', '3'],
    ]);
    assert.deepEqual(await tableRows(page, 'Entries per person and project'), [
      ['alice', 'Website Redesign', '2', '3.00'],
      ['bob', 'Mobile App', '1', '2.25'],
    ]);
    await page.getByText(/Columns dropped .*Billable Rate \(USD\) \(6\)/).waitFor();
    assert.deepEqual(await axeViolations(page), [], `report, ${width}`);
    return page;
  };

  it('checks a Clockify export, shows the report, imports it on confirmation', async () => {
    const page = await newPage(browser, { bypassCSP: true }); // for axe
    await signIn(page, `${server.url}/`, ADMIN.username, ADMIN.password);
    await flow(page, 'desktop');
    assert.deepEqual(await times(), [], 'the dry run wrote nothing');
    await page.getByRole('button', { name: 'Import 3 entries' }).click();
    await page.getByRole('status').getByText('Imported 3 entries (3 rows skipped)').waitFor();
    const made = await times();
    assert.deepEqual(
      made.map((t) => [t.user, t.project[0], t.date_worked, t.start_time, t.duration]).sort(),
      [
        ['alice', 'website', '2024-03-04', '09:15:00', 5400],
        ['alice', 'website', '2024-03-04', '23:00:00', 5400],
        ['bob', 'mobile-app', '2024-03-05', '13:00:00', 8100],
      ],
    );
    await page.context().close();
  });

  it('fits a 360 px screen, and a second import of the same file creates nothing', async () => {
    const page = await newPage(browser, {
      bypassCSP: true,
      viewport: { width: 360, height: 740 },
    });
    await signIn(page, `${server.url}/`, ADMIN.username, ADMIN.password);
    await page.goto(`${server.url}/import`);
    await page.getByLabel('Tool').selectOption('clockify');
    await page.getByLabel('Export file').setInputFiles(fixture('clockify'));
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByRole('status')
      .getByText(/Checked: 0 entries would be imported/)
      .waitFor();
    assert.deepEqual(await overflows(page), [], '/import in a 360 px window');
    assert.deepEqual(await axeViolations(page), [], 'report, 360 px');
    assert.equal((await times()).length, 3);
    await page.context().close();
  });

  it("refuses another tool's file with the server's words", async () => {
    const page = await newPage(browser);
    await signIn(page, `${server.url}/import`, ADMIN.username, ADMIN.password);
    await page.getByLabel('Tool').selectOption('harvest');
    await page.getByLabel('Export file').setInputFiles(fixture('toggl'));
    await page.getByRole('button', { name: 'Check' }).click();
    await page
      .getByRole('alert')
      .getByText(
        'The file is not a Harvest detailed time report: it has no columns Date, Hours, First Name, Last Name',
      )
      .waitFor();
    await page.context().close();
  });
});
