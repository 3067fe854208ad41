import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
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

/**
 * Pings the servers every 3 s with their player count, as running games do, so their players stay
 * online however long the test takes (a server silent for 10 s is gone, and its players with it:
 * on a loaded machine the scrolling below took longer than that). Answers a function that stops it.
 */
function keepPinging(user: TestUser, servers: { serverId: string; count: number }[]): () => Promise<void> {
  let inFlight: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = Promise.all(
      servers.map(({ serverId, count }) =>
        suite.app.call('POST', '/api/game/ping', { body: { key: user.user.apiKey, serverId, roster: { count } } }),
      ),
    );
  }, 3_000);
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}

/**
 * Scrolls the players list: to its end, to its top, or a screen down (answering whether it reached
 * the end).
 */
function scrollList(page: Page, to: 'end' | 'top' | 'screen'): Promise<boolean> {
  return page.evaluate((to) => {
    const list = document.querySelector('main [data-testid="players-scroller"]')!;
    if (to === 'screen') list.scrollBy({ top: list.clientHeight, behavior: 'instant' });
    else list.scrollTo({ top: to === 'end' ? list.scrollHeight : 0, behavior: 'instant' });
    return list.scrollTop + list.clientHeight >= list.scrollHeight - 1;
  }, to);
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

    // Scrolling to the end fetches the rest; only the rows in view are drawn.
    await expect
      .poll(async () => {
        await scrollList(page, 'end');
        return onlineCount(page).innerText();
      })
      .toBe('123 players online');
    expect(await rows(page).count()).toBeLessThan(50);

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

  it('keeps a long list light: only the rows in view are drawn, further pages come as it scrolls, the arrows move through it', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const user = await createUser(suite.app);
    // 600 players on three servers: twelve pages of 50.
    const servers = ['server-a', 'server-b', 'server-c'];
    for (const [index, serverId] of servers.entries()) {
      const roster = Array.from({ length: 200 }, (_, i) => player(10_000 + index * 1_000 + i, `Long${index}x${i}`));
      await reportRoster(user, serverId, { count: roster.length, players: roster });
    }
    onTestFinished(
      keepPinging(
        user,
        servers.map((serverId) => ({ serverId, count: 200 })),
      ),
    );
    await signInAs(page, suite.app, user, '/players');
    await expect.poll(() => onlineCount(page).innerText(), { timeout: 10_000 }).toBe('600 players online, 50 shown');
    const drawn = await rows(page).count();
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(40);

    // Down the list a screen at a time until every page has come (each arrives as its end nears,
    // so a scroll waits for the page it reached): the rows drawn stay few all the way.
    let most = 0;
    await expect
      .poll(
        async () => {
          await scrollList(page, 'screen');
          most = Math.max(most, await rows(page).count());
          return onlineCount(page).innerText();
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBe('600 players online');
    expect(most).toBeLessThan(40);
    // The last row is the one after the last drawn: the whole list is reachable.
    await expect
      .poll(async () => {
        await scrollList(page, 'end');
        return page.locator('main [data-testid="player-row"]').last().getAttribute('aria-rowindex');
      })
      .toBe('601');

    // Keyboard: back at the top, Tab reaches the first player and the arrow keys walk down past the view.
    await scrollList(page, 'top');
    const first = page.locator('main [data-row-index="0"] button');
    await first.focus();
    for (let i = 0; i < 25; i++) await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-row-index')))
      .toBe('25');
    expect(
      await page.evaluate(() => document.querySelector('main [data-testid="players-scroller"]')!.scrollTop),
    ).toBeGreaterThan(0);
    await page.keyboard.press('ArrowUp');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-row-index')))
      .toBe('24');
    await page.keyboard.press('Enter');
    await expectVisible(page.getByTestId('player-record'));
    await page.close();
  }, 90_000);
});
