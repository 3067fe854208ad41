import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ConsoleBatch, ConsoleLineIn } from '@moonrelay/contract/console';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, mainArea } from './support/ui.ts';

const suite = browserSuite();

const SERVER = 'e2e-console-server';
const EMPTY = "No console output yet. Lines your game's scripts print appear here as they happen.";

/** One ping of a game server over real HTTP, carrying what its scripts logged since the last one. */
async function ping(user: TestUser, console: { lines: Partial<ConsoleLineIn>[]; dropped?: number }) {
  const batch: ConsoleBatch = {
    lines: console.lines.map((line) => ({ time: Date.now(), level: 'output', text: '', ...line })),
    ...(console.dropped ? { dropped: console.dropped } : {}),
  };
  const response = await fetch(`${suite.app.url}/api/game/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      key: user.user.apiKey,
      serverId: SERVER,
      playerData: { playerName: 'builderman', gameId: 4242, health: 100, maxHealth: 100 },
      console: batch,
    }),
  });
  expect(response.status).toBe(200);
}

const log = (scope: Locator) => scope.getByRole('log', { name: 'Console lines' });
const lineTexts = (scope: Locator) => log(scope).getByTestId('console-line-text').allTextContents();
const lastTexts = async (scope: Locator, count: number) => (await lineTexts(scope)).slice(-count);

/** No sideways scrolling inside `scope` itself (its own content fits its width). */
const fitsItsWidth = (scope: Locator) => scope.evaluate((element) => element.scrollWidth <= element.clientWidth);

async function openConsole(page: Page, user: TestUser) {
  await signInAs(page, suite.app, user, '/console');
  await expectSignedIn(page, user.name);
  await expectVisible(mainArea(page).getByRole('heading', { name: 'Console', exact: true }));
}

describe('the live game console', () => {
  it("shows a game's lines live as it pings them, and filters, searches and pauses them", async () => {
    const user = await createUser(suite.app);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openConsole(page, user);
    const main = mainArea(page);
    await expectVisible(log(main).getByText(EMPTY));

    // print, warn and an uncaught error (with its stack), as the integration script sends them.
    await ping(user, {
      lines: [
        { level: 'output', text: 'Server started' },
        { level: 'warning', text: 'Low memory' },
        {
          level: 'error',
          text: 'ServerScriptService.Arena:8: attempt to index nil with "Humanoid"',
          stack: 'ServerScriptService.Arena:8 function spawnBoss\nServerScriptService.Arena:20',
          script: 'ServerScriptService.Arena',
        },
        { level: 'output', text: '<img src=x onerror=alert(1)>' },
      ],
    });
    await expect
      .poll(() => lineTexts(main), { timeout: 10_000 })
      .toEqual([
        'Server started',
        'Low memory',
        'ServerScriptService.Arena:8: attempt to index nil with "Humanoid"',
        '<img src=x onerror=alert(1)>',
      ]);
    // Text, never HTML.
    expect(await log(main).locator('img').count()).toBe(0);
    const error = log(main).getByTestId('console-line').filter({ hasText: 'attempt to index nil' });
    await error.getByRole('button', { name: 'Stack' }).click();
    await expectVisible(error.getByTestId('console-line-stack').getByText(/function spawnBoss/));
    await screenshot(page, 'console-live-1440');

    // Level filter: output off, and the server is asked again; new output lines stay out.
    const output = main.getByRole('button', { name: 'Output', exact: true });
    await output.click();
    await expect
      .poll(() => lineTexts(main))
      .toEqual(['Low memory', 'ServerScriptService.Arena:8: attempt to index nil with "Humanoid"']);
    await ping(user, { lines: [{ text: 'tick' }, { level: 'error', text: 'Arena failed again' }] });
    await expect.poll(() => lastTexts(main, 1)).toEqual(['Arena failed again']);
    expect(await lineTexts(main)).not.toContain('tick');
    await output.click();
    await expect.poll(() => lineTexts(main)).toContain('tick');

    // Search: what came before from the server, then matching live lines appended.
    await main.getByRole('searchbox', { name: 'Search' }).fill('arena');
    await expect
      .poll(() => lineTexts(main))
      .toEqual(['ServerScriptService.Arena:8: attempt to index nil with "Humanoid"', 'Arena failed again']);
    await ping(user, { lines: [{ text: 'Player joined' }, { text: 'Arena opened' }] });
    await expect.poll(() => lastTexts(main, 1)).toEqual(['Arena opened']);
    expect(await lineTexts(main)).not.toContain('Player joined');
    await main.getByRole('searchbox', { name: 'Search' }).fill('');
    await expect.poll(() => lineTexts(main)).toContain('Player joined');

    // Pause: new lines wait behind a marker; a click on it shows them.
    await main.getByRole('button', { name: 'Pause', exact: true }).click();
    await ping(user, { lines: [{ text: 'while paused 1' }, { text: 'while paused 2' }] });
    const marker = main.getByRole('button', { name: '2 new lines', exact: true });
    await expectVisible(marker);
    expect(await lineTexts(main)).not.toContain('while paused 1');
    await screenshot(page, 'console-paused-1440');
    await marker.click();
    await expect.poll(() => lastTexts(main, 2)).toEqual(['while paused 1', 'while paused 2']);
    await expectVisible(main.getByRole('button', { name: 'Pause', exact: true }));

    // A game that logged faster than it could send says how many lines it dropped.
    await ping(user, { lines: [{ text: 'after the flood' }], dropped: 37 });
    await expectVisible(log(main).getByText('37 lines dropped by e2e-cons…'));
    await expect.poll(() => lastTexts(main, 1)).toEqual(['after the flood']);

    // By keyboard: the controls and the log itself take the focus, in order.
    await main.getByRole('combobox', { name: 'Server' }).focus();
    const focused: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      focused.push(
        await page.evaluate(() => {
          const element = document.activeElement;
          if (!element) return '';
          return (
            element.getAttribute('aria-label') || element.textContent?.trim() || element.getAttribute('type') || ''
          );
        }),
      );
    }
    expect(focused.slice(0, 7)).toEqual(['search', 'Output', 'Info', 'Warning', 'Error', 'Pause', 'Console lines']);

    // A phone: the console fits the width, the log scrolls inside itself. The app shell keeps its
    // 256 px sidebar at any width until it gets its phone layout (a drawer, issue 26), so the
    // sidebar is set aside here to see the console at a phone's full width.
    await page.addStyleTag({ content: 'nav[aria-label="Main"] { display: none !important; }' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await fitsItsWidth(log(main))).toBe(true);
    expect(await fitsItsWidth(main)).toBe(true);
    // Still at the live end after the resize.
    await expect
      .poll(() => log(main).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
      .toBeLessThan(20);
    await screenshot(page, 'console-live-390');
  }, 90_000);

  it('stays smooth through a flood: it keeps the latest lines and follows the live end', async () => {
    const user = await createUser(suite.app);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openConsole(page, user);
    const main = mainArea(page);
    await expectVisible(log(main).getByText(EMPTY));
    // Long tasks (the main thread busy for 50 ms or more) are what a person feels as a frozen page.
    await page.evaluate(() => {
      const tasks: number[] = [];
      (window as unknown as { longTasks: number[] }).longTasks = tasks;
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({
        type: 'longtask',
        buffered: true,
      });
    });

    // 30 pings of 200 lines each, as fast as they go: 6,000 lines.
    const PINGS = 30;
    for (let batch = 0; batch < PINGS; batch += 1) {
      await ping(user, {
        lines: Array.from({ length: 200 }, (_, i) => ({
          level: i % 50 === 49 ? ('error' as const) : ('output' as const),
          text: `flood ${batch * 200 + i}`,
        })),
      });
    }
    const last = `flood ${PINGS * 200 - 1}`;
    await expect.poll(() => lastTexts(main, 1), { timeout: 15_000 }).toEqual([last]);
    const entries = await log(main).locator('[data-testid="console-line"], [data-testid="console-drop"]').count();
    // Rendered: only the lines in view and a few either side, not the thousands received.
    expect(entries).toBeLessThanOrEqual(120);
    await expect
      .poll(() => log(main).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight))
      .toBeLessThan(20);
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));
    // Generous for a shared machine: a page re-rendering thousands of rows per event would exceed it.
    expect(longest).toBeLessThan(1_000);
    await screenshot(page, 'console-flood-1440');
  }, 90_000);

  it('shows the console and the error count on the dashboard, and to an admin from the connections view', async () => {
    const user = await createUser(suite.app, { name: 'Connie Console' });
    await ping(user, {
      lines: [{ text: 'hello from the game' }, { level: 'error', text: 'Workspace.Door:3: locked' }],
    });
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, suite.app, user, '/dashboard');
    await expectSignedIn(page, user.name);
    const section = mainArea(page).getByRole('region', { name: 'Console', exact: true });
    await expect
      .poll(() => lineTexts(section), { timeout: 10_000 })
      .toEqual(['hello from the game', 'Workspace.Door:3: locked']);
    const card = mainArea(page).getByRole('region', { name: 'Game Connection', exact: true });
    await expectVisible(card.getByText('1 error in the last hour'));

    await ping(user, { lines: [{ level: 'error', text: 'Workspace.Door:3: locked again' }] });
    await expectVisible(card.getByText('2 errors in the last hour'));
    await expect.poll(() => lastTexts(section, 1)).toEqual(['Workspace.Door:3: locked again']);
    await screenshot(page, 'console-dashboard-1440');

    // The admin reads it from the connections view (polled: admins get no events of this user).
    const admin = await suite.browser.newPage();
    await admin.setViewportSize({ width: 1440, height: 900 });
    await signInAs(admin, suite.app, suite.firstAccount, '/admin?tab=connections');
    await expectSignedIn(admin, suite.firstAccount.name);
    await mainArea(admin)
      .getByRole('article', { name: `Connection of ${user.name}`, exact: true })
      .getByRole('button', { name: `Console of ${user.name}` })
      .click();
    const dialog = admin.getByRole('dialog', { name: `Console of ${user.name}` });
    await expect.poll(() => lineTexts(dialog), { timeout: 10_000 }).toContain('Workspace.Door:3: locked again');
    await ping(user, { lines: [{ text: 'seen by the admin' }] });
    await expect.poll(() => lastTexts(dialog, 1), { timeout: 10_000 }).toEqual(['seen by the admin']);
    await screenshot(admin, 'console-admin-dialog-1440');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectHidden(dialog);
  }, 90_000);
});
