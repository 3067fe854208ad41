/**
 * How the screens answer with a big game's data: `npm run bench -- web --heavy [options]`.
 *
 * Seeds the heavy account (scripts/seed/heavy.ts, `--scale`, default 0.1) into a fresh SQLite file,
 * serves it with the built web app (the seed's own process keeps its live servers pinging), and
 * drives Debian's Chromium through playwright-core, signed in as the account, on two presets:
 * desktop (1440 x 900) and mobile (390 x 844, touch, the CPU slowed 4x through the DevTools
 * protocol as Lighthouse's mobile preset does).
 *
 * - **Interactions** (Event Timing API, the entries with an interactionId, 16 ms and up: the
 *   browser reports nothing shorter, counted as 16): open each screen from the sidebar (through the
 *   menu on the phone), type in the Players search, open a player's record, filter the console by
 *   level and by text, open a run, switch the Admin Panel's tabs, save a script that has 20
 *   versions. Each action `--rounds` times (5); its latency is the longest interaction it caused.
 *   Printed: p50, p75 and max per action and for all; targets p75 <= 100 ms desktop, 200 ms mobile.
 * - **Scrolling**: Runs scrolled by the wheel to the 1,000th row (pages fetched as it goes); the
 *   long tasks (over 50 ms) seen meanwhile, against the target of none over 200 ms.
 * - **Memory** (`--console-minutes`, 10; 0 skips it): the Console screen open while a game server
 *   sends 200 lines a second; the JS heap after a forced garbage collection each minute, against
 *   the 150 MB target.
 *
 * - **axe** on every screen with the account's data on it (the rules of web/e2e/support/axe.ts):
 *   critical and serious findings, against none.
 * - **Lighthouse** 12.2.3 (bench/support/lighthouse.ts) on every screen, mobile and desktop presets,
 *   each a first visit signed in as the heavy account: performance, accessibility, best practices.
 *
 * `--presets=desktop` runs one preset; `--phases=interactions,scroll,axe,memory,lighthouse` some phases;
 * `--report-dir=DIR` keeps each Lighthouse report (what a score is made of: the LCP element, long tasks).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../web/e2e/support/chromium.ts';
import { seriousAxeProblems } from '../web/e2e/support/axe.ts';
import { fakeCatalogue } from '../server/test/fake-catalogue.ts';
import { serveHeavyAccount, type HeavySeed } from './support/heavy-seed.ts';
import { LIGHTHOUSE_SCREENS, lighthouseScreens, printScoreTable } from './support/lighthouse.ts';
import { benchServers, repoRoot } from './support/processes.ts';
import { fmt, percentile, positiveInteger } from './support/stats.ts';

const PRESETS = {
  desktop: { viewport: { width: 1440, height: 900 }, touch: false, cpuSlowdown: 1, targetP75: 100 },
  mobile: { viewport: { width: 390, height: 844 }, touch: true, cpuSlowdown: 4, targetP75: 200 },
};
type PresetName = keyof typeof PRESETS;
const PHASES = ['interactions', 'scroll', 'axe', 'memory', 'lighthouse'] as const;
const LONG_TASK_TARGET_MS = 200;
const HEAP_TARGET_MB = 150;
/** Interactions shorter than this are not reported by the Event Timing API. */
const EVENT_THRESHOLD_MS = 16;
const CONSOLE_LINES_PER_SECOND = 200;

/** The screens opened from the sidebar, with the heading that says each is there. */
const SCREENS: { link: string; heading: string | RegExp; ready?: string }[] = [
  { link: 'Dashboard', heading: 'Dashboard' },
  { link: 'My Scripts', heading: /^My Scripts/, ready: '[data-testid="script-row"], [data-testid="script-card"]' },
  { link: 'Runs', heading: 'Runs', ready: '[data-testid="run-row"]' },
  { link: 'Console', heading: 'Console', ready: '[data-testid="console-line"]' },
  { link: 'Players', heading: 'Players', ready: '[data-testid="player-row"]' },
  { link: 'API Docs', heading: 'API Documentation', ready: '[data-testid="endpoint-card"]' },
  { link: 'Settings', heading: 'Settings' },
  { link: 'Admin Panel', heading: 'Admin Panel', ready: 'tbody tr' },
  { link: 'Script Editor', heading: 'Script Editor', ready: '.ace_line' },
];
const ADMIN_TABS = ['Users', 'Connections', 'Recent Executions', 'Audit Logs'];

