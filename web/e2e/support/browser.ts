import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { openBlankOrigin } from './app.ts';
import { SCREENSHOTS_DIR } from './paths.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface E2EBrowser {
  context: BrowserContext;
  /**
   * A new tab that records uncaught page errors and console errors. With `origin`, the origin's
   * storage is wiped first: all tabs of a persistent context share localStorage, and each test
   * starts signed out unless it signs in.
   */
  newPage(): Promise<Page>;
  /**
   * Console errors this test expects (for example Chromium's "Failed to load resource: ... 401"
   * for a deliberate failed request). A string matches a substring; the text checked includes the
   * URL the message came from. Uncaught page errors are never allowed.
   */
  allowConsoleErrors(...patterns: (RegExp | string)[]): void;
  /** The problems seen in this test so far (page errors, and console errors not allowed). */
  problems(): string[];
  /**
   * For afterEach: closes the test's tabs, clears cookies and the allow-list, and throws when the
   * test saw a page error or an unexpected console error, which fails the test.
   */
  finishTest(): Promise<void>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** The app's origin (`app.url`): each new page starts with its storage empty. */
  origin?: string;
}

const matches = (pattern: RegExp | string, text: string) =>
  typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);

function describeConsole(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  const where = url ? ` [${url}${lineNumber ? `:${lineNumber}` : ''}]` : '';
  return `console.error: ${message.text()}${where}`;
}

/** Headless Chromium (the system one) in a persistent context over an empty temp profile. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<E2EBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-e2e-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1366, height: 900 },
      // Exit animations end on an animationend event that Chakra's presence code can miss when a
      // loaded machine delays its listener past the animation's end; the element (an invisible
      // dialog backdrop, say) then stays and takes every click. With reduced motion nothing
      // animates (reduced-motion.css), as for a user who asks their system for that.
      reducedMotion: 'reduce',
    });
  } catch (error) {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }

  let pages: Page[] = [];
  let seen: string[] = [];
  let allowed: (RegExp | string)[] = [];

  const unexpected = () =>
    seen.filter((problem) => !problem.startsWith('console.error: ') || !allowed.some((p) => matches(p, problem)));

  return {
    context,
    async newPage() {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.setDefaultNavigationTimeout(30_000);
      page.on('pageerror', (error) => seen.push(`pageerror: ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') seen.push(describeConsole(message));
      });
      pages.push(page);
      if (options.origin) {
        await openBlankOrigin(page, options.origin);
        await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
      }
      return page;
    },
    allowConsoleErrors(...patterns) {
      allowed.push(...patterns);
    },
    problems: unexpected,
    async finishTest() {
      const problems = unexpected();
      await Promise.all(pages.map((page) => page.close()));
      await context.clearCookies();
      pages = [];
      seen = [];
      allowed = [];
      if (problems.length > 0) {
        throw new Error(`The page reported ${problems.length} unexpected error(s):\n${problems.join('\n')}`);
      }
    },
    async close() {
      try {
        await context.close();
      } finally {
        fs.rmSync(userDataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Saves a full-page screenshot as screenshots/<name>.png at the repository root. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  // A whole long page (the API docs) takes more than the 10 s default on a loaded machine.
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide', timeout: 60_000 });
  return file;
}
