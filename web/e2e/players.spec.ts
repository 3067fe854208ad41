import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RosterPlayer, RosterReport } from '@moonrelay/contract/players';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, mainArea, sidebarLink } from './support/ui.ts';

const suite = browserSuite();

// By element: while a record is open the modal drawer hides the page from the accessibility tree.
const rows = (page: Page) => page.locator('main [data-testid="player-row"]');
const onlineCount = (page: Page) => mainArea(page).getByTestId('players-online');

const player = (userId: number, name: string, displayName = name): RosterPlayer => ({
  userId,
  name,
  displayName,
  accountAgeDays: 365,
});

/** A game server's ping carrying its roster, as the integration script sends it. */
async function reportRoster(user: TestUser, serverId: string, roster: RosterReport) {
  const answer = await suite.app.call('POST', '/api/game/ping', { body: { key: user.user.apiKey, serverId, roster } });
  expect(answer.status, answer.text).toBe(200);
}

describe('players', () => {
  it('shows who is online across servers, live as players join and leave, searchable, with a record per player', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user, '/players');
    await expectSignedIn(page, user.name);
    expect(await sidebarLink(page, 'Players').getAttribute('aria-current')).toBe('page');
    await expectVisible(mainArea(page).getByText('Nobody is playing in your games right now.'));

    // A server of 120 players connects, and a second one of 3: they arrive over the socket.
    const crowd = Array.from({ length: 120 }, (_, i) => player(5_000 + i, `Crowd${i}`));
    await reportRoster(user, 'server-east', { count: crowd.length, players: crowd });
    await reportRoster(user, 'server-west', {
      count: 3,
      players: [player(156, 'builderman', 'Builder'), player(261, 'shedletsky'), player(-1, 'Player1')],
    });
    await expect.poll(() => onlineCount(page).innerText(), { timeout: 10_000 }).toBe('123 players online, 50 shown');
    await screenshot(page, 'players-desktop');

    await mainArea(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(100);

    // Joins and leaves change the list in place.
    await reportRoster(user, 'server-west', { count: 3, joined: [player(77, 'newcomer')], left: [261] });
    await expect.poll(() => onlineCount(page).innerText(), { timeout: 10_000 }).toMatch(/^123 players online/);
    await mainArea(page).getByRole('searchbox', { name: 'Search by name, display name or user id' }).fill('shed');
    await expectVisible(mainArea(page).getByText('No player online matches these filters.'));
    await mainArea(page).getByRole('searchbox', { name: 'Search by name, display name or user id' }).fill('build');
    await expect.poll(() => rows(page).count()).toBe(1);
    await mainArea(page).getByRole('searchbox', { name: 'Search by name, display name or user id' }).fill('');
    await mainArea(page).getByRole('textbox', { name: 'Server id' }).fill('server-west');
    await expect.poll(() => onlineCount(page).innerText()).toBe('3 players online');

    await mainArea(page).getByRole('button', { name: 'Open builderman' }).click();
    const record = page.getByTestId('player-record');
    await expectVisible(record.getByText('@builderman · 156'));
    await expectVisible(record.getByText('Online'));
    expect(await record.getByTestId('player-session').count()).toBe(1);
    await screenshot(page, 'player-record-desktop');
    await page.keyboard.press('Escape');

    // On a phone the list scrolls inside itself; the page does not.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'players-phone');
    await page.close();
  }, 60_000);
});