/** Collects Event Timing entries and long tasks from the page's start (an init script). */
const OBSERVE = `(() => {
  const perf = (window.__benchPerf = { events: [], longTasks: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId) perf.events.push({ id: e.interactionId, name: e.name, start: e.startTime, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: ${EVENT_THRESHOLD_MS}, buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) perf.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
})();`;

interface PerfLog {
  events: { id: number; name: string; start: number; duration: number }[];
  longTasks: { start: number; duration: number }[];
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      heavy: { type: 'boolean', default: true },
      scale: { type: 'string', default: '0.1' },
      rounds: { type: 'string', default: '5' },
      presets: { type: 'string', default: 'desktop,mobile' },
      phases: { type: 'string', default: PHASES.join(',') },
      'console-minutes': { type: 'string', default: '10' },
      'report-dir': { type: 'string' },
    },
  });
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 10)) throw new Error('--scale: a number above 0, 10 at most');
  const rounds = positiveInteger('--rounds', values.rounds);
  const consoleMinutes = Number(values['console-minutes']);
  if (!(consoleMinutes >= 0 && consoleMinutes <= 60)) throw new Error('--console-minutes: 0 to 60');
  const presets = listOption('--presets', values.presets, Object.keys(PRESETS)) as PresetName[];
  const phases = listOption('--phases', values.phases, [...PHASES]);

  execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const servers = benchServers();
  // The catalogue screen reads a local stand-in for ScriptBlox (no internet here, and a failed
  // catalogue call would be a console error Lighthouse counts against best practices).
  const catalogue = fakeCatalogue({ localImages: true });
  servers.closers.push(() => catalogue.stop());
  let browser: Browser | undefined;
  const results: Record<string, unknown> = { bench: 'web-heavy', scale, rounds };
  try {
    const catalogueUrl = await catalogue.start();
    const folder = await servers.tempFolder();
    console.log(`Seeding the heavy account at scale ${scale} (SQLite)`);
    const seeded = await serveHeavyAccount(servers, {
      label: 'SQLite',
      database: path.join(folder, 'heavy.db'),
      dataDir: folder,
      scale,
      env: { SCRIPTBLOX_API_URL: `${catalogueUrl}/api`, SCRIPTBLOX_SITE_URL: catalogueUrl },
    });
    console.log(`Seeded in ${seeded.seconds} s ${JSON.stringify(seeded.counts)}`);
    const user = await (await fetch(`${seeded.base}/api/user`, auth(seeded))).json();
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      // Playwright gives the browser an empty profile of its own.
      args: CHROMIUM_ARGS,
    });
    for (const preset of presets) {
      const page = await openSignedIn(browser, preset, seeded, user);
      const out: Record<string, unknown> = {};
      if (phases.includes('interactions')) out.interactions = await interactions(page, preset, seeded, rounds);
      if (phases.includes('scroll')) out.scroll = await scrollRuns(page, preset);
      if (phases.includes('axe')) out.axe = await axeEveryScreen(page, preset);
      if (phases.includes('memory') && consoleMinutes > 0 && preset === presets[0]) {
        out.memory = await consoleMemory(page, seeded, consoleMinutes);
      }
      results[preset] = out;
      await page.context().close();
    }
    if (phases.includes('lighthouse')) {
      // First loads, each a first visit, with the heavy account's data on every screen.
      await browser.close();
      browser = undefined;
      console.log('\nLighthouse 12.2.3 on every screen, heavy account');
      const reportDir = values['report-dir'] && path.resolve(values['report-dir']);
      if (reportDir) fs.mkdirSync(reportDir, { recursive: true });
      const scores = await lighthouseScreens(
        seeded.base,
        LIGHTHOUSE_SCREENS,
        { token: seeded.token, user },
        reportDir,
        presets,
      );
      printScoreTable(scores);
      results.lighthouse = scores;
    }
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await browser?.close();
    await servers.close();
  }
  console.log(`RESULT ${JSON.stringify(results)}`);
}

