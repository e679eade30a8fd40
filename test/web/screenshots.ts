// npm run screenshots: PNGs of the real app with demo data, for the docs and for a look
// at what the tests cannot judge. Writes docs/screenshots/<page>-{desktop,360}.png for
// the sign-in, timesheet (with the timer running; on a phone the day view, at 360×740),
// a cell's entries, the entries page, an entry's history, the reports (a chart over
// time, a ranked one), the projects list, a project's page and the profile, a dark
// timesheet, and the week a manager who is a member of no project lands on
// (team-week-*.png). Needs chromium, like the browser tests.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createActivity, createProject, createUser } from '../helpers/factories';
import { startTestServer } from '../helpers/server';
import { ensureWebAssets, launchBrowser, newPage, signIn, skipReason } from './browser';

const OUT = join(__dirname, '../../docs/screenshots');
const WEEK = '2024-W05';
const DAYS = ['2024-01-29', '2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02'];

async function main() {
  const skip = skipReason();
  if (skip) throw new Error(skip);
  ensureWebAssets();
  mkdirSync(OUT, { recursive: true });
  const server = await startTestServer();
  const browser = await launchBrowser();
  try {
    const alice = await createUser(server, { username: 'alice', display_name: 'Alice Example' });
    await createActivity(server, { slug: 'dev', name: 'Development' });
    await createActivity(server, { slug: 'review', name: 'Code review' });
    await createActivity(server, { slug: 'meet', name: 'Meetings' });
    const member = { users: { alice: { member: true } } };
    const bob = await createUser(server, { username: 'bob', display_name: 'Bob Builder' });
    // carol manages Ganeti Web Manager and Protein Geometry DB and logs no time herself.
    const carol = await createUser(server, { username: 'carol', display_name: 'Carol Chief' });
    await createProject(server, {
      name: 'Ganeti Web Manager',
      slugs: ['gwm', 'ganeti'],
      default_activity: 'dev',
      uri: 'https://code.example.org/gwm',
      users: {
        alice: { member: true, manager: true },
        bob: { member: true },
        carol: { manager: true },
      },
    });
    await createProject(server, {
      name: 'Protein Geometry DB',
      slugs: ['pgd'],
      default_activity: 'dev',
      users: { alice: { member: true }, bob: { member: true }, carol: { manager: true } },
    });
    await createProject(server, {
      name: 'Internal',
      slugs: ['internal'],
      default_activity: 'meet',
      ...member,
    });
    const book = async (
      project: string,
      activity: string,
      date: string,
      minutes: number,
      notes?: string,
      who = alice,
    ) => {
      const res = await server.api.post('/times', who.token, {
        duration: minutes * 60,
        user: who.username,
        project,
        activities: [activity],
        date_worked: date,
        ...(notes ? { notes } : {}),
      });
      if (res.status !== 200) throw new Error(res.text);
      return res.body as { uuid: string };
    };
    const plan: [string, string, number[]][] = [
      ['gwm', 'dev', [240, 180, 300, 0, 150]],
      ['gwm', 'review', [60, 45, 0, 90, 30]],
      ['pgd', 'dev', [0, 120, 90, 210, 180]],
      ['internal', 'meet', [60, 30, 30, 60, 90]],
    ];
    for (const [project, activity, minutes] of plan) {
      for (const [i, m] of minutes.entries()) {
        if (m) await book(project, activity, DAYS[i] as string, m);
      }
    }

    // bob's week, for carol's team week.
    for (const [i, m] of [300, 360, 240, 420, 180].entries()) {
      await book(i % 2 ? 'pgd' : 'gwm', 'dev', DAYS[i] as string, m, undefined, bob);
    }

    // A cell of two entries, an entry with history, a running timer.
    await book('pgd', 'review', DAYS[4] as string, 25, 'Review of the schema change');
    await book('pgd', 'review', DAYS[4] as string, 40, 'Second review round');
    const edited = await book('gwm', 'dev', '2024-01-26', 120, 'Settings page');
    await server.api.post(`/times/${edited.uuid}`, alice.token, {
      duration: 150 * 60,
      notes: 'Settings page, with tests',
    });
    // A deleted project alice manages: the projects list shows it with Restore.
    await createProject(server, {
      name: 'Old Intranet',
      slugs: ['intranet'],
      users: { alice: { manager: true } },
    });
    await server.api.del('/projects/intranet', server.adminToken);
    const timer = await server.api.post('/timer', alice.token, {
      project: 'gwm',
      activities: ['dev'],
      notes: 'Login form',
    });
    if (timer.status !== 200) throw new Error(timer.text);

    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 720 }],
      ['360', { width: 360, height: 740 }],
    ] as const) {
      const page = await newPage(browser, { viewport, colorScheme: 'light' });
      await page.goto(server.url);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await page.screenshot({ path: join(OUT, `signin-${name}.png`) });
      // On a phone the timesheet is the day view: Friday, whose Code review cell holds two
      // entries; the screenshot is the phone's screen, 360×740.
      const phone = name === '360';
      await signIn(
        page,
        `${server.url}/?week=${WEEK}${phone ? `&day=${DAYS[4]}` : ''}`,
        'alice',
        alice.password,
      );
      await page.locator(phone ? '.day-view' : 'table.grid').waitFor();
      await page.screenshot({ path: join(OUT, `timesheet-${name}.png`), fullPage: !phone });
      await page
        .getByRole('textbox', { name: /Code review, Fri 2024-02-02 \(2 entries\)/ })
        .press('Shift+Enter');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).waitFor();
      await page.screenshot({ path: join(OUT, `cell-entries-${name}.png`) });
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'Entries' }).click();
      await page.getByText(/^Entries 1–/).waitFor();
      await page.screenshot({ path: join(OUT, `entries-${name}.png`), fullPage: true });
      await page.getByRole('button', { name: /^History of entry of 2024-01-26/ }).click();
      await page.getByRole('dialog').locator('tbody tr').nth(1).waitFor();
      await page.screenshot({ path: join(OUT, `history-${name}.png`) });
      await page.keyboard.press('Escape');
      await page.goto(
        `${server.url}/reports?range=custom&start=2024-01-29&end=2024-02-04&group=day&then=project`,
      );
      await page
        .getByRole('img', { name: /^Hours per day/ })
        .locator('canvas')
        .waitFor();
      await page.screenshot({ path: join(OUT, `reports-${name}.png`), fullPage: true });
      await page.goto(
        `${server.url}/reports?range=custom&start=2024-01-29&end=2024-02-04&group=project&then=activity`,
      );
      await page.locator('ol.ranked meter').first().waitFor();
      await page.screenshot({ path: join(OUT, `reports-projects-${name}.png`), fullPage: true });
      await page.goto(`${server.url}/projects?deleted=1`);
      await page.getByRole('button', { name: 'Restore Old Intranet' }).waitFor();
      await page.screenshot({ path: join(OUT, `projects-${name}.png`), fullPage: true });
      await page.getByRole('link', { name: 'Ganeti Web Manager' }).click();
      await page.getByRole('region', { name: 'Revisions' }).waitFor();
      await page.screenshot({ path: join(OUT, `project-${name}.png`), fullPage: true });
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByLabel('Display name').waitFor();
      await page.screenshot({ path: join(OUT, `profile-${name}.png`), fullPage: true });
      await page.context().close();
      // The manager's landing page: carol is a member of no project.
      const manager = await newPage(browser, { viewport, colorScheme: 'light' });
      await signIn(manager, `${server.url}/?week=${WEEK}`, 'carol', carol.password);
      await manager.locator('table.team-grid tbody tr').first().waitFor();
      await manager.screenshot({ path: join(OUT, `team-week-${name}.png`), fullPage: true });
      await manager.context().close();
    }
    const dark = await newPage(browser, {
      viewport: { width: 1280, height: 720 },
      colorScheme: 'dark',
    });
    await signIn(dark, `${server.url}/?week=${WEEK}`, 'alice', alice.password);
    await dark.getByRole('table').waitFor();
    await dark.screenshot({ path: join(OUT, 'timesheet-dark.png'), fullPage: true });
    process.stdout.write(`screenshots in ${OUT}\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
