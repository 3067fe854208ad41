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
