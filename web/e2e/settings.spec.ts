import type { Page } from 'playwright-core';
import { browserSuite } from './support/suite.ts';
import { describe, expect, it } from 'vitest';
import type { User } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';

import { expectHidden, expectPath, expectVisible, storageItem } from './support/expect.ts';
import {
  alertDialogNamed,
  expectSignedIn,
  expectSignInScreen,
  expectToast,
  mainArea,
  sidebarLink,
} from './support/ui.ts';

/** What the Delete Account confirmation lists (spec section 2), compared case-insensitively. */
const LOST_WITH_ACCOUNT = [
  'scripts and versions',
  'execution history and logs',
  'api keys and tokens',
  'scheduled scripts and shares',
];

const suite = browserSuite();

/** Spec section 9: first 8 characters, an ellipsis, last 4. */
const masked = (key: string) => `${key.slice(0, 8)}…${key.slice(-4)}`;

/** The account creation date as the screen writes it (the browser runs in this machine's zone). */
const createdOn = (iso: string) => new Date(iso).toLocaleDateString('en', { dateStyle: 'medium' });

const field = (page: Page, label: string) => mainArea(page).getByLabel(label, { exact: true });
const apiKeyField = (page: Page) => field(page, 'API key');
const darkModeSwitch = (page: Page) => mainArea(page).getByRole('checkbox', { name: 'Dark mode', exact: true });
const htmlClasses = (page: Page) => page.evaluate(() => [...document.documentElement.classList]);

async function openSettings(page: Page, user: TestUser) {
  await signInAs(page, suite.app, user, '/settings');
  await expectSignedIn(page, user.name);
  await expectVisible(mainArea(page).getByRole('heading', { name: 'Settings', exact: true }));
}

/** Calls GET /api/scripts with this credential (a session token or an API key) as Bearer. */
const listScriptsWith = (credential: string) => suite.app.call('GET', '/api/scripts', { token: credential });

