import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API_KEY_ERRORS } from '@moonrelay/contract/api-keys';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { alertDialogNamed, dialogNamed, expectSignedIn, expectToast, mainArea } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();

async function openSettings(page: Page, user: TestUser) {
  await signInAs(page, suite.app, user, '/settings');
  await expectSignedIn(page, user.name);
  await expectVisible(mainArea(page).getByRole('heading', { name: 'API keys', exact: true }));
}

const keyCard = (page: Page, name: string) => mainArea(page).getByRole('listitem', { name, exact: true });

describe('scoped API keys in Settings', () => {
  it('creates a key that reads scripts, which is refused a change, then revokes it', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Scoped Sally' });
    const created = await suite.app.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Kept', code: 'print("kept")' },
    });
    expect(created.status).toBe(200);
    await openSettings(page, user);

    // By keyboard: open the form, name the key, and choose its scopes with Space.
    const create = mainArea(page).getByRole('button', { name: 'Create API key', exact: true });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = dialogNamed(page, 'Create API key');
    await expectVisible(dialog);
    await dialog.getByRole('textbox', { name: 'Name' }).focus();
    await page.keyboard.type('Reader');
    await dialog.getByRole('checkbox', { name: /^game/ }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('checkbox', { name: /^scripts:read/ }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: /^game/ }).isChecked()).toBe(false);
    await screenshot(page, 'settings-api-key-create');
    await dialog.getByRole('button', { name: 'Create key', exact: true }).focus();
    await page.keyboard.press('Enter');

    // Shown once.
    const shown = dialogNamed(page, 'API key created');
    const keyField = shown.getByRole('textbox', { name: 'New API key' });
    await expectVisible(keyField);
    const key = await keyField.inputValue();
    expect(key).toMatch(/^mr_/);
    await screenshot(page, 'settings-api-key-shown-once');
    await shown.getByRole('button', { name: 'Done', exact: true }).click();
    await expectHidden(shown);

    const card = keyCard(page, 'Reader');
    await expectVisible(card);
    await expectVisible(card.getByText(`${key.slice(0, 8)}…${key.slice(-4)}`));
    await expectVisible(card.getByText('scripts:read', { exact: true }));
    expect(await page.getByText(key, { exact: true }).count()).toBe(0);

    // Allowed within its scope; refused outside it, naming the scope.
    const list = await suite.app.call('GET', '/api/scripts', { token: key });
    expect(list.status).toBe(200);
    const write = await suite.app.call('PUT', `/api/scripts/${created.body.id as string}`, {
      token: key,
      body: { code: 'print("planted")' },
    });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: `${API_KEY_ERRORS.scopeMissingPrefix}scripts:write` });

    // Its use shows after a reload.
    await page.reload();
    await expectVisible(keyCard(page, 'Reader').getByText(/Last used .* from 127\.0\.0\.1/));
    await screenshot(page, 'settings-api-keys');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'settings-api-keys-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await keyCard(page, 'Reader').getByRole('button', { name: 'Revoke Reader', exact: true }).click();
    const confirm = alertDialogNamed(page, 'Revoke API key');
    await expectVisible(confirm);
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expectToast(page, 'API Key Revoked', 'Reader no longer works.');
    await expectHidden(keyCard(page, 'Reader'));
    const after = await suite.app.call('GET', '/api/scripts', { token: key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: API_KEY_ERRORS.revoked });
  });

  it("an admin sees a user's keys and revokes one by keyboard", async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Keyed Kim' });
    // Opening the Integration panel makes the game key, as the dashboard does.
    const scripts = await suite.app.call('GET', '/api/game/integration-scripts', { token: user.token });
    const gameKey = /key=(mr_\w+)/.exec(scripts.body.quickLoader as string)![1]!;
    expect((await suite.app.call('POST', '/api/game/ping', { body: { key: gameKey } })).status).toBe(200);

    await signInAs(page, suite.app, suite.firstAccount, '/admin?tab=users');
    await expectSignedIn(page, suite.firstAccount.name);
    const row = mainArea(page)
      .getByTestId('admin-user-row')
      .filter({ has: page.getByText('Keyed Kim', { exact: true }) });
    await row.getByRole('button', { name: 'API keys of Keyed Kim', exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = dialogNamed(page, 'API keys of Keyed Kim (@' + user.username + ')');
    const card = dialog.getByRole('listitem', { name: 'Game (integration scripts)', exact: true });
    await expectVisible(card);
    await expectVisible(card.getByText('game', { exact: true }));
    await screenshot(page, 'admin-user-api-keys');
    await card.getByRole('button', { name: 'Revoke Game (integration scripts)', exact: true }).focus();
    await page.keyboard.press('Enter');
    const confirm = alertDialogNamed(page, 'Revoke API key');
    await expectVisible(confirm);
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectVisible(dialog.getByText('No API keys yet.'));
    const ping = await suite.app.call('POST', '/api/game/ping', { body: { key: gameKey } });
    expect(ping.status).toBe(401);
    expect(ping.body).toEqual({ error: API_KEY_ERRORS.revoked });
  });
});
