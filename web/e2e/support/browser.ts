import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { openBlankOrigin } from './app.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { SCREENSHOTS_DIR } from './paths.ts';

export interface E2EBrowser {
  /** This test's context: a new one for every test (cookies, storage and permissions its own). */
  readonly context: BrowserContext;
  /**
   * A new tab that records uncaught page errors and console errors. With `origin`, the tab opens
   * on the origin with its storage wiped: it starts signed out unless the test signs in.
   */
  newPage(): Promise<Page>;
  /**
   * A tab in a context of its own, as another person at another computer: its own storage and
   * cookies, so it starts signed out and signing in there leaves the test's other tabs as they
   * are. Its errors are recorded like `newPage`'s, and it closes with the test.
   */
  newPersonPage(): Promise<Page>;
  /**
   * Console errors this test expects (for example Chromium's "Failed to load resource: ... 401"
   * for a deliberate failed request). A string matches a substring; the text checked includes the
   * URL the message came from. Uncaught page errors are never allowed.
   */
  allowConsoleErrors(...patterns: (RegExp | string)[]): void;
  /** The problems seen in this test so far (page errors, and console errors not allowed). */
  problems(): string[];
  /**
   * For afterEach: closes the test's context with its tabs, opens the next test's, clears the
   * allow-list, and throws when the test saw a page error or an unexpected console error, which
   * fails the test.
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

/**
 * The run's shared Chromium (started by chromium-server.ts, the browser project's global setup),
 * or, outside that project, a Chromium of this file's own over an empty temporary profile.
 */
async function connectChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A context in headless Chromium (the system one), and a fresh one for every test. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<E2EBrowser> {
  const browser = await connectChromium();
  const newContext = () =>
    browser.newContext({
      viewport: { width: 1366, height: 900 },
      // Exit animations end on an animationend event that Chakra's presence code can miss when a
      // loaded machine delays its listener past the animation's end; the element (an invisible
      // dialog backdrop, say) then stays and takes every click. With reduced motion nothing
      // animates (reduced-motion.css), as for a user who asks their system for that.
      reducedMotion: 'reduce',
    });
  let context: BrowserContext;
  try {
    context = await newContext();
  } catch (error) {
    await browser.close();
    throw error;
  }

  let seen: string[] = [];
  let allowed: (RegExp | string)[] = [];
  /** The contexts of `newPersonPage`, closed at the end of the test. */
  let others: BrowserContext[] = [];

  /** A tab of `owner` that records uncaught page errors and console errors. */
  const watchedPage = async (owner: BrowserContext) => {
    const page = await owner.newPage();
    page.setDefaultTimeout(10_000);
    page.setDefaultNavigationTimeout(30_000);
    page.on('pageerror', (error) => seen.push(`pageerror: ${error.stack ?? error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') seen.push(describeConsole(message));
    });
    return page;
  };

  const unexpected = () =>
    seen.filter((problem) => !problem.startsWith('console.error: ') || !allowed.some((p) => matches(p, problem)));

  return {
    get context() {
      return context;
    },
    async newPage() {
      const page = await watchedPage(context);
      if (options.origin) {
        // Every new tab starts signed out, a test's second tab included (a context's tabs share
        // their origin's storage).
        await openBlankOrigin(page, options.origin);
        await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
      }
      return page;
    },
    async newPersonPage() {
      const own = await newContext();
      others.push(own);
      return watchedPage(own);
    },
    allowConsoleErrors(...patterns) {
      allowed.push(...patterns);
    },
    problems: unexpected,
    async finishTest() {
      const problems = unexpected();
      await Promise.all(others.map((other) => other.close()));
      others = [];
      await context.close();
      context = await newContext();
      seen = [];
      allowed = [];
      if (problems.length > 0) {
        throw new Error(`The page reported ${problems.length} unexpected error(s):\n${problems.join('\n')}`);
      }
    },
    async close() {
      try {
        await Promise.all(others.map((other) => other.close()));
        await context.close();
      } finally {
        // Disconnects from the shared Chromium (or ends this file's own).
        await browser.close();
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
