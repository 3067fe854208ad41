import { describe, expect, it } from 'vitest';
import { expectSignInScreen } from './support/ui.ts';
import { screenshot } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

/**
 * Start-up runs in stages (web/src/start-app.ts, decision 042): React, Chakra's design system, then
 * the app, each a chunk of its own that index.html preloads.
 */
const suite = browserSuite();

describe('start-up', () => {
  it("index.html preloads each stage's chunk, so no stage waits for the one before to ask", async () => {
    const html = await (await fetch(suite.app.url + '/')).text();
    const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
    for (const stage of ['/assets/client-', '/assets/ui-system-', '/assets/App-'])
      expect(
        preloaded.some((href) => href.startsWith(stage)),
        `${stage}… is preloaded`,
      ).toBe(true);
    // The lazy screens are not: a signed-out visitor never needs them.
    expect(preloaded.some((href) => /\/(SignedInApp|DashboardPage|EditorPage)-/.test(href))).toBe(false);
  });

  it('says so, with a way to reload, when a part of the app does not download', async () => {
    const page = await suite.browser.newPage();
    // The request's failure and the error start-up logs about it.
    suite.browser.allowConsoleErrors('Failed to load resource', 'Failed to fetch dynamically imported module');
    await page.route('**/assets/ui-system-*.js', (route) => route.abort('connectionfailed'));
    await page.goto(suite.app.url + '/');
    const alert = page.getByRole('alert');
    await alert.getByText('Moonrelay could not load. Check your connection and reload the page.').waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'phone-start-failure');

    // The connection is back: Reload, by keyboard, starts the app.
    await page.unroute('**/assets/ui-system-*.js');
    await page.keyboard.press('Tab');
    const reload = alert.getByRole('button', { name: 'Reload' });
    expect(await reload.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expectSignInScreen(page);
  });
});
