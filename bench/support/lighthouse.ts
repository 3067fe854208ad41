/**
 * Lighthouse over Moonrelay's screens, for `npm run bench -- web`.
 *
 * Lighthouse 12.2.3 is pinned (later versions want Node 22) and drives the system Chromium
 * (CHROME_PATH, /usr/bin/chromium by default) started by chrome-launcher with
 * `--headless --no-sandbox --disable-gpu`. Signed-in screens need a session: the account's token
 * and user go into the origin's localStorage, as the app stores them after signing in, and
 * Lighthouse is told to keep storage between its runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium } from 'playwright-core';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];

export const PRESETS = ['mobile', 'desktop'] as const;
export type Preset = (typeof PRESETS)[number];

export interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
}

/** Every screen Lighthouse checks; the account measured is an admin, so the admin panel is one. */
export const LIGHTHOUSE_SCREENS: Screen[] = [
  { name: 'sign-in', path: '/', signedIn: false },
  { name: 'dashboard', path: '/dashboard', signedIn: true },
  { name: 'editor', path: '/editor', signedIn: true },
  { name: 'scripts', path: '/scripts', signedIn: true },
  { name: 'runs', path: '/runs', signedIn: true },
  { name: 'console', path: '/console', signedIn: true },
  { name: 'players', path: '/players', signedIn: true },
  { name: 'catalogue', path: '/scriptblox', signedIn: true },
  { name: 'api-docs', path: '/api-docs', signedIn: true },
  { name: 'analytics', path: '/analytics', signedIn: true },
  { name: 'team', path: '/team', signedIn: true },
  { name: 'settings', path: '/settings', signedIn: true },
  { name: 'admin', path: '/admin', signedIn: true },
];

export interface Session {
  token: string;
  user: unknown;
}

export interface ScreenScores {
  screen: string;
  preset: Preset;
  /** 0-100 per category; null when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** The audits that kept accessibility or best practices under 100, by id. */
  failing: string[];
  /** The performance score's inputs (milliseconds, CLS unitless), so a change shows which one it moved. */
  metrics: Record<Metric, number | null>;
}

/** The metrics Lighthouse 12 weighs into the performance score. */
export const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;
type Metric = keyof typeof METRICS;

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu'];

/**
 * Empties the browser's HTTP cache and puts (or removes) the session in the origin's localStorage,
 * through the running Chromium. Lighthouse keeps storage and cache here (the session must survive
 * its start), so without the emptying each screen would be measured with what the screens before
 * it had fetched: every run is a first visit instead, whatever the order.
 */
async function prepareVisit(port: number, origin: string, session: Session | null): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    // A path the server answers with the app's index.html: storage belongs to the origin.
    await page.route(`${origin}/__bench__/blank`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>blank</title>' }),
    );
    await page.goto(`${origin}/__bench__/blank`);
    await page.evaluate((value) => {
      localStorage.clear();
      if (value) {
        localStorage.setItem('token', value.token);
        localStorage.setItem('user', JSON.stringify(value.user));
      }
    }, session);
    await page.close();
  } finally {
    // Disconnects Playwright only; the browser stays up for Lighthouse.
    await browser.close();
  }
}

/**
 * Errors Lighthouse itself says to run again for (its trace missed the page's start on a busy
 * machine): such a run is made once more before the benchmark gives up.
 */
const RUN_AGAIN = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED']);

/** One first visit of one screen under one preset, once more if Lighthouse asks for it. */
async function measureOnce(port: number, origin: string, screen: Screen, session: Session | null, preset: Preset) {
  for (let attempt = 1; ; attempt++) {
    await prepareVisit(port, origin, session);
    const runnerResult = await lighthouse(
      origin + screen.path,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        // The session seeded above must survive Lighthouse's own start.
        disableStorageReset: true,
      },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!runnerResult) throw new Error(`Lighthouse gave no result for ${screen.path}`);
    const code = runnerResult.lhr.runtimeError?.code;
    if (attempt === 1 && code && RUN_AGAIN.has(code)) {
      console.log(`  lighthouse ${preset} ${screen.name}: ${code}, run again`);
      continue;
    }
    return runnerResult.lhr;
  }
}

/** Runs Lighthouse on each screen with the mobile and the desktop preset. */
export async function lighthouseScreens(
  origin: string,
  screens: Screen[],
  session: Session,
  reportDir?: string,
  presets: readonly Preset[] = PRESETS,
): Promise<ScreenScores[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  const results: ScreenScores[] = [];
  try {
    for (const screen of screens) {
      for (const preset of presets) {
        const lhr = await measureOnce(chrome.port, origin, screen, screen.signedIn ? session : null, preset);
        // The whole report, for finding what a score is made of (the LCP element, long tasks, requests).
        if (reportDir)
          fs.writeFileSync(path.join(reportDir, `${screen.name}-${preset}.json`), JSON.stringify(lhr, null, 1));
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${screen.path}: ${lhr.runtimeError.message}`);
        const score = (category: Category) => {
          const value = lhr.categories[category]?.score;
          return value === null || value === undefined ? null : Math.round(value * 100);
        };
        const failing = (['accessibility', 'best-practices'] as const).flatMap((category) =>
          (lhr.categories[category]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => ref.id),
        );
        const metrics = Object.fromEntries(
          Object.entries(METRICS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? null]),
        ) as Record<Metric, number | null>;
        results.push({
          screen: screen.name,
          preset,
          scores: {
            performance: score('performance'),
            accessibility: score('accessibility'),
            'best-practices': score('best-practices'),
          },
          failing,
          metrics,
        });
        console.log(
          `  lighthouse ${preset.padEnd(7)} ${screen.name.padEnd(12)} ${CATEGORIES.map((c) => score(c) ?? '-').join(' / ')}  ${formatMetrics(metrics)}${failing.length ? `  (${failing.join(', ')})` : ''}`,
        );
      }
    }
  } finally {
    chrome.kill();
  }
  return results;
}

function formatMetrics(metrics: Record<Metric, number | null>): string {
  const value = (key: Metric) => {
    const number = metrics[key];
    if (number === null) return '-';
    return key === 'cls' ? number.toFixed(3) : `${Math.round(number)} ms`;
  };
  return (Object.keys(METRICS) as Metric[]).map((key) => `${key} ${value(key)}`).join(', ');
}

/** The table: one row per screen, performance / accessibility / best practices per preset. */
export function printScoreTable(results: ScreenScores[]): void {
  const screens = [...new Set(results.map((result) => result.screen))];
  const cell = (screen: string, preset: Preset) => {
    const found = results.find((result) => result.screen === screen && result.preset === preset);
    return found
      ? CATEGORIES.map((category) => String(found.scores[category] ?? '-').padStart(3)).join(' ')
      : '  -   -   -';
  };
  console.log('');
  console.log('Lighthouse 12.2.3 (performance, accessibility, best practices)');
  console.log(`${'screen'.padEnd(12)}  ${'mobile'.padEnd(11)}   ${'desktop'.padEnd(11)}`);
  for (const screen of screens)
    console.log(`${screen.padEnd(12)}  ${cell(screen, 'mobile')}   ${cell(screen, 'desktop')}`);
}
