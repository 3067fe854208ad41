import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import { SimulatedGame } from '../../server/test/simulated-game.ts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { alertDialogNamed, expectSignedIn, expectToast, mainArea, sidebarLink, toast } from './support/ui.ts';

const suite = browserSuite();

/** Chromium logs the 409 of the refused demotion as a failed resource. */
const CONFLICT = /status of 409 \(Conflict\) \[[^\]]*\/api\/admin\/users\/[^\]]*\/role\]$/;

/** Simulated games started by a test, stopped after it. */
let games: SimulatedGame[] = [];
afterEach(async () => {
  await Promise.all(games.map((game) => game.stop()));
  games = [];
});

/** A game server of `user`'s pinging every 500 ms over real HTTP. */
function startGame(user: TestUser, options: { serverId: string; health?: number }): SimulatedGame {
  const game = new SimulatedGame({
    url: suite.app.url,
    key: user.user.apiKey as string,
    serverId: options.serverId,
    playerName: user.username,
  });
  if (options.health !== undefined) game.health = options.health;
  game.start(500);
  games.push(game);
  return game;
}

const tab = (page: Page, name: RegExp) => mainArea(page).getByRole('tab', { name });

async function openAdmin(page: Page, tabName = 'users') {
  await signInAs(page, suite.app, suite.firstAccount, `/admin?tab=${tabName}`);
  await expectSignedIn(page, suite.firstAccount.name);
  await expectVisible(mainArea(page).getByRole('heading', { name: 'Admin Panel', exact: true }));
  await expectVisible(mainArea(page).getByTestId('admin-access'));
}

const connectionCard = (page: Page, name: string) =>
  mainArea(page).getByRole('article', { name: `Connection of ${name}`, exact: true });

/** The value a card's data list gives for `label` ("Health", "Position"...). */
const cardValue = (card: Locator, label: string) =>
  card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').innerText();

const userRow = (page: Page, name: string) =>
  mainArea(page)
    .getByTestId('admin-user-row')
    .filter({ has: page.getByText(name, { exact: true }) });

/**
 * A user's row, drawn and in view: the Users list draws only the rows its 600px area shows
 * (decision 051), so the area is scrolled on down (and back to its top past the end) until the row
 * is there. The first account, the oldest, is the last row of the page.
 */
