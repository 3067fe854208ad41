import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIMULATED_PLAYER } from '@moonrelay/contract/simulated';
import { startApp, uniqueUserFields, type E2EApp } from './support/app.ts';
import { launchBrowser, screenshot, type E2EBrowser } from './support/browser.ts';
import { ensureWebBuilt } from './support/build.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { expectSignedIn, expectToast, mainArea, registerPanel, sidebarLink, toast } from './support/ui.ts';

/**
 * The first hour of a newcomer, from the UI alone: a fresh server with nobody on it, the first
 * account registered through the form, a simulated game server started from the dashboard, and
 * everything it makes appear (the connection, a command, a run, the Console, Players, Runs and the
 * admin's connections), waited for as it appears.
 */
let app: E2EApp;
let browser: E2EBrowser;
beforeAll(async () => {
  await ensureWebBuilt();
  // Its own server (not the suite's): nobody is registered on it yet.
  app = await startApp();
  browser = await launchBrowser({ origin: app.url });
});
afterEach(async () => {
  await browser?.finishTest();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const region = (page: Page, name: string) => mainArea(page).getByRole('region', { name, exact: true });
const connectionBadge = (page: Page) => region(page, 'Game Connection').getByTestId('game-connection');
/** The value a data list gives for `label` ("Health", "Player"...). */
const listValue = (scope: Locator, label: string) =>
  scope.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]').innerText();

/** How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the first hour', () => {
  it('a newcomer registers, simulates a game server and sees it work: controls, a run, the Console and Players', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(app.url + '/');

    // Register: the first account on this server.
    await page.getByRole('tab', { name: 'Register', exact: true }).click();
    const form = registerPanel(page);
    const fields = uniqueUserFields({ name: 'Ada Newcomer' });
    await form.getByLabel('Email', { exact: true }).fill(fields.email);
    await form.getByLabel('Username', { exact: true }).fill(fields.username);
    await form.getByLabel('Name', { exact: true }).fill(fields.name);
    await form.getByLabel('Password', { exact: true }).fill(fields.password);
    await form.getByLabel('Confirm password', { exact: true }).fill(fields.password);
    await form.getByRole('button', { name: 'Create account' }).click();
    await expectPath(page, '/dashboard');
    await expectSignedIn(page, fields.name);
    await expectVisible(connectionBadge(page));
    expect(await connectionBadge(page).innerText()).toBe('Disconnected');

    // No Roblox game yet: the dashboard offers a simulated one.
    const simulator = region(page, 'Simulated game server');
    await simulator.getByRole('button', { name: 'Simulate a game server' }).click();
    await expect.poll(() => connectionBadge(page).innerText()).toBe('Connected');
    const connection = region(page, 'Game Connection');
    await expectVisible(connection.getByTestId('simulated-badge'));
    await expectVisible(simulator.getByRole('button', { name: 'Stop', exact: true }));
    await expectVisible(simulator.getByText(/It stops by itself at/));
    expect(await listValue(connection, 'Player')).toBe(SIMULATED_PLAYER.name);
    expect(await listValue(connection, 'Health')).toBe('75 / 100');
    await expectVisible(region(page, 'Player Profile').getByText('A simulated player has no Roblox profile.'));

    // Heal: the command reaches it and its player's health shows it.
    await region(page, 'Game Controls').getByRole('button', { name: 'Heal Player' }).click();
    await expectToast(page, 'Command Sent', 'Command queued for game execution');
    await expect.poll(() => listValue(connection, 'Health')).toBe('100 / 100');

    // A script run in the game from the dashboard: its output comes back.
    const quickTest = mainArea(page).getByLabel('Quick Test', { exact: true });
    await quickTest.fill('print("Hello from my first script")');
    await mainArea(page).getByRole('button', { name: 'Execute Custom Code' }).click();
    await expect
      .poll(() => mainArea(page).getByTestId('execution-output').first().innerText())
      .toContain('Hello from my first script');
    // The run's toast is put away, so the pictures show the dashboard itself.
    await toast(page).getByRole('button').click();
    await expectHidden(toast(page));
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'first-hour-dashboard-desktop');

    // On a phone the same dashboard fits its width.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(simulator.getByRole('button', { name: 'Stop', exact: true }));
    await expect.poll(() => sidewaysOverflow(page)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'first-hour-dashboard-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The Console: its greeting and the script's line, from the simulated server.
    await sidebarLink(page, 'Console').click();
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Console', exact: true }));
    const log = mainArea(page).getByRole('log', { name: 'Console lines' });
    await expectVisible(log.getByText(`Hello from a simulated game server! ${SIMULATED_PLAYER.name} joined.`));
    await expectVisible(log.getByText('Hello from my first script', { exact: true }));
    const serverFilter = mainArea(page)
      .locator('select')
      .filter({ has: page.locator('option', { hasText: 'Simulated' }) });
    await expectVisible(serverFilter);

    // Players: the simulated player, marked as such.
    await sidebarLink(page, 'Players').click();
    const row = mainArea(page).getByTestId('player-row').filter({ hasText: SIMULATED_PLAYER.displayName });
    await expectVisible(row);
    await expectVisible(row.getByTestId('simulated-badge'));

    // Runs: the run, on the simulated server.
    await sidebarLink(page, 'Runs').click();
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Runs', exact: true }));
    await expectVisible(mainArea(page).getByTestId('simulated-badge'));

    // The first account is the admin: its connections show the simulated server, marked.
    await page.goto(app.url + '/admin?tab=connections');
    const card = mainArea(page).getByRole('article', { name: `Connection of ${fields.name}`, exact: true });
    await expectVisible(card.getByTestId('simulated-badge'));

    // Stop: it says so, and the Game panel shows it gone once its last ping is 10 s old.
    await sidebarLink(page, 'Dashboard').click();
    await region(page, 'Simulated game server').getByRole('button', { name: 'Stop', exact: true }).click();
    await expectVisible(region(page, 'Simulated game server').getByText(/The simulated game server was stopped\./));
    await expect.poll(() => connectionBadge(page).innerText(), { timeout: 15_000 }).toBe('Disconnected');
    await expectVisible(region(page, 'Simulated game server').getByRole('button', { name: 'Simulate a game server' }));
  }, 120_000);
});
