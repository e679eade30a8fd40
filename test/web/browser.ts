// Browser tests through node:test: Debian's chromium driven by playwright-core (no
// browser download), one browser per test file, a fresh profile, a real server on port
// 0. Without chromium the tests skip and say how to install it; with CI=true they fail.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { createActivity, createProject, createUser, type TestUser } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run here (said on stdout), or undefined when they can. */
export function skipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const why = `no chromium at ${CHROMIUM}: install it (sudo apt-get install chromium) or set CHROMIUM_PATH`;
  if (process.env.CI === 'true') throw new Error(`CI=true: the browser tests must run, but ${why}`);
  console.log(`# skipping the browser tests: ${why}`);
  return why;
}

/**
 * A browser test file's set-up, registered in its describe: before its tests the web
 * assets are built and a server (with `env`) and chromium started; after them both are
 * closed and no page may have reported an error. Read `server` and `browser` from the
 * result inside hooks and tests.
 */
export function browserSuite(env: Record<string, string> = {}): {
  server: TestServer;
  browser: Browser;
} {
  const suite = {} as { server: TestServer; browser: Browser };
  before(async () => {
    ensureWebAssets();
    [suite.server, suite.browser] = await Promise.all([startTestServer({ env }), launchBrowser()]);
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
    assert.deepEqual(pageErrors, []);
  });
  return suite;
}

/**
 * The web assets as the sources are now: `npm test` built them (pretest), test files run
 * by hand build them here, one at a time: two builds at once each empty dist/web under
 * the other (ENOTEMPTY). A file that finds a build under way waits for it and uses it.
 */
export function ensureWebAssets(): void {
  if (process.env.npm_lifecycle_event === 'test') return;
  const lock = join(__dirname, '../../dist/.web-build-lock');
  mkdirSync(dirname(lock), { recursive: true });
  try {
    mkdirSync(lock);
  } catch {
    // Another file builds: wait for it (a lock left by a killed run goes after 60 s).
    const since = Date.now();
    while (existsSync(lock) && Date.now() - since < 60_000) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
    if (!existsSync(lock)) return;
  }
  try {
    execFileSync(process.execPath, [join(__dirname, '../../build.mjs'), '--web-only'], {
      stdio: 'pipe',
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * What does not fit the window, as "what: scroll width/width" lines: the page when it is
 * wider than the window, and each labelled region (a ScrollBox: a list, a grid) that
 * scrolls sideways inside it; and, as "squashed …" lines, each checkbox or radio button
 * drawn narrower than its 13 px (a flex item that gave its width to a label of two
 * lines). Empty when everything fits.
 */
export function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const window = (globalThis as any).innerWidth as number;
    const root = doc.documentElement;
    const out: string[] = [];
    if (root.scrollWidth > window) out.push(`the page: ${root.scrollWidth}/${window}`);
    for (const region of doc.querySelectorAll('section[aria-label]')) {
      if (region.scrollWidth > region.clientWidth + 1) {
        const name = region.getAttribute('aria-label');
        out.push(`${name}: ${region.scrollWidth}/${region.clientWidth}`);
      }
    }
    for (const box of doc.querySelectorAll('input[type=checkbox], input[type=radio]')) {
      const { width } = box.getBoundingClientRect();
      if (width > 0 && width < 12) {
        const label = (box.labels?.[0]?.textContent ?? box.getAttribute('aria-label') ?? '').trim();
        out.push(`squashed ${box.type} "${label}": ${width.toFixed(1)} px`);
      }
    }
    return out;
  });
}

/**
 * Fields of a filter form that are not as tall as the others, as "label: height/tallest"
 * lines: side by side, their tops should line up as their bottoms do (Chromium draws a
 * select, a search field and a date field at three heights of their own).
 */
export function unevenFilters(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const form of (globalThis as any).document.querySelectorAll('form.filters')) {
      const fields = [
        ...form.querySelectorAll('select, input:not([type=checkbox]):not([type=radio])'),
      ].map((el: any) => ({
        label: (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? '').trim(),
        height: el.getBoundingClientRect().height as number,
      }));
      const tallest = Math.max(...fields.map((f) => f.height));
      for (const f of fields) {
        if (tallest - f.height > 0.5)
          out.push(`${f.label}: ${f.height.toFixed(1)}/${tallest.toFixed(1)}`);
      }
    }
    return out;
  });
}

/** Errors the pages reported; each test file asserts it stays empty. */
export const pageErrors: string[] = [];

/** Playwright's launch gives the browser a fresh temporary profile (--user-data-dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

export async function newPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', ...options });
  const page = await context.newPage();
  // Anything the page reports as an error (an exception, a CSP violation) is kept for
  // the file's last check (see pageErrors).
  page.on('pageerror', (err) => pageErrors.push(`exception: ${err.message}`));
  page.on('console', (msg) => {
    // A refused request logs "Failed to load resource" (the wrong-password test wants one).
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) {
      pageErrors.push(`console: ${msg.text()}`);
    }
  });
  return page;
}

/** Signs in through the form and waits for the header's navigation (any screen size). */
/**
 * After the page's pending work: a frame drawn, then one more task (Preact runs the
 * effects of a render after the frame that paints it, in a task of their own).
 */
export const settled = (page: Page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        const w = globalThis as any;
        w.requestAnimationFrame(() => w.setTimeout(resolve, 0));
      }),
  );

export async function signIn(page: Page, url: string, username: string, password: string) {
  await page.goto(url);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** axe-core's serious and critical violations of the page as it is (bypassCSP pages). */
export async function axeViolations(page: Page): Promise<string[]> {
  const axe = (await import('axe-core')).default;
  await page.addScriptTag({ content: axe.source });
  const result = await page.evaluate(async () => {
    const run = (globalThis as any).axe.run;
    const r = await run();
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3),
    }));
  });
  return result
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
}

/**
 * The world most browser tests start from: alice, a member of Ganeti Web Manager (gwm),
 * whose default activity is Development (dev).
 */
export async function aliceInGwm(server: TestServer): Promise<TestUser> {
  const alice = await createUser(server, { username: 'alice' });
  await createActivity(server, { slug: 'dev', name: 'Development' });
  await createProject(server, {
    name: 'Ganeti Web Manager',
    slugs: ['gwm'],
    default_activity: 'dev',
    users: { alice: { member: true } },
  });
  return alice;
}
