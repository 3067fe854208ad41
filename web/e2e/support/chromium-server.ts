import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the run's one Chromium: each spec file connects and opens contexts. */
    chromiumEndpoint: string;
  }
}

/**
 * The browser project's global setup: one headless Chromium for the whole run, shared by every
 * spec file in every worker. Starting Chromium costs a second or more on a loaded two-core machine;
 * a context (what each test gets) costs tens of milliseconds and shares nothing with another:
 * cookies, storage and permissions are its own. Playwright gives the server an empty temporary
 * profile, removed when it closes.
 */
export default async function startChromiumServer(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
