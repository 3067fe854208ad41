import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createUser, startApp, type E2EApp, type TestUser } from './app.ts';
import { launchBrowser, type E2EBrowser } from './browser.ts';
import { ensureWebBuilt } from './build.ts';

export interface BrowserSuite {
  app: E2EApp;
  browser: E2EBrowser;
  /** The server's first account, so its admin; every user a test creates after it is ordinary. */
  firstAccount: TestUser;
}

/**
 * One server and one Chromium for a spec file: the current web build, a fresh database, the first
 * (admin) account registered up front, and after each test the page checks of `finishTest`.
 * The returned object is filled in by `beforeAll`; read its fields inside tests.
 */
/** `env` gives extra server settings, read when the suite starts (after any stand-in servers are up). */
export function browserSuite(env: () => Promise<Record<string, string>> = async () => ({})): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    await ensureWebBuilt();
    suite.app = await startApp(await env());
    suite.firstAccount = await createUser(suite.app, { name: 'First Admin' });
    expect(suite.firstAccount.user.isAdmin).toBe(true);
    suite.browser = await launchBrowser({ origin: suite.app.url });
  });
  afterEach(async () => {
    await suite.browser?.finishTest();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.app?.close();
  });
  return suite;
}