async function reachUserRow(page: Page, name: string): Promise<Locator> {
  const area = mainArea(page).getByRole('region', { name: 'Users', exact: true });
  const row = userRow(page, name);
  await expectVisible(area);
  await expect
    .poll(
      async () => {
        if ((await row.count()) > 0) return true;
        await area.evaluate((element) => {
          const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
          element.scrollTop = atEnd ? 0 : element.scrollTop + element.clientHeight / 2;
        });
        return false;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  await row.scrollIntoViewIfNeeded();
  return row;
}

const progressRow = (page: Page, userId: string) =>
  mainArea(page).locator(`[data-testid="mass-progress-row"][data-user="${userId}"]`);

/** A theme applied before the app boots (the Settings switch stores it the same way). */
async function useTheme(page: Page, theme: 'dark' | 'light') {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
}

describe('admin panel', () => {
  it("a non-admin sees no Admin Panel link and gets the 'Admins only' page at /admin", async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Norma Noadmin' });
    await signInAs(page, suite.app, user, '/dashboard');
    await expectSignedIn(page, user.name);
    await expectVisible(sidebarLink(page, 'Settings'));
    await expectHidden(sidebarLink(page, 'Admin Panel'));

    await page.goto(`${suite.app.url}/admin`);
    await expectSignedIn(page, user.name);
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Admins only', exact: true }));
    await expectVisible(
      mainArea(page).getByText('The Admin Panel is for administrators. Your account does not have admin access.'),
    );
    await expectHidden(mainArea(page).getByText('Admin Access', { exact: true }));
    await expectHidden(mainArea(page).getByRole('tab'));
    await screenshot(page, 'admin-non-admin');

    // The server refuses them too.
    const refused = await suite.app.call('GET', '/api/admin/users', { token: user.token });
    expect(refused.status).toBe(403);

    await mainArea(page).getByRole('link', { name: 'Back to the dashboard' }).click();
    await expectPath(page, '/dashboard');
  });

  it("sends Heal to a user's game from the Connections tab and sees it done", async () => {
    const player = await createUser(suite.app, { name: 'Harriet Heal' });
    const game = startGame(player, { serverId: 'e2e-heal', health: 30 });
    const page = await suite.browser.newPage();
    await openAdmin(page, 'connections');

    const card = connectionCard(page, player.name);
    await expectVisible(card);
    await expectVisible(card.getByText('Connected', { exact: true }));
    await expectVisible(card.getByText(player.email, { exact: true }));
    await expect.poll(() => cardValue(card, 'Health')).toBe('30 / 100');
    expect(await cardValue(card, 'Position')).toBe('0, 5, 0');
    expect(await cardValue(card, 'Game ID')).toBe('4242');
    await expectVisible(tab(page, /^Connections \(\d+\)$/));

    await card.getByRole('button', { name: 'Heal', exact: true }).click();
    await expectToast(page, 'Command Sent', 'Command queued for execution');
    // The game took it, ran it and said so; the card follows without a reload.
    await expect.poll(() => game.health, { timeout: 5_000 }).toBe(100);
    const lastCommand = card.getByTestId('connection-last-command');
    await expect.poll(() => lastCommand.innerText(), { timeout: 5_000 }).toMatch(/Heal\s*Done/);
    await expect.poll(() => cardValue(card, 'Health'), { timeout: 5_000 }).toBe('100 / 100');

    await card.getByRole('button', { name: 'Spawn', exact: true }).click();
    await expect.poll(() => game.position, { timeout: 5_000 }).toEqual({ x: 0, y: 50, z: 0 });
    await expect.poll(() => cardValue(card, 'Position'), { timeout: 5_000 }).toBe('0, 50, 0');
    await card.getByRole('button', { name: 'Speed', exact: true }).click();
    await expect.poll(() => game.walkSpeed, { timeout: 5_000 }).toBe(50);
    await screenshot(page, 'admin-connections');

    // The game stops: its card turns Disconnected without a reload, and its buttons with it.
    await game.stop();
    await expectVisible(card.getByText('Disconnected', { exact: true }), 15_000);
    expect(await card.getByRole('button', { name: 'Heal', exact: true }).isDisabled()).toBe(true);
  }, 60_000);

  it('runs a script on three selected users at once and shows each one’s result live', async () => {
    const players = await Promise.all(
      ['Mass One', 'Mass Two', 'Mass Three'].map((name) => createUser(suite.app, { name })),
    );
    players.forEach((player, index) => startGame(player, { serverId: `e2e-mass-${index}` }));
    const offline = await createUser(suite.app, { name: 'Mass Offline' });
    const page = await suite.browser.newPage();
    await openAdmin(page, 'users');

    for (const user of [...players, offline]) {
      await userRow(page, user.name)
        .getByRole('checkbox', { name: `Select ${user.name}` })
        .check({ force: true });
    }
    await screenshot(page, 'admin-users-selected');
    await tab(page, /^Mass Execution$/).click();
    const selected = mainArea(page).getByRole('region', { name: 'Selected users' });
    await expectVisible(selected.getByText('Selected users (4)', { exact: true }));
    for (const user of players) await expectVisible(selected.getByText(`${user.name} @${user.username}`));

    const code = 'local parts = {"hello", "from", "the", "admin"}\nprint(table.concat(parts, " "))';
    await mainArea(page).getByRole('textbox', { name: 'Lua script' }).fill(code);
    await mainArea(page).getByRole('button', { name: 'Execute on Selected Users' }).click();
    await expectToast(page, 'Script Sent', 'Script queued for execution');
    await expectVisible(mainArea(page).getByText('Progress: Script on 4 users', { exact: true }));

    for (const player of players) {
      const row = progressRow(page, player.user.id);
      await expect
        .poll(() => row.getByTestId('mass-progress-status').innerText(), { timeout: 15_000 })
        .toBe('Succeeded');
      expect(await row.getByTestId('mass-progress-output').innerText()).toBe('hello from the admin');
    }
    const offlineRow = progressRow(page, offline.user.id);
    await expect.poll(() => offlineRow.getByTestId('mass-progress-status').innerText()).toBe('Not connected');
    await expectVisible(offlineRow.getByText(ERRORS.gameNotConnected, { exact: true }));
    await expectVisible(mainArea(page).getByText(/4 of 4 finished/));
    await screenshot(page, 'admin-mass-execution');

    // Every game ran the script exactly once.
    for (const game of games)
      expect([...game.ran.values()].map((result) => result.output)).toEqual(['hello from the admin\n']);

    // The runs are in Recent Executions, without a reload.
    await tab(page, /^Recent Executions/).click();
    const runs = mainArea(page).getByTestId('recent-execution');
    for (const player of players) {
      await expectVisible(runs.filter({ hasText: player.user.id.slice(0, 8) }).first(), 10_000);
    }
  }, 90_000);

  it('Send Command stays disabled without a type or a user, and a JSON error is shown in place', async () => {
    const player = await createUser(suite.app, { name: 'Json Jones' });
    const page = await suite.browser.newPage();
    await openAdmin(page, 'mass');
    const send = mainArea(page).getByRole('button', { name: 'Send Command', exact: true });
    expect(await send.isDisabled()).toBe(true);
    await mainArea(page).getByRole('combobox', { name: 'Command type' }).selectOption('speed');
    expect(await send.isDisabled()).toBe(true);

    // Execute with nobody selected: a toast, nothing sent.
    await mainArea(page).getByRole('button', { name: 'Execute on Selected Users' }).click();
    await expectToast(page, 'No Users Selected', 'Please select at least one user for mass execution.');

    await tab(page, /^Users/).click();
    await userRow(page, player.name)
      .getByRole('checkbox', { name: `Select ${player.name}` })
      .check({ force: true });
    await tab(page, /^Mass Execution$/).click();
    expect(await send.isDisabled()).toBe(false);
    await mainArea(page).getByRole('button', { name: 'Execute on Selected Users' }).click();
    await expectToast(page, 'No Script Provided', 'Please enter a script to execute.');

    const data = mainArea(page).getByRole('textbox', { name: 'Command data (JSON)' });
    expect(await data.inputValue()).toBe('{"speed":50}');
    await data.fill('{"speed": 50');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/mass-execution')) requests.push(request.method());
    });
    await send.click();
    await expectVisible(mainArea(page).getByTestId('command-data-error'));
    expect(await mainArea(page).getByTestId('command-data-error').innerText()).toMatch(/^Invalid JSON: /);
    await screenshot(page, 'admin-mass-json-error');
    expect(requests).toEqual([]);

    // Fixed, it goes: the user has no game, so their part ends 'Not connected'.
    await data.fill('{"speed": 50}');
    await send.click();
    await expectToast(page, 'Command Sent', 'Command queued for execution');
    await expect
      .poll(() => progressRow(page, player.user.id).getByTestId('mass-progress-status').innerText())
      .toBe('Not connected');
    expect(requests).toEqual(['POST']);
  });

  it('regenerating a key shows the new key for 10 s, and the audit entry arrives without a reload', async () => {
    const player = await createUser(suite.app, { name: 'Kira Keys' });
    const oldKey = player.user.apiKey as string;
    const page = await suite.browser.newPage();
    // The page's timers run on Playwright's clock, so the toast's 10 s are counted in steps the
    // test takes, however slow the machine: time flows as usual until the test pauses it.
    await page.clock.install();
    await openAdmin(page, 'users');
    const row = userRow(page, player.name);
    await expectVisible(row);
    expect(await row.getByTestId('api-key').innerText()).toBe(`${oldKey.slice(0, 8)}…${oldKey.slice(-4)}`);
    await row.getByRole('button', { name: `Show API key of ${player.name}` }).click();
    expect(await row.getByTestId('api-key').innerText()).toBe(oldKey);
    await row.getByRole('button', { name: `Hide API key of ${player.name}` }).click();

    await row.getByRole('button', { name: `Regenerate Key of ${player.name}` }).click();
    const dialog = alertDialogNamed(page, 'Regenerate API Key');
    await expectVisible(dialog);
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    await dialog.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expectToast(page, 'API Key Regenerated');
    const shown = await toast(page)
      .getByText(/^New API key for Kira Keys: /)
      .innerText();
    const current = await suite.app.call('GET', '/api/user', { token: player.token });
    const newKey = (current.body as User).apiKey as string;
    expect(newKey).not.toBe(oldKey);
    expect(shown).toBe(`New API key for Kira Keys: ${newKey}`);
    await screenshot(page, 'admin-key-regenerated');
    // Still there after the default 5 s; closing after 10 s (then gone once time runs again).
    const keyToast = toast(page).filter({ hasText: shown });
    await page.clock.runFor(6_500);
    expect(await keyToast.getAttribute('data-state')).toBe('open');
    await page.clock.runFor(3_600);
    expect(await keyToast.getAttribute('data-state')).toBe('closed');
    await page.clock.resume();
    await expectHidden(keyToast);
    await expect.poll(() => row.getByTestId('api-key').innerText()).toBe(`${newKey.slice(0, 8)}…${newKey.slice(-4)}`);

    // The Audit Logs tab has the regeneration; a further action elsewhere appears at once. (A fresh
    // page: the confirm dialog's exit animation, begun while the clock was paused, never finishes.)
    await page.goto(`${suite.app.url}/admin?tab=audit`);
    const entries = mainArea(page).getByTestId('audit-entry');
    const regenerated = entries
      .filter({ hasText: 'admin.key_regenerated' })
      .filter({ hasText: player.user.id.slice(0, 8) });
    await expectVisible(regenerated);
    await expectVisible(regenerated.getByText(`by ${suite.firstAccount.username}`));

    const again = await suite.app.call('POST', `/api/admin/users/${player.user.id}/regenerate-key`, {
      token: suite.firstAccount.token,
    });
    expect(again.status).toBe(200);
    // Live: far sooner than the audit log's 30 s polling.
    await expect.poll(() => regenerated.count(), { timeout: 5_000 }).toBe(2);
    expect(await entries.first().innerText()).toContain('admin.key_regenerated');
    await screenshot(page, 'admin-audit');
  }, 60_000);

  it("promotes and demotes admins; the last admin's demotion is refused with the server's reason", async () => {
    suite.browser.allowConsoleErrors(CONFLICT);
    const player = await createUser(suite.app, { name: 'Rosa Roles' });
    const page = await suite.browser.newPage();
    await openAdmin(page, 'users');

    // The first account is the only admin: it cannot demote itself.
    const self = await reachUserRow(page, suite.firstAccount.name);
    await self.getByRole('button', { name: `Remove Admin: ${suite.firstAccount.name}` }).click();
    const removeDialog = alertDialogNamed(page, 'Remove Admin Access');
    await expectVisible(removeDialog.getByText('You will lose access to the Admin Panel.'));
    await removeDialog.getByRole('button', { name: 'Remove Admin', exact: true }).click();
    await expectToast(page, 'Failed', ERRORS.lastAdmin);
    await expectHidden(removeDialog);
    await expectVisible(self.getByText('Admin', { exact: true }));

    const row = await reachUserRow(page, player.name);
    await row.getByRole('button', { name: `Make Admin: ${player.name}` }).click();
    const grantDialog = alertDialogNamed(page, 'Grant Admin Access');
    // The browser asks for reduced motion: the backdrop does not animate, so it leaves at once.
    const backdrop = page.locator('[data-scope="dialog"][data-part="backdrop"]');
    expect(await backdrop.evaluate((element) => getComputedStyle(element).animationDuration)).toBe('0s');
    await grantDialog.getByRole('button', { name: 'Make Admin', exact: true }).click();
    await expectToast(page, 'Role Updated', `${player.name} is now an admin.`);
    await expectHidden(grantDialog);
    await expectHidden(backdrop);
    await expectVisible(row.getByText('Admin', { exact: true }));
    expect((await suite.app.call('GET', '/api/user', { token: player.token })).body).toMatchObject({ isAdmin: true });
    await screenshot(page, 'admin-users');

    // Back to one admin, so the other tests' assumptions hold.
    await row.getByRole('button', { name: `Remove Admin: ${player.name}` }).click();
    await alertDialogNamed(page, 'Remove Admin Access')
      .getByRole('button', { name: 'Remove Admin', exact: true })
      .click();
    await expectToast(page, 'Role Updated', `${player.name} is no longer an admin.`);
    await expectHidden(row.getByText('Admin', { exact: true }));
    expect((await suite.app.call('GET', '/api/user', { token: player.token })).body).toMatchObject({ isAdmin: false });
  });

  it('every tab, in the dark and the light theme', async () => {
    const player = await createUser(suite.app, { name: 'Theo Themes' });
    startGame(player, { serverId: 'e2e-themes', health: 75 });
    for (const theme of ['dark', 'light'] as const) {
      const page = await suite.browser.newPage();
      await useTheme(page, theme);
      await openAdmin(page, 'users');
      expect(await page.evaluate(() => document.documentElement.className)).toContain(theme);
      for (const [name, label, list] of [
        ['users', /^Users \(\d+\)$/, 'Users'],
        ['connections', /^Connections \(\d+\)$/, 'Connections'],
        ['mass', /^Mass Execution$/, 'Selected users'],
        ['executions', /^Recent Executions \(\d+\)$/, 'Recent Executions'],
        ['audit', /^Audit Logs$/, 'Audit Logs'],
      ] as const) {
        await tab(page, label).click();
        await expectPath(page, '/admin', `?tab=${name}`);
        await expectVisible(mainArea(page).getByRole('region', { name: list, exact: true }));
        if (name === 'connections') await expectVisible(connectionCard(page, player.name));
        await screenshot(page, `admin-${name}-${theme}`);
      }
      await page.close();
    }
  }, 60_000);
});
