import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeOpenCloud } from '../../server/test/fake-open-cloud.ts';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { expectSignedIn, expectToast, mainArea } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

const roblox = fakeOpenCloud();
const UNIVERSE = '5795192361';
const KEY = 'rbxoc_browserKey_1234567890abcdefWXYZ';
const SECOND_KEY = 'rbxoc_secondKey_0987654321zyxwvuQRST';
roblox.addKey(KEY, UNIVERSE);
roblox.addKey(SECOND_KEY, UNIVERSE);
const suite = browserSuite(async () => ({ ROBLOX_OPEN_CLOUD_URL: await roblox.start() }));
afterAll(() => roblox.stop());

const card = (page: Page) => mainArea(page).locator('#open-cloud');

describe('Settings → Roblox Open Cloud', () => {
  it('refuses a key Roblox refuses, saves one it accepts masked, replaces it and removes it', async () => {
    const page = await suite.browser.newPage();
    // The refused key's 400, which the card shows.
    suite.browser.allowConsoleErrors(/status of 400/);
    const user = await createUser(suite.app, { name: 'Banning Bea' });
    await signInAs(page, suite.app, user, '/settings');
    await expectSignedIn(page, user.name);
    const form = card(page).getByRole('form', { name: 'Open Cloud key' });
    await form.getByRole('textbox', { name: 'Universe ID' }).fill(UNIVERSE);
    await form.getByLabel('Open Cloud API key').fill('rbxoc_not_a_key_roblox_knows_000000');
    await form.getByRole('button', { name: 'Save key' }).click();
    await expectVisible(form.getByText(/Roblox refused this API key.*Invalid API Key/));
    await screenshot(page, 'settings-open-cloud-refused');

    await form.getByLabel('Open Cloud API key').fill(KEY);
    await form.getByRole('button', { name: 'Save key' }).click();
    await expectToast(page, 'Open Cloud key saved');
    const shown = card(page).getByTestId('open-cloud-key');
    await expectVisible(shown.getByText('rbxo…WXYZ'));
    expect(await page.getByText(KEY).count()).toBe(0);
    await screenshot(page, 'settings-open-cloud-saved');

    await card(page).getByRole('button', { name: 'Replace' }).click();
    await card(page).getByLabel('Open Cloud API key').fill(SECOND_KEY);
    await card(page).getByRole('button', { name: 'Replace key' }).click();
    await expectVisible(shown.getByText('rbxo…QRST'));

    await card(page).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expectToast(page, 'Open Cloud key removed');
    await expectHidden(shown);
    await expectVisible(card(page).getByRole('button', { name: 'Save key' }));
  });
});

describe('Players → Bans', () => {
  it("lists Moonrelay's bans and those made elsewhere, and lifts one made elsewhere through Open Cloud", async () => {
    const user = await createUser(suite.app, { name: 'Desk Dana' });
    const token = user.token;
    const saved = await suite.app.call('PUT', '/api/open-cloud/key', {
      token,
      body: { universeId: UNIVERSE, apiKey: KEY },
    });
    expect(saved.status, saved.text).toBe(200);
    const seen = await suite.app.call('POST', '/api/game/ping', {
      body: {
        key: user.user.apiKey,
        serverId: 'srv-bans',
        roster: {
          count: 2,
          players: [
            { userId: 9101, name: 'speedrunner', displayName: 'Speedy' },
            { userId: 9102, name: 'griefer', displayName: 'Grief' },
          ],
        },
      },
    });
    expect(seen.status, seen.text).toBe(200);
    const ours = await suite.app.call('POST', '/api/players/9101/ban', {
      token,
      body: { durationSeconds: 86400, displayReason: 'Speed hacking' },
    });
    expect(ours.status, ours.text).toBe(200);
    roblox.addLog(UNIVERSE, {
      user: 'users/9102',
      moderator: { robloxUser: 'users/261' },
      createTime: '2026-11-27T12:00:00.000Z',
      active: true,
      startTime: '2026-11-27T12:00:00.000Z',
      privateReason: 'From Creator Hub',
      displayReason: 'Griefing the spawn',
      excludeAltAccounts: false,
    });
    expect((await suite.app.call('POST', '/api/bans/import', { token })).status).toBe(200);

    const page = await suite.browser.newPage();
    await signInAs(page, suite.app, user, '/players?tab=bans');
    await expectSignedIn(page, user.name);
    const main = mainArea(page);
    const ourRow = main.getByTestId('ban-row').filter({ hasText: 'speedrunner' });
    await expectVisible(ourRow.getByText('Speed hacking'));
    await expectVisible(ourRow.getByText('Open Cloud'));
    await expectVisible(ourRow.getByText('applied'));
    await expectVisible(ourRow.getByText('1 day'));
    const elsewhereRow = main.getByTestId('ban-elsewhere-row').filter({ hasText: 'griefer' });
    await expectVisible(elsewhereRow.getByText('Griefing the spawn'));
    await expectVisible(elsewhereRow.getByText('permanent'));
    await screenshot(page, 'players-bans');

    // By keyboard: the player's button opens their record, which offers to lift the ban.
    await elsewhereRow.getByRole('button', { name: 'Open griefer' }).focus();
    await page.keyboard.press('Enter');
    const record = page.getByTestId('player-record');
    await expectVisible(record.getByTestId('ban-elsewhere').getByText(/Griefing the spawn/));
    expect(await record.getByRole('button', { name: 'Ban', exact: true }).count()).toBe(0);
    await screenshot(page, 'players-ban-elsewhere');
    await record.getByRole('button', { name: 'Unban' }).click();
    const dialog = page.getByTestId('moderation-dialog');
    await dialog.getByRole('button', { name: 'Unban' }).click();
    const entry = record.getByTestId('moderation-entry').first();
    await expectVisible(entry.getByText('Unban'));
    await expect.poll(() => entry.getByTestId('moderation-state').innerText(), { timeout: 10_000 }).toBe('applied');
    expect(roblox.restriction(UNIVERSE, '9102')).toMatchObject({ gameJoinRestriction: { active: false } });
    await expectVisible(record.getByRole('button', { name: 'Ban', exact: true }));
    await page.keyboard.press('Escape');
    await expectHidden(record);
    await expectHidden(elsewhereRow);
    await expectVisible(main.getByText('None found at the last Open Cloud import.'));

    // At phone width the tables scroll inside themselves; the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(ourRow);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'players-bans-phone');
  }, 60_000);
});