function listOption(name: string, value: string, allowed: string[]): string[] {
  const list = value.split(',').filter(Boolean);
  const unknown = list.filter((item) => !allowed.includes(item));
  if (unknown.length || list.length === 0) throw new Error(`${name}: a list of ${allowed.join(', ')}`);
  return list;
}

const auth = (seeded: HeavySeed) => ({ headers: { authorization: `Bearer ${seeded.token}` } });

/** A page of its own context at the preset's size and speed, signed in as the heavy account. */
async function openSignedIn(browser: Browser, preset: PresetName, seeded: HeavySeed & { base: string }, user: unknown) {
  const { viewport, touch, cpuSlowdown } = PRESETS[preset];
  const context = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
  await context.addInitScript(OBSERVE);
  const page = await context.newPage();
  await page.goto(`${seeded.base}/`);
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: seeded.token, user },
  );
  if (cpuSlowdown > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  }
  await page.goto(`${seeded.base}/dashboard`);
  await heading(page, 'Dashboard').waitFor();
  return page;
}

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page, name: string | RegExp) =>
  main(page).getByRole('heading', { level: 1, name, exact: typeof name === 'string' });

/** Lets the browser paint and report what the last input cost. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 100))),
      ),
  );
}

const perfLog = (page: Page) => page.evaluate(() => (window as unknown as { __benchPerf: PerfLog }).__benchPerf);
const now = (page: Page) => page.evaluate(() => performance.now());

/** Runs an action and answers the longest interaction it caused (16 ms when none was reported). */
async function timed(page: Page, action: () => Promise<void>): Promise<number> {
  const from = await now(page);
  await action();
  await settle(page);
  const events = (await perfLog(page)).events.filter((event) => event.start >= from);
  return Math.max(EVENT_THRESHOLD_MS, ...events.map((event) => event.duration));
}

/** Goes to a screen through the sidebar (the menu on a phone) and waits for its heading. */
async function openFromSidebar(page: Page, preset: PresetName, screen: (typeof SCREENS)[number]) {
  try {
    if (PRESETS[preset].touch) await page.getByRole('button', { name: 'Open menu', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: screen.link, exact: true })
      .last()
      .click();
    await heading(page, screen.heading).waitFor();
  } catch (error) {
    throw new Error(`opening ${screen.link} from the sidebar (${preset}): ${(error as Error).message}`);
  }
}

