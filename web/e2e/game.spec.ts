import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeRoblox } from '../../server/test/fake-roblox.ts';
import { SimulatedGame } from '../../server/test/simulated-game.ts';
import { SERVER_CHOICES_SHOWN, SERVER_SELECT_TEXT } from '../src/components/server-select-text.ts';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, expectToast, mainArea } from './support/ui.ts';

// Player profiles come from a local stand-in for Roblox's web APIs.
const roblox = fakeRoblox();
const suite = browserSuite(async () => {
  const base = await roblox.start();
  return { ROBLOX_USERS_API_URL: base, ROBLOX_THUMBNAILS_API_URL: base };
});
afterAll(() => roblox.stop());

const region = (page: Page, name: string) => mainArea(page).getByRole('region', { name, exact: true });
const connectionBadge = (page: Page) => region(page, 'Game Connection').getByTestId('game-connection');

describe('game link on the dashboard', () => {
  it('shows a simulated game connect live, controls it, runs code on it, and sees it go', async () => {
    const page = await suite.browser.newPage();
    // The avatar's address is Roblox's image CDN, which this machine cannot reach.
    suite.browser.allowConsoleErrors(/ERR_NAME_NOT_RESOLVED \[https:\/\/tr\.rbxcdn\.com\//);
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user);
    await expectSignedIn(page, user.name);
    await expectVisible(connectionBadge(page));
    expect(await connectionBadge(page).innerText()).toBe('Disconnected');
    await expectVisible(region(page, 'Player Profile').getByText('Connect to game to view profile', { exact: true }));
    const heal = region(page, 'Game Controls').getByRole('button', { name: 'Heal Player' });
    expect(await heal.isDisabled()).toBe(true);
    await screenshot(page, 'game-disconnected');

    const game = new SimulatedGame({ url: suite.app.url, key: user.user.apiKey!, serverId: 'e2e-game', userId: 156 });
    game.health = 10;
    game.start(1_000);
    try {
      // Connected without a reload, pushed over the socket (how fast is the game benchmark's to say).
      await expect.poll(() => connectionBadge(page).innerText(), { timeout: 10_000, interval: 50 }).toBe('Connected');
      await expectVisible(region(page, 'Game Connection').getByText('Game is connected and receiving commands'));
      await expectVisible(region(page, 'Player Profile').getByText('Builder', { exact: true }));
      await expectVisible(region(page, 'Player Profile').getByText('@builderman'));

      // Heal reaches the game.
      expect(await heal.isDisabled()).toBe(false);
      await heal.click();
      await expectToast(page, 'Command Sent', 'Command queued for game execution');
      await expect.poll(() => game.health, { timeout: 5_000 }).toBe(100);

      // Code typed in Quick Test runs on the game and its output comes back.
      const quickTest = mainArea(page).getByLabel('Quick Test', { exact: true });
      await quickTest.fill('print("hello from the dashboard")');
      await mainArea(page).getByRole('button', { name: 'Execute Custom Code' }).click();
      await expect
        .poll(() => mainArea(page).getByTestId('execution-output').first().innerText(), { timeout: 8_000 })
        .toContain('hello from the dashboard');
      await screenshot(page, 'game-connected');
    } finally {
      await game.stop();
    }

    // Stopped: Disconnected once the last ping is 10 s old, still without a reload.
    await expect.poll(() => connectionBadge(page).innerText(), { timeout: 14_000, interval: 200 }).toBe('Disconnected');
    expect(await heal.isDisabled()).toBe(true);
    await screenshot(page, 'game-gone');
  }, 60_000);

  it('keeps up with hundreds of live game servers: the picker lists the first 50, finds any other, and changes arrive live', async () => {
    const page = await suite.browser.newPage();
    suite.browser.allowConsoleErrors(/ERR_NAME_NOT_RESOLVED \[https:\/\/tr\.rbxcdn\.com\//);
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user);
    await expectSignedIn(page, user.name);
    // Long tasks (the main thread busy for 50 ms or more) are what a person feels as a frozen page.
    await page.evaluate(() => {
      const tasks: number[] = [];
      (window as unknown as { longTasks: number[] }).longTasks = tasks;
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({
        type: 'longtask',
        buffered: true,
      });
    });

    const FLEET = 300;
    const games = Array.from(
      { length: FLEET },
      (_, i) =>
        new SimulatedGame({
          url: suite.app.url,
          key: user.user.apiKey!,
          serverId: `fleet-${String(i).padStart(3, '0')}`,
          playerName: `Player${i}`,
        }),
    );
    const pingAll = async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < games.length) expect((await games[next++]!.ping()).status).toBe(200);
        }),
      );
    };
    await pingAll();
    const picker = mainArea(page).getByRole('combobox', { name: 'Game server', exact: true });
    await expectVisible(mainArea(page).getByText(SERVER_SELECT_TEXT.shown(SERVER_CHOICES_SHOWN, FLEET)));
    expect(await picker.locator('option').count()).toBe(SERVER_CHOICES_SHOWN);
    expect(await connectionBadge(page).innerText()).toBe('Connected');

    // By keyboard: the search narrows the picker to the server sought, and the arrow keys choose it.
    await mainArea(page)
      .getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Game server') })
      .fill('Player299');
    await expect.poll(() => picker.locator('option').last().getAttribute('value')).toBe('fleet-299');
    await picker.focus();
    await page.keyboard.press('End');
    await expect.poll(() => picker.inputValue(), { timeout: 5_000 }).toBe('fleet-299');
    const details = region(page, 'Game Connection');
    await expectVisible(details.getByText('Player299', { exact: true }));

    // A change on that server reaches the page with the next coalesced event, while all 300 ping.
    games[FLEET - 1]!.health = 42;
    await pingAll();
    await expectVisible(details.getByText('42 / 100', { exact: true }));
    await pingAll();
    expect(await picker.inputValue()).toBe('fleet-299');
    await screenshot(page, 'game-fleet-picker');

    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));
    // Generous for a shared machine: a page re-rendering the whole list per ping would exceed it.
    expect(longest).toBeLessThan(1_000);
  }, 90_000);
});
