import type { Page } from 'playwright-core';
import { browserSuite } from './support/suite.ts';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';

import { expectHidden, expectPath, expectVisible, storageItem } from './support/expect.ts';
import { expectSignedIn, expectSignInScreen, mainArea, sidebarLink } from './support/ui.ts';

/** The sidebar's entries for every signed-in user (spec section 2), in order. */
const ENTRIES = [
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Script Editor', path: '/editor' },
  { label: 'My Scripts', path: '/scripts' },
  { label: 'Runs', path: '/runs' },
  { label: 'Console', path: '/console' },
  { label: 'ScriptBlox', path: '/scriptblox' },
  { label: 'API Docs', path: '/api-docs' },
  { label: 'Analytics', path: '/analytics' },
  { label: 'Settings', path: '/settings' },
];

const COMING_LATER = 'This screen is coming with a later release of Moonrelay.';
/** This suite has no stand-in for the script catalogue: its calls answer 502 (catalogue.spec.ts has one). */
const CATALOGUE_UNAVAILABLE = /status of 502 \(Bad Gateway\) \[[^\]]*\/api\/scriptblox\//;

/** Chromium logs each API call the revoked token gets a 401 for. */
const API_UNAUTHORIZED = /status of 401 \(Unauthorized\) \[[^\]]*\/api\/[^\]]*\]$/;
/**
 * The server closes the live socket of a session it revoked. A long-poll the page sent at that very
 * moment carries a socket id the server has just forgotten, and Socket.IO answers it 400: the close
 * working as meant, which Chromium logs.
 */
const SOCKET_SESSION_CLOSED = /status of 400 \(Bad Request\) \[[^\]]*\/socket\.io\/\?[^\]]*&sid=[^\]]*\]$/;

const suite = browserSuite();

/** The entry the sidebar marks as the current page, by its label. */
async function currentEntry(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]');
  return (await links.allInnerTexts()).map((text) => text.trim());
}

describe('navigation', () => {
  it("an unknown route shows '404' and 'Page Not Found' inside the app", async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user, '/nope');
    await expectSignedIn(page, user.name);
    await expectVisible(mainArea(page).getByRole('heading', { name: '404', exact: true }));
    await expectVisible(mainArea(page).getByText('Page Not Found', { exact: true }));
    await expectPath(page, '/nope');
    expect(await currentEntry(page)).toEqual([]);
    await screenshot(page, 'not-found');

    await mainArea(page).getByRole('link', { name: 'Back to the dashboard' }).click();
    await expectPath(page, '/dashboard');
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
  });

  it('every sidebar entry opens its path and is marked as the current page', async () => {
    suite.browser.allowConsoleErrors(CATALOGUE_UNAVAILABLE);
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user, '/');
    await expectSignedIn(page, user.name);
    // The root path counts as the dashboard entry.
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
    expect(await currentEntry(page)).toEqual(['Dashboard']);
    // Not an admin: no Admin Panel entry.
    await expectHidden(sidebarLink(page, 'Admin Panel'));

    // Every entry from a page that is not its own (the dashboard entry last, coming from Settings).
    for (const { label, path } of [...ENTRIES.slice(1), ENTRIES[0] as (typeof ENTRIES)[number]]) {
      await sidebarLink(page, label).click();
      await expectPath(page, path);
      await expect.poll(() => currentEntry(page), { message: `${label} is the current entry` }).toEqual([label]);
      await expectHidden(mainArea(page).getByText('Page Not Found', { exact: true }));
    }
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
  });

  it("the admin's Admin Panel entry opens /admin", async () => {
    const page = await suite.browser.newPage();
    await signInAs(page, suite.app, suite.firstAccount, '/dashboard');
    await expectSignedIn(page, suite.firstAccount.name);
    await sidebarLink(page, 'Admin Panel').click();
    await expectPath(page, '/admin');
    // The Admin Panel is a lazy chunk: the sidebar marks its entry once the screen has loaded.
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Admin Panel', exact: true }));
    await expect.poll(() => currentEntry(page)).toEqual(['Admin Panel']);
    await expectVisible(mainArea(page).getByText('Admin Access', { exact: true }));
  });

  it('/scriptblox shows the script catalogue (its own suite is catalogue.spec.ts)', async () => {
    suite.browser.allowConsoleErrors(CATALOGUE_UNAVAILABLE);
    const page = await suite.browser.newPage();
    await signInAs(page, suite.app, suite.firstAccount, '/dashboard');
    await expectSignedIn(page, suite.firstAccount.name);
    await page.goto(suite.app.url + '/scriptblox');
    await expectSignedIn(page, suite.firstAccount.name);
    await expectVisible(mainArea(page).getByRole('heading', { name: 'ScriptBlox', exact: true }));
    await expectVisible(mainArea(page).getByRole('search'));
    await expectHidden(mainArea(page).getByText(COMING_LATER, { exact: true }));
    await expectPath(page, '/scriptblox');
  });

  it('a token the server revoked sends the app back to the sign-in screen', async () => {
    suite.browser.allowConsoleErrors(API_UNAUTHORIZED, SOCKET_SESSION_CLOSED);
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user, '/dashboard');
    await expectSignedIn(page, user.name);

    const logout = await suite.app.call('POST', '/api/auth/logout', { token: user.token });
    expect(logout.status).toBe(200);
    await page.reload();

    await expectSignInScreen(page);
    await expect.poll(() => storageItem(page, 'token')).toBeNull();
    expect(await storageItem(page, 'user')).toBeNull();
    await expectHidden(page.getByText(user.name, { exact: true }));
  });
});
