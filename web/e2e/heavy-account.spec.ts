import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ConsoleLineIn } from '@moonrelay/contract/console';
import type { RosterPlayer, RosterReport } from '@moonrelay/contract/players';
import { signInAs } from './support/app.ts';
import { expectPath, expectVisible } from './support/expect.ts';
import { heavyAccountSuite } from './support/heavy-account.ts';
import { mainArea } from './support/ui.ts';

/**
 * The screens of a big game's account (scripts/seed/heavy.ts) as its developer uses them: long
 * lists scrolled a server page after another, searched on the server, and kept live while the
 * game's servers ping.
 *
 * Scale 0.11 is the smallest that makes every list longer than a screen and several server pages:
 * My Scripts, the shortest, then has 110 scripts (pages of 50: three), and with it come 22,000
 * runs, 5,500 console lines (pages of 200) on 22 servers, and 11,000 players online (pages of 50)
 * on 550 live servers among 220,000 player records. Seeding that through the services takes 15 to
 * 23 s on a two-core machine (the players' records most of it), so it is done once for the file.
 */
const SCALE = 0.11;
const suite = heavyAccountSuite(SCALE);

const DESKTOP = { width: 1440, height: 900 };
/** Fewer rows than this in the DOM means only the rows in view (and a few around them) are drawn. */
const DRAWN_AT_MOST = 45;

/** The API requests the page makes to `path`, as they go out (their search parameters). */
function requestsTo(page: Page, path: string): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === path) seen.push(url.searchParams);
  });
  return seen;
}

/** Waits for the answer to the page's next GET of `path` whose search parameters pass `test`. */
const answerTo = (page: Page, path: string, test: (params: URLSearchParams) => boolean) =>
  page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === path && response.request().method() === 'GET' && test(url.searchParams);
  });

/** The aria-rowindex of each row drawn (the header row is the first, so data rows start at 2). */
const rowIndexes = (rows: Locator) =>
  rows.evaluateAll((list) => list.map((row) => Number(row.getAttribute('aria-rowindex'))));

/** Scrolls a list's own scroll box: by a screen, or to its end or top. */
const scroll = (scroller: Locator, to: 'screen' | 'end' | 'top') =>
  scroller.evaluate((box, to) => {
    if (to === 'screen') box.scrollBy({ top: box.clientHeight, behavior: 'instant' });
    else box.scrollTo({ top: to === 'end' ? box.scrollHeight : 0, behavior: 'instant' });
  }, to);

/**
 * The row a reader sees in the middle of the scroll box (what a click there opens), with its place
 * from the top of the box: the row under the point, not one drawn just out of view.
 */
const rowInView = (scroller: Locator, selector: string, at: 'middle' | 'top') =>
  scroller.evaluate(
    (box, { selector, at }) => {
      const rect = box.getBoundingClientRect();
      const header = box.querySelector('thead')?.getBoundingClientRect().height ?? 0;
      const y = at === 'middle' ? rect.top + rect.height / 2 : rect.top + header + 4;
      const row = document.elementFromPoint(rect.left + 40, y)?.closest<HTMLElement>(selector);
      if (!row) return null;
      return {
        index: Number(row.getAttribute('aria-rowindex')),
        text: row.innerText,
        id: row.getAttribute('data-run-id'),
        top: row.getBoundingClientRect().top - rect.top,
      };
    },
    { selector, at },
  );