async function interactions(page: Page, preset: PresetName, seeded: HeavySeed & { base: string }, rounds: number) {
  const samples = new Map<string, number[]>();
  const record = (name: string, ms: number) => samples.set(name, [...(samples.get(name) ?? []), ms]);
  for (let round = 0; round < rounds; round++) {
    for (const screen of SCREENS) {
      record(`open ${screen.link}`, await timed(page, () => openFromSidebar(page, preset, screen)));
    }
    // The Players search, a key at a time, then a player's record.
    await openFromSidebar(
      page,
      preset,
      SCREENS.find((s) => s.link === 'Players')!,
    );
    const search = main(page).getByRole('searchbox', { name: 'Search by name, display name or user id' });
    await search.click();
    for (const key of 'Player1') record('type in Players search', await timed(page, () => page.keyboard.press(key)));
    await search.fill('');
    const firstPlayer = main(page)
      .getByRole('button', { name: /^Open / })
      .first();
    await firstPlayer.waitFor();
    record('open a player record', await timed(page, () => firstPlayer.click().then(() => dialogShown(page))));
    await page.keyboard.press('Escape');
    // The console by level, then by text.
    await openFromSidebar(
      page,
      preset,
      SCREENS.find((s) => s.link === 'Console')!,
    );
    for (const level of ['Error', 'Error']) {
      record(
        'filter console by level',
        await timed(page, () => main(page).getByRole('button', { name: level, exact: true }).click()),
      );
    }
    const consoleSearch = main(page).getByRole('searchbox', { name: 'Search' });
    await consoleSearch.click();
    for (const key of 'Data') record('filter console by text', await timed(page, () => page.keyboard.press(key)));
    await consoleSearch.fill('');
    // A run's detail.
    await openFromSidebar(
      page,
      preset,
      SCREENS.find((s) => s.link === 'Runs')!,
    );
    const run = main(page).locator('[data-testid="run-row"]').first();
    await run.waitFor();
    record('open a run', await timed(page, () => run.click().then(() => page.getByTestId('run-detail').waitFor())));
    await page.keyboard.press('Escape');
    // The Admin Panel's tabs.
    await openFromSidebar(
      page,
      preset,
      SCREENS.find((s) => s.link === 'Admin Panel')!,
    );
    for (const name of ADMIN_TABS) {
      const tab = main(page).getByRole('tab', { name: new RegExp(`^${name}`) });
      record('switch Admin tab', await timed(page, () => tab.click()));
    }
    // Saving a script that has 20 versions (one more each round).
    await page.goto(`${seeded.base}/editor?id=${seeded.scriptId}`);
    const editor = page.getByTestId('code-editor');
    await editor.locator('.ace_line').first().waitFor();
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type(` -- round ${round}`);
    const dialog = page.getByRole('dialog', { name: 'Save Script Configuration', exact: true });
    record(
      'open the save dialog (Ctrl+S)',
      await timed(page, () => page.keyboard.press('Control+s').then(() => dialog.waitFor())),
    );
    // A manual script saves with Save Script; one that runs on join keeps its games.
    const confirm = dialog.getByRole('button', { name: /^(Save Script|Keep Current Games)$/ }).first();
    const saved = page.waitForResponse(
      (r) => r.url().includes(`/api/scripts/${seeded.scriptId}`) && r.request().method() === 'PUT',
    );
    record('save a script with 20 versions', await timed(page, () => confirm.click()));
    await saved;
    await dialog.waitFor({ state: 'hidden' });
  }
  const rows = [...samples].map(([name, list]) => summary(name, list));
  const all = summary('all interactions', [...samples.values()].flat());
  const target = PRESETS[preset].targetP75;
  console.log(`\n${preset}: interaction to next paint (ms), ${rounds} rounds, target p75 <= ${target}`);
  printTable(
    ['action', 'n', 'p50', 'p75', 'max'],
    [...rows, all].map((r) => [r.name, String(r.n), fmt(r.p50, 0), fmt(r.p75, 0), fmt(r.max, 0)]),
  );
  const over = rows.filter((r) => r.p75 > target);
  console.log(
    over.length
      ? `Past the target: ${over.map((r) => `${r.name} (${fmt(r.p75, 0)} ms)`).join(', ')}`
      : 'Every action within the target',
  );
  return { rows, all, target };
}

async function dialogShown(page: Page) {
  await page.getByRole('dialog').first().waitFor();
}

function summary(name: string, list: number[]) {
  return { name, n: list.length, p50: percentile(list, 0.5), p75: percentile(list, 0.75), max: Math.max(...list) };
}