describe('settings', () => {
  it('shows the profile and the masked API key; Show reveals the key and Hide masks it again', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Settings Sam' });
    const apiKey = user.user.apiKey as string;
    expect(apiKey.length).toBeGreaterThan(12);
    await openSettings(page, user);

    await expectVisible(mainArea(page).getByRole('link', { name: 'Back to Dashboard' }));
    await expect.poll(() => field(page, 'Name').inputValue()).toBe('Settings Sam');
    expect(await field(page, 'Email').inputValue()).toBe(user.email);
    expect(await field(page, 'Account created').inputValue()).toBe(createdOn(user.user.createdAt));
    // Profile fields are read-only (spec section 5); no Google ID for a password account.
    for (const label of ['Name', 'Email', 'Account created']) {
      expect(await field(page, label).getAttribute('readonly'), label).not.toBeNull();
    }
    await expectHidden(field(page, 'Google ID'));

    await expect.poll(() => apiKeyField(page).inputValue()).toBe(masked(apiKey));
    await screenshot(page, 'settings');

    await mainArea(page).getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => apiKeyField(page).inputValue()).toBe(apiKey);
    await mainArea(page).getByRole('button', { name: 'Hide', exact: true }).click();
    await expect.poll(() => apiKeyField(page).inputValue()).toBe(masked(apiKey));
    await expectVisible(mainArea(page).getByRole('button', { name: 'Show', exact: true }));

    await mainArea(page).getByRole('link', { name: 'Back to Dashboard' }).click();
    await expectPath(page, '/dashboard');
  });

  it('Regenerate API Key replaces the key: the old one is refused, the new one works', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    const oldKey = user.user.apiKey as string;
    expect((await listScriptsWith(oldKey)).status).toBe(200);
    await openSettings(page, user);
    await expect.poll(() => apiKeyField(page).inputValue()).toBe(masked(oldKey));

    const regenerateButton = mainArea(page).getByRole('button', { name: 'Regenerate API Key', exact: true });
    const confirmation = alertDialogNamed(page, 'Regenerate API Key');
    // Cancel changes nothing.
    await regenerateButton.click();
    await expectVisible(confirmation);
    await confirmation.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(confirmation);
    expect(await apiKeyField(page).inputValue()).toBe(masked(oldKey));
    expect((await listScriptsWith(oldKey)).status).toBe(200);

    await regenerateButton.click();
    await expectVisible(confirmation);
    await expectVisible(
      confirmation.getByText('Your current API key will stop working immediately.', { exact: false }),
    );
    await screenshot(page, 'settings-regenerate-dialog');
    await confirmation.getByRole('button', { name: 'Regenerate', exact: true }).click();

    await expectToast(
      page,
      'API Key Regenerated',
      'Your new API key is active. Update your game integrations to use it.',
    );
    await expectHidden(confirmation);
    await expect.poll(() => apiKeyField(page).inputValue()).not.toBe(masked(oldKey));

    // The key the server now has is the one the screen shows, and the one stored locally.
    const current = await suite.app.call('GET', '/api/user', { token: user.token });
    expect(current.status).toBe(200);
    const newKey = (current.body as User).apiKey as string;
    expect(newKey).not.toBe(oldKey);
    expect(await apiKeyField(page).inputValue()).toBe(masked(newKey));
    await mainArea(page).getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => apiKeyField(page).inputValue()).toBe(newKey);
    expect((JSON.parse((await storageItem(page, 'user')) ?? '{}') as User).apiKey).toBe(newKey);

    const withOldKey = await listScriptsWith(oldKey);
    expect(withOldKey.status).toBe(401);
    expect(withOldKey.body).toEqual({ error: ERRORS.invalidApiKey });
    expect((await listScriptsWith(newKey)).status).toBe(200);
    // The browser session itself is untouched.
    expect((await listScriptsWith(user.token)).status).toBe(200);
  });

  it('the Dark mode switch stores the theme and applies it, across a reload', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await openSettings(page, user);

    // Dark by default.
    await expect.poll(() => darkModeSwitch(page).isChecked()).toBe(true);
    expect(await htmlClasses(page)).toContain('dark');

    await mainArea(page).getByText('Dark mode', { exact: true }).click();
    await expectToast(page, 'Theme Updated', 'Light mode enabled');
    expect(await darkModeSwitch(page).isChecked()).toBe(false);
    expect(await storageItem(page, 'theme')).toBe('light');
    expect(await htmlClasses(page)).toContain('light');
    expect(await htmlClasses(page)).not.toContain('dark');

    await page.reload();
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Settings', exact: true }));
    await expect.poll(() => darkModeSwitch(page).isChecked()).toBe(false);
    expect(await htmlClasses(page)).toContain('light');
    expect(await htmlClasses(page)).not.toContain('dark');
    expect(await storageItem(page, 'theme')).toBe('light');

    // The whole app follows: the dashboard in light.
    await sidebarLink(page, 'Dashboard').click();
    await expectPath(page, '/dashboard');
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
    await expectVisible(mainArea(page).getByText('No scripts yet. Create your first script to get started.'));
    await screenshot(page, 'dashboard-light');

    await sidebarLink(page, 'Settings').click();
    await expectPath(page, '/settings');
    await expect.poll(() => darkModeSwitch(page).isChecked()).toBe(false);
    await mainArea(page).getByText('Dark mode', { exact: true }).click();
    await expectToast(page, 'Theme Updated', 'Dark mode enabled');
    expect(await darkModeSwitch(page).isChecked()).toBe(true);
    expect(await storageItem(page, 'theme')).toBe('dark');
    expect(await htmlClasses(page)).toContain('dark');
    expect(await htmlClasses(page)).not.toContain('light');
  });

  it('Delete Account lists what is lost, deletes the account and signs out for good', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    const apiKey = user.user.apiKey as string;
    await suite.app.call('POST', '/api/scripts', { token: user.token, body: { name: 'Doomed', code: 'print(1)' } });
    await openSettings(page, user);
    await expectVisible(mainArea(page).getByText('Danger Zone', { exact: true }));

    const confirmation = alertDialogNamed(page, 'Delete Account');
    await mainArea(page).getByRole('button', { name: 'Delete Account', exact: true }).click();
    await expectVisible(confirmation);
    const items = await confirmation.getByRole('listitem').allInnerTexts();
    expect(items.map((item) => item.trim().toLowerCase())).toEqual(LOST_WITH_ACCOUNT);
    await screenshot(page, 'settings-delete-account-dialog');

    // Cancel keeps the account.
    await confirmation.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(confirmation);
    expect((await suite.app.call('GET', '/api/user', { token: user.token })).status).toBe(200);

    await mainArea(page).getByRole('button', { name: 'Delete Account', exact: true }).click();
    await expectVisible(confirmation);
    await confirmation.getByRole('button', { name: 'Delete Account', exact: true }).click();

    await expectToast(page, 'Account Deleted', 'Your account and all of its data have been deleted.');
    await expectSignInScreen(page);
    await expectPath(page, '/');
    expect(await storageItem(page, 'token')).toBeNull();
    expect(await storageItem(page, 'user')).toBeNull();

    // Neither the session nor the API key opens the account any more.
    const bySession = await suite.app.call('GET', '/api/user', { token: user.token });
    expect(bySession.status).toBe(401);
    expect((await listScriptsWith(user.token)).status).toBe(401);
    expect((await listScriptsWith(apiKey)).status).toBe(401);
    // The login is gone too.
    const login = await suite.app.call('POST', '/api/auth/login', {
      body: { emailOrUsername: user.email, password: user.password },
    });
    expect(login.status).toBe(401);
  });
});
