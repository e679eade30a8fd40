// Weekly submission and approval in a real browser (issue 32), at desktop size and on a
// 360 px screen, with axe on each screen: a member submits a week, a manager rejects it
// with a comment, the member sees the comment, fixes a cell and submits again, the
// manager approves (the navigation counts what waits), and the cells are then read-only
// and say why. An admin sets and removes the lock date.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createActivity, createProject, createUser, type TestUser } from '../helpers/factories';
import { ADMIN, type TestServer } from '../helpers/server';
import { axeViolations, browserSuite, newPage, overflows, signIn, skipReason } from './browser';

const skip = skipReason();

const LONG_LINK = 'https://example.org/a/very/long/link/that/does/not/break/anywhere/at/all';
const SIZES = [
  {
    name: 'desktop',
    viewport: { width: 1280, height: 800 },
    week: '2026-W10',
    monday: '2026-03-02',
  },
  { name: '360 px', viewport: { width: 360, height: 740 }, week: '2026-W11', monday: '2026-03-09' },
];

describe('the web app: submit, reject, fix, approve, locked', { skip }, () => {
  let server: TestServer;
  let browser: Browser;
  let member: TestUser;
  let pm: TestUser;

  const suite = browserSuite();
  before(async () => {
    ({ server, browser } = suite);
    member = await createUser(server, { username: 'mia' });
    pm = await createUser(server, { username: 'pat' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createProject(server, {
      name: 'Website',
      slugs: ['web'],
      default_activity: 'dev',
      users: { mia: { member: true }, pat: { manager: true } },
    });
  });

  const axe = async (page: Page, what: string) =>
    assert.deepEqual(await axeViolations(page), [], what);
  const fits = async (page: Page, width: number, what: string) =>
    assert.deepEqual(await overflows(page), [], `${what} in a ${width} px window`);

  for (const size of SIZES) {
    it(`goes from submission to locked cells (${size.name})`, async () => {
      const { week, monday } = size;
      const tuesday = monday.replace(/\d\d$/, (d) => String(Number(d) + 1).padStart(2, '0'));
      for (const [date, duration] of [
        [monday, 7200],
        [tuesday, 3600],
      ] as const) {
        const res = await server.api.post('/times', member.token, {
          duration,
          user: 'mia',
          project: 'web',
          date_worked: date,
          // unbroken, longer than a phone is wide: the read-only week must still fit
          ...(date === monday
            ? { notes: `Investigated_the_flaky_payment_gateway_test ${LONG_LINK}` }
            : {}),
        });
        assert.equal(res.status, 200, res.text);
      }
      const options = { viewport: size.viewport, bypassCSP: true }; // bypassCSP: for axe
      const mia = await newPage(browser, options);
      await signIn(mia, `${server.url}/?week=${week}`, member.username, member.password);
      const mondayCell = mia.getByRole('textbox', { name: `Website, Development, Mon ${monday}` });
      await mondayCell.waitFor();
      assert.equal(await mondayCell.inputValue(), '2:00');

      // The member submits, after a confirmation that shows the week's total.
      await mia.getByRole('button', { name: 'Submit week' }).click();
      const confirm = mia.getByRole('dialog', { name: `Submit week ${Number(week.slice(6))}` });
      assert.match((await confirm.textContent()) ?? '', /Submit 3:00 h of/);
      await axe(mia, `${size.name}: confirmation`);
      await confirm.getByRole('button', { name: 'Submit' }).click();
      await mia
        .getByRole('status')
        .getByText(/Submitted week \d+ for approval/)
        .waitFor();
      await mia.getByText('Submitted', { exact: true }).waitFor();
      assert.equal(await mondayCell.isEditable(), false);
      assert.equal(await mondayCell.getAttribute('title'), 'Locked: submitted for approval');

      // The manager sees one waiting, and rejects it with a comment.
      const pat = await newPage(browser, options);
      await signIn(pat, `${server.url}/approvals`, pm.username, pm.password);
      const nav = pat.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: /Approvals 1 waiting/ }).waitFor();
      const name = `mia, ${week}, web`;
      await pat.getByRole('button', { name: `Reject ${name}` }).waitFor();
      const row = pat.getByRole('row', { name: new RegExp(week) });
      assert.match((await row.textContent()) ?? '', /2:00.*1:00.*3:00/);
      await axe(pat, `${size.name}: approvals`);
      await fits(pat, size.viewport.width, `${size.name}: approvals`);
      await pat.getByRole('button', { name: `View ${name}` }).click();
      const view = pat.getByRole('dialog', { name: `mia, week ${week}, web` });
      await view
        .getByText(/pat|mia: submit/)
        .first()
        .waitFor();
      await axe(pat, `${size.name}: a week, read-only`);
      await fits(pat, size.viewport.width, `${size.name}: a week, read-only`);
      await view.getByRole('button', { name: 'Close' }).click();
      await pat.getByRole('button', { name: `Reject ${name}` }).click();
      const reject = pat.getByRole('dialog', { name: `Reject ${name}` });
      await reject.getByLabel('What should be fixed?').fill('Monday was 3 hours');
      await axe(pat, `${size.name}: reject dialog`);
      await reject.getByRole('button', { name: 'Reject' }).click();
      await pat.getByRole('status').getByText(`Rejected mia ${week} web`).waitFor();
      await pat.getByText('Nothing waits for your approval.').waitFor();

      // The member sees why, fixes Monday and submits again.
      await mia.reload();
      await mia.getByText('pat: “Monday was 3 hours”').waitFor();
      assert.equal(await mondayCell.isEditable(), true);
      await mondayCell.fill('3:00');
      await mondayCell.press('Enter');
      await mia.getByRole('status').getByText(`Saved Website, Development, ${monday}`).waitFor();
      await axe(mia, `${size.name}: timesheet, rejected`);
      await mia.getByRole('button', { name: 'Submit week' }).click();
      await confirm.getByRole('button', { name: 'Submit' }).click();
      await mia.getByText('Submitted', { exact: true }).waitFor();

      // The manager approves it (selected, then all selected at once).
      await pat.reload();
      await nav.getByRole('link', { name: /Approvals 1 waiting/ }).waitFor();
      await pat.getByRole('checkbox', { name: `Select ${name}` }).check();
      await pat.getByRole('button', { name: 'Approve selected (1)' }).click();
      await pat.getByRole('status').getByText(`Approved mia ${week} web`).waitFor();
      await nav.getByRole('link', { name: 'Approvals', exact: true }).waitFor();

      // The member's cells are locked, and say by whom.
      await mia.reload();
      await mia.getByText('Approved', { exact: true }).waitFor();
      await mondayCell.waitFor();
      assert.equal(await mondayCell.inputValue(), '3:00');
      assert.equal(await mondayCell.isEditable(), false);
      assert.equal(await mondayCell.getAttribute('title'), 'Locked: approved by pat');
      assert.equal(await mia.getByRole('button', { name: 'Submit week' }).isDisabled(), true);
      await axe(mia, `${size.name}: timesheet, approved`);
      await fits(mia, size.viewport.width, `${size.name}: timesheet`);
      const [part] = (
        await server.api.get('/approvals', member.token, { start: monday, end: monday })
      ).body as any[];
      assert.deepEqual([part.status, part.duration, part.decided_by], ['approved', 14400, 'pat']);
      await mia.context().close();
      await pat.context().close();
    });
  }

  it('lets an admin set and remove the lock date, explained', async () => {
    const page = await newPage(browser, { bypassCSP: true });
    await signIn(page, `${server.url}/approvals`, ADMIN.username, ADMIN.password);
    const section = page.getByRole('region', { name: 'Lock date' });
    await section.getByText('There is no lock date: every day is open.').waitFor();
    assert.match((await section.textContent()) ?? '', /administrators included/);
    await section.getByLabel('Lock entries before').fill('2026-01-01');
    await section.getByRole('button', { name: 'Save lock date' }).click();
    await section.getByText('Entries before 2026-01-01 are locked.').waitFor();
    await axe(page, 'lock date');
    assert.deepEqual((await server.api.get('/lock', member.token)).body, { before: '2026-01-01' });
    await section.getByRole('button', { name: 'Remove lock date' }).click();
    await section.getByText('There is no lock date: every day is open.').waitFor();
    assert.deepEqual((await server.api.get('/lock', member.token)).body, { before: null });
    await page.context().close();
  });
});