function printTable(head: string[], rows: string[][]) {
  const table = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  for (const row of table)
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

/** Wheel-scrolls Runs until its 1,000th row is drawn; answers the long tasks seen meanwhile. */
async function scrollRuns(page: Page, preset: PresetName) {
  await openFromSidebar(
    page,
    preset,
    SCREENS.find((s) => s.link === 'Runs')!,
  );
  const rows = main(page).locator('[data-testid="run-row"]');
  await rows.first().waitFor();
  await rows.first().hover();
  const from = await now(page);
  const started = Date.now();
  let wheels = 0;
  // The furthest row drawn (its aria-rowindex counts the header row as the first).
  const furthest = () =>
    rows.evaluateAll((list) => Math.max(0, ...list.map((row) => Number(row.getAttribute('aria-rowindex')))));
  while ((await furthest()) < 1001) {
    if (Date.now() - started > 120_000) {
      throw new Error(`Runs did not reach its 1,000th row in 2 minutes (row ${(await furthest()) - 1} drawn last)`);
    }
    await page.mouse.wheel(0, 1200);
    wheels += 1;
    if (wheels % 10 === 0) await settle(page);
  }
  await settle(page);
  const seconds = (Date.now() - started) / 1000;
  const tasks = (await perfLog(page)).longTasks.filter((task) => task.start >= from).map((task) => task.duration);
  const longest = tasks.length ? Math.max(...tasks) : 0;
  console.log(
    `\n${preset}: Runs scrolled to row 1,000 in ${fmt(seconds, 1)} s (${wheels} wheel turns): ${tasks.length} long tasks, ` +
      `longest ${fmt(longest, 0)} ms, p50 ${tasks.length ? fmt(percentile(tasks, 0.5), 0) : '-'} ms ` +
      `(target: none over ${LONG_TASK_TARGET_MS} ms) ${longest > LONG_TASK_TARGET_MS ? 'MISSED' : 'met'}`,
  );
  return { seconds, wheels, longTasks: tasks.length, longestMs: longest };
}

/** axe-core on every screen once its data is in (its first row, where it lists something). */
async function axeEveryScreen(page: Page, preset: PresetName) {
  const found: Record<string, string[]> = {};
  for (const screen of SCREENS) {
    await openFromSidebar(page, preset, screen);
    if (screen.ready) {
      await main(page)
        .locator(screen.ready)
        .first()
        .waitFor()
        .catch((error: Error) => {
          throw new Error(`${screen.link} showed no ${screen.ready} (${preset}): ${error.message}`);
        });
    }
    found[screen.link] = await seriousAxeProblems(page);
  }
  const failing = Object.entries(found).filter(([, problems]) => problems.length > 0);
  console.log(
    `\n${preset}: axe on ${SCREENS.length} screens with the heavy account's data: ` +
      (failing.length
        ? failing.map(([name, problems]) => `${name}: ${problems.join('; ')}`).join(' | ')
        : 'no serious finding'),
  );
  return found;
}

/** The Console open while a game server sends 200 lines a second: the JS heap each minute. */
async function consoleMemory(page: Page, seeded: HeavySeed & { base: string }, minutes: number) {
  await openFromSidebar(
    page,
    'desktop',
    SCREENS.find((s) => s.link === 'Console')!,
  );
  const cdp = await page.context().newCDPSession(page);
  const heapMb = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1024 / 1024;
  };
  const samples: number[] = [await heapMb()];
  console.log(
    `\nConsole with ${CONSOLE_LINES_PER_SECOND} lines a second for ${minutes} min: heap ${fmt(samples[0]!, 1)} MB at start`,
  );
  const feed = feedConsole(seeded);
  try {
    for (let minute = 1; minute <= minutes; minute++) {
      await page.waitForTimeout(60_000);
      samples.push(await heapMb());
      console.log(`  minute ${minute}: heap ${fmt(samples.at(-1)!, 1)} MB, ${feed.sent()} lines sent`);
    }
  } finally {
    await feed.stop();
  }
  const peak = Math.max(...samples);
  console.log(
    `Heap peak ${fmt(peak, 1)} MB (target under ${HEAP_TARGET_MB} MB) ${peak < HEAP_TARGET_MB ? 'met' : 'MISSED'}`,
  );
  return { minutes, heapMb: samples, peakMb: peak, linesSent: feed.sent() };
}

/** A game server of the account that pings twice a second with 100 console lines each time. */
function feedConsole(seeded: HeavySeed & { base: string }) {
  let stopped = false;
  let sent = 0;
  const perPing = CONSOLE_LINES_PER_SECOND / 2;
  const loop = (async () => {
    while (!stopped) {
      const at = Date.now();
      const lines = Array.from({ length: perPing }, (_, i) => ({
        time: at,
        level: (sent + i) % 100 === 99 ? 'error' : 'output',
        text: `[Rounds] line ${sent + i}: Red team scored, time left 01:42`,
      }));
      const response = await fetch(`${seeded.base}/api/game/ping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: seeded.apiKey, serverId: 'bench-console-feed', console: { lines } }),
      });
      await response.arrayBuffer();
      if (response.status === 200) sent += perPing;
      const wait = 500 - (Date.now() - at);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  return {
    sent: () => sent,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