/** One ping of a game server of the heavy account, over real HTTP with its API key. */
async function ping(body: { serverId: string; roster?: RosterReport; console?: { lines: ConsoleLineIn[] } }) {
  const response = await fetch(`${suite.app.url}/api/game/ping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: suite.seeded.apiKey, ...body }),
  });
  expect(response.status, await response.text()).toBe(200);
}

async function get(path: string) {
  const answer = await suite.app.call('GET', path, { token: suite.owner.token });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

describe('the heavy account', () => {
  it('Runs: scrolled far past the first page, the rows come by cursor, only those in view are drawn, and a run deep in the list opens', async () => {
    const { counts } = suite.seeded;
    expect(counts.runs).toBeGreaterThan(10_000);
    const page = await suite.browser.newPage();
    await page.setViewportSize(DESKTOP);
    const asked = requestsTo(page, '/api/executions');
    await signInAs(page, suite.app, suite.owner, '/runs');
    const scroller = mainArea(page).getByTestId('runs-scroller');
    // By element: while a run is open the modal drawer hides the page from the accessibility tree.
    const rows = page.locator('main [data-testid="run-row"]');
    await expectVisible(rows.first());
    expect(await rows.count()).toBeLessThan(DRAWN_AT_MOST);

    // A screen at a time down to the 400th run, eight pages in: each page asked for by the cursor
    // the last one answered, as its end comes near. The rows drawn stay a screenful all the way.
    const TARGET = 400;
    let most = 0;
    await expect
      .poll(
        async () => {
          await scroll(scroller, 'screen');
          const drawn = await rowIndexes(rows);
          most = Math.max(most, drawn.length);
          return Math.max(...drawn) - 1;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(TARGET);
    expect(most).toBeLessThan(DRAWN_AT_MOST);
    const drawn = await rowIndexes(rows);
    // The rows at the top are gone from the DOM: what is drawn is a run of rows around the view.
    expect(Math.min(...drawn) - 1).toBeGreaterThan(TARGET - DRAWN_AT_MOST);
    expect(Math.max(...drawn) - Math.min(...drawn) + 1).toBe(drawn.length);
    const cursors = asked.map((params) => params.get('cursor')).filter((cursor) => cursor !== null);
    expect(cursors.length).toBeGreaterThanOrEqual(Math.floor(TARGET / 50) - 1);
    expect(new Set(cursors).size).toBe(cursors.length);

    // The run in the middle of the view, deep in the list: its detail opens with its address.
    const seen = await rowInView(scroller, 'tr[data-run-id]', 'middle');
    expect(seen, 'a run under the middle of the view').not.toBeNull();
    expect(seen!.index - 1).toBeGreaterThan(TARGET - DRAWN_AT_MOST);
    const row = page.locator(`main [data-testid="run-row"][data-run-id="${seen!.id}"]`);
    const status = await row.getByTestId('run-status').innerText();
    await row.click();
    await expectPath(page, '/runs', `?id=${seen!.id}`);
    const detail = page.getByTestId('run-detail');
    await expectVisible(detail.getByText(seen!.id!, { exact: true }));
    await expectVisible(detail.getByText(status, { exact: true }));
    // The run the server lists at that place: no page was skipped or drawn twice on the way down.
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const more = (await get(`/api/executions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as {
        runs: { id: string }[];
        nextCursor: string | null;
      };
      listed.push(...more.runs.map((run) => run.id));
      cursor = more.nextCursor;
    } while (cursor && listed.length < seen!.index - 1);
    expect(listed[seen!.index - 2]).toBe(seen!.id);
    await page.keyboard.press('Escape');
    await expectPath(page, '/runs', '');
    // Closed, the list is where it was.
    expect((await rowInView(scroller, 'tr[data-run-id]', 'middle'))?.id).toBe(seen!.id);
    await page.close();
  });

  it('My Scripts: the list pages by cursor as it scrolls, and a search is the server’s, counted and paged too', async () => {
    const { counts } = suite.seeded;
    const page = await suite.browser.newPage();
    await page.setViewportSize(DESKTOP);
    const asked = requestsTo(page, '/api/scripts/page');
    await signInAs(page, suite.app, suite.owner, '/scripts');
    const main = mainArea(page);
    await expectVisible(main.getByRole('heading', { level: 1, name: `My Scripts (${counts.scripts})` }));
    const scroller = main.getByTestId('scripts-scroller');
    const rows = page.locator('main [data-testid="script-row"]');
    const table = main.getByRole('table', { name: 'Scripts' });
    await expectVisible(rows.first());
    expect(await rows.count()).toBeLessThan(DRAWN_AT_MOST);
    // The list is longer than its box: it scrolls.
    expect(await scroller.evaluate((box) => box.scrollHeight > box.clientHeight * 2)).toBe(true);

    // To the end: every page comes (three of 50), each by the last one's cursor.
    await expect
      .poll(
        async () => {
          await scroll(scroller, 'end');
          return table.getAttribute('aria-rowcount');
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(String(counts.scripts + 1));
    await expect.poll(async () => Math.max(...(await rowIndexes(rows)))).toBe(counts.scripts + 1);
    expect(await rows.count()).toBeLessThan(DRAWN_AT_MOST);
    const pagesAsked = asked.filter((params) => params.get('cursor') !== null && !params.get('q'));
    expect(pagesAsked.length).toBe(Math.ceil(counts.scripts / 50) - 1);

    // A search: the server is asked with q, the count says how many match, and its own pages come
    // by cursor with the search kept. "Script 00" is every script before the 100th.
    // Back at the top to search, as a reader does.
    await scroll(scroller, 'top');
    const search = main.getByRole('searchbox', { name: 'Search scripts' });
    const QUERY = 'Script 00';
    const matches = Math.min(counts.scripts, 99);
    const searched = answerTo(page, '/api/scripts/page', (params) => params.get('q') === QUERY);
    await search.fill(QUERY);
    expect((await searched).status()).toBe(200);
    const matching = main.getByTestId('scripts-matching');
    await expect.poll(() => matching.innerText()).toBe(`${matches} of ${counts.scripts} scripts match`);
    // The heading keeps the account's count.
    await expectVisible(main.getByRole('heading', { level: 1, name: `My Scripts (${counts.scripts})` }));
    await expect.poll(() => rows.first().locator('.script-name').innerText()).toMatch(/^Script 00\d\d /);
    expect(await table.getAttribute('aria-rowcount')).toBe('-1');
    const nextOfSearch = answerTo(
      page,
      '/api/scripts/page',
      (params) => params.get('q') === QUERY && params.get('cursor') !== null,
    );
    await expect
      .poll(
        async () => {
          await scroll(scroller, 'end');
          return table.getAttribute('aria-rowcount');
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe(String(matches + 1));
    expect((await nextOfSearch).status()).toBe(200);
    // At the end of the matches: the first script of all, and only matches on the way.
    await expect.poll(() => rows.last().locator('.script-name').innerText()).toBe('Script 0001 shop');
    const names = await rows.locator('.script-name').allInnerTexts();
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(name).toMatch(/^Script 00\d\d /);
    expect(await rows.count()).toBeLessThan(DRAWN_AT_MOST);

    // Cleared, the whole list again from its top, and no count of matches.
    await search.fill('');
    await expect
      .poll(async () => {
        await scroll(scroller, 'top');
        return rows.first().locator('.script-name').innerText();
      })
      .toMatch(/^Script 0110 /);
    expect(await matching.count()).toBe(0);
    await page.close();
  });

  it('Players: the online players are searched and opened, and joins and leaves show up live without moving the list', async () => {
    const { counts } = suite.seeded;
    const page = await suite.browser.newPage();
    await page.setViewportSize(DESKTOP);
    await signInAs(page, suite.app, suite.owner, '/players');
    const main = mainArea(page);
    const onlineCount = main.getByTestId('players-online');
    const scroller = page.locator('main [data-testid="players-scroller"]');
    const rows = page.locator('main [data-testid="player-row"]');
    const total = counts.onlinePlayers;
    await expect.poll(() => onlineCount.innerText()).toBe(`${total.toLocaleString('en')} players online, 50 shown`);
    expect(await rows.count()).toBeLessThan(DRAWN_AT_MOST);

    // A search by the start of a name narrows the list on the server; the count is the server's.
    const handle = (await rows.nth(3).locator('[data-part="handle"]').innerText()).replace(/^@/, '');
    const prefix = handle.slice(0, -1);
    const expected = ((await get(`/api/players/online?limit=1&q=${prefix}`)) as { total: number }).total;
    expect(expected).toBeGreaterThan(1);
    expect(expected).toBeLessThan(total);
    const searchbox = main.getByRole('searchbox', { name: 'Search by name, display name or user id' });
    const searched = answerTo(page, '/api/players/online', (params) => params.get('q') === prefix);
    await searchbox.fill(prefix);
    expect((await searched).status()).toBe(200);
    await expect.poll(() => onlineCount.innerText()).toBe(`${expected} players online`);
    const found = await rows.locator('[data-part="handle"]').allInnerTexts();
    expect(found).toHaveLength(expected);
    for (const name of found) expect(name.startsWith(`@${prefix}`)).toBe(true);

    // The player's record: who they are, online now, on which server.
    await main.getByRole('button', { name: `Open ${handle}`, exact: true }).click();
    const record = page.getByTestId('player-record');
    const userId = handle.replace(/^Player/, '');
    await expectVisible(record.getByText(`@${handle} · ${userId}`));
    await expectVisible(record.getByText('Online', { exact: true }));
    expect(await record.getByTestId('player-session').count()).toBeGreaterThanOrEqual(1);
    await page.keyboard.press('Escape');
    await searchbox.fill('');
    await expect.poll(() => onlineCount.innerText()).toBe(`${total.toLocaleString('en')} players online, 50 shown`);

    // A player joins a live server while the list is at its top: the newcomer is listed first.
    const server = suite.seeded.liveServerIds[7]!;
    const onServer = ((await get(`/api/players/online?limit=200&serverId=${server}`)) as { total: number }).total;
    const newcomer = (id: number): RosterPlayer => ({
      userId: id,
      name: `Newcomer${id}`,
      displayName: `Newcomer ${id}`,
      accountAgeDays: 3,
    });
    const first = newcomer(90_000_001);
    await ping({ serverId: server, roster: { count: onServer + 1, joined: [first] } });
    await expect
      .poll(() => onlineCount.innerText())
      .toBe(`${(total + 1).toLocaleString('en')} players online, 50 shown`);
    await expect.poll(() => rows.first().locator('[data-part="handle"]').innerText()).toBe(`@${first.name}`);

    // Down the list, a second player joins and both leave: the list changes above the reader, and
    // the player at the top of the view stays where it was.
    await scroll(scroller, 'screen');
    await scroll(scroller, 'screen');
    // The next page, asked for as its end came near, is in before the reader's place is taken.
    await expect
      .poll(() => onlineCount.innerText())
      .toBe(`${(total + 1).toLocaleString('en')} players online, 100 shown`);
    const anchor = await rowInView(scroller, 'tr[data-row-index]', 'top');
    expect(anchor, 'a player at the top of the view').not.toBeNull();
    expect(anchor!.index).toBeGreaterThan(10);
    const stillThere = async () => {
      const now = await rowInView(scroller, 'tr[data-row-index]', 'top');
      return { text: now?.text, top: Math.round(now?.top ?? -1) };
    };
    const second = newcomer(90_000_002);
    await ping({ serverId: server, roster: { count: onServer + 2, joined: [second] } });
    await expect
      .poll(() => onlineCount.innerText())
      .toMatch(new RegExp(`^${(total + 2).toLocaleString('en')} players`));
    expect(await stillThere()).toEqual({ text: anchor!.text, top: Math.round(anchor!.top) });
    await ping({ serverId: server, roster: { count: onServer, left: [first.userId, second.userId] } });
    await expect.poll(() => onlineCount.innerText()).toMatch(new RegExp(`^${total.toLocaleString('en')} players`));
    expect(await stillThere()).toEqual({ text: anchor!.text, top: Math.round(anchor!.top) });

    // Back at the top, the newcomers are gone.
    await scroll(scroller, 'top');
    await expect.poll(() => rows.first().locator('[data-part="handle"]').innerText()).not.toMatch(/^@Newcomer/);
    await searchbox.fill('Newcomer');
    await expectVisible(main.getByText('No player online matches these filters.'));
    await page.close();
  });

  it('Console: live lines arrive over the loaded history, and the level filter and the search reach the whole of it', async () => {
    const { counts } = suite.seeded;
    expect(counts.consoleLines).toBeGreaterThan(1_000);
    const page = await suite.browser.newPage();
    await page.setViewportSize(DESKTOP);
    const asked = requestsTo(page, '/api/game/console');
    await signInAs(page, suite.app, suite.owner, '/console');
    const main = mainArea(page);
    const log = main.getByRole('log', { name: 'Console lines' });
    const lines = log.getByTestId('console-line');
    const texts = () => log.getByTestId('console-line-text').allTextContents();
    const lineCount = main.getByTestId('console-count');
    await expect.poll(() => lineCount.innerText()).toBe('200 lines');
    expect(await lines.count()).toBeLessThan(60);

    // An older page of the history, then a live line while it is loaded: it joins the end.
    const older = answerTo(page, '/api/game/console', (params) => params.get('cursor') !== null);
    // Clicked where the log is (at its live end), without scrolling to the button: a log shown
    // from its top would also load older pages by itself, as the top comes into view.
    await log.getByRole('button', { name: 'Load older lines' }).dispatchEvent('click');
    expect((await older).status()).toBe(200);
    await expect.poll(() => lineCount.innerText()).toBe('400 lines');
    const SERVER = 'heavy-e2e-console';
    const live = `live line over the history ${crypto.randomUUID()}`;
    await ping({ serverId: SERVER, console: { lines: [{ time: Date.now(), level: 'output', text: live }] } });
    await expect.poll(() => lineCount.innerText()).toBe('401 lines');
    await log.evaluate((box) => box.scrollTo({ top: box.scrollHeight, behavior: 'instant' }));
    await expect.poll(async () => (await texts()).at(-1)).toBe(live);
    expect(await lines.count()).toBeLessThan(60);

    // Errors only: the server is asked for them, and every line shown is one.
    const errorsOnly = answerTo(page, '/api/game/console', (params) => params.get('level') === 'error');
    for (const level of ['Output', 'Info', 'Warning']) {
      await main.getByRole('button', { name: level, exact: true }).click();
    }
    expect((await errorsOnly).status()).toBe(200);
    await expect.poll(() => lineCount.innerText()).toBe('200 lines');
    expect(new Set(await lines.evaluateAll((list) => list.map((line) => line.getAttribute('data-level'))))).toEqual(
      new Set(['error']),
    );

    // A search on top: the server's matches among every error of the history, not only the loaded ones.
    const QUERY = 'purchase 42';
    const expected = (
      (await get(`/api/game/console?level=error&q=${encodeURIComponent(QUERY)}&limit=500`)) as { lines: unknown[] }
    ).lines.length;
    expect(expected).toBeGreaterThan(1);
    const searched = answerTo(
      page,
      '/api/game/console',
      (params) => params.get('q') === QUERY && params.get('level') === 'error',
    );
    await main.getByRole('searchbox', { name: 'Search' }).fill(QUERY);
    expect((await searched).status()).toBe(200);
    await expect.poll(() => lineCount.innerText()).toBe(`${expected} lines`);
    for (const text of await texts()) expect(text).toContain(QUERY);

    // Live lines through the filter: the matching error shows, the output and the other error do not.
    const match = `attempt to index nil (purchase 42 live ${crypto.randomUUID()})`;
    const time = Date.now();
    await ping({
      serverId: SERVER,
      console: {
        lines: [
          { time, level: 'output', text: 'purchase 42 printed, not an error' },
          { time, level: 'error', text: 'an error of another purchase' },
          { time, level: 'error', text: match },
        ],
      },
    });
    await expect.poll(async () => (await texts()).at(-1)).toBe(match);
    expect(await lineCount.innerText()).toBe(`${expected + 1} lines`);
    const shown = await texts();
    expect(shown).not.toContain('purchase 42 printed, not an error');
    expect(shown).not.toContain('an error of another purchase');
    expect(asked.length).toBeGreaterThanOrEqual(4);
    await page.close();
  });
});
