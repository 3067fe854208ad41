import type { Page, WebSocket } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SESSIONS } from '@moonrelay/contract/messages';
import { SESSION_ENDED_NOTICE, SUDO_CANCELLED_MESSAGE } from '../src/lib/notices.ts';
import { SESSIONS_TEXT, SUDO_TEXT } from '../src/features/account/security-text.ts';
import { createUser, type TestUser } from './support/app.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import {
  alertDialogNamed,
  dialogNamed,
  expectSignedIn,
  expectSignInScreen,
  expectToast,
  loginPanel,
  mainArea,
} from './support/ui.ts';

/**
 * Chromium logs every refused call on the console. Expected here: the protected change's first
 * answer (403 sudo_required, which the app turns into the dialog) and the wrong password's 403.
 */
const SUDO_ASKED = /status of 403 \(Forbidden\) \[[^\]]*\/api\/user\/regenerate-key\]$/;
const WRONG_PROOF = /status of 403 \(Forbidden\) \[[^\]]*\/api\/auth\/sudo\]$/;

const suite = browserSuite();

/** Signs in through the login form, as a person in a second browser would. */
async function logIn(page: Page, user: TestUser): Promise<void> {
  await page.goto(suite.app.url + '/');
  const panel = loginPanel(page);
  await panel.getByLabel('Email or username', { exact: true }).fill(user.username);
  await panel.getByLabel('Password', { exact: true }).fill(user.password);
  await panel.getByRole('button', { name: 'Login', exact: true }).click();
  await expectSignedIn(page, user.name);
}

/**
 * Resolves once the page's live socket is up: Socket.IO connects over HTTP polling, then moves to
 * a WebSocket, whose first frame from the server (the upgrade probe's answer) comes after the
 * connection was accepted.
 */
function liveSocketConnected(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket: WebSocket) => {
      if (socket.url().includes('/socket.io/')) socket.once('framereceived', () => resolve());
    });
  });
}

const isFocused = (page: Page, name: string) =>
  page.evaluate((label) => {
    const element = document.activeElement;
    if (!element) return false;
    const labelled = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
    return (labelled ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim() === label;
  }, name);

describe('sessions and confirming it is you', () => {
  it('ends another browser’s session from Settings, and asks for the password once before protected changes', async () => {
    suite.browser.allowConsoleErrors(SUDO_ASKED, WRONG_PROOF);
    const user = await createUser(suite.app, { name: 'Two Browsers Bo' });
    // The registration's own session is not one of the two browsers.
    expect((await suite.app.call('POST', '/api/auth/logout', { token: user.token })).status).toBe(200);

    // Two browsers, each signed in with the password: two sessions of one account.
    const page = await suite.browser.newPage();
    await logIn(page, user);
    const elsewhere = await launchBrowser({ origin: suite.app.url });
    try {
      const other = await elsewhere.newPage();
      const connected = liveSocketConnected(other);
      await logIn(other, user);
      await connected;

      await page.goto(suite.app.url + '/settings');
      const main = mainArea(page);
      const list = main.getByRole('list', { name: SESSIONS_TEXT.listLabel });
      const rows = list.getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(2);
      const current = rows.first();
      await expectVisible(current.getByText(SESSIONS_TEXT.thisDevice, { exact: true }));
      await expectVisible(current.getByText(/^With a password · Signed in /));
      const end = list.getByRole('button', { name: /^End session on / });
      expect(await end.count()).toBe(1);
      await list.scrollIntoViewIfNeeded();
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'settings-sessions');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'settings-sessions-phone');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Ended by keyboard; the other browser shows the sign-in screen as soon as the server closes its socket.
      await end.focus();
      const endedAt = Date.now();
      await page.keyboard.press('Enter');
      await expectSignInScreen(other);
      await expectVisible(other.getByText(SESSION_ENDED_NOTICE, { exact: true }));
      const signOutMs = Date.now() - endedAt;
      // eslint-disable-next-line no-console -- the delay is what this test measures, for the report
      console.log(`[sessions] the ended browser showed the sign-in screen ${signOutMs} ms after End was pressed`);
      expect(await other.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await expectToast(page, SESSIONS.endedOne);
      await expect.poll(() => rows.count()).toBe(1);
      await expectVisible(main.getByText(SESSIONS_TEXT.onlyThis, { exact: true }));
      await screenshot(other, 'signed-out-elsewhere');
      await elsewhere.finishTest();
    } finally {
      await elsewhere.close();
    }

    // Ten minutes later, as far as the server knows: the next protected change asks for a proof.
    await suite.app.endSudo(user.user.id);
    const sudoCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/auth/sudo')) sudoCalls.push(request.method());
    });
    const oldKey = user.user.apiKey as string;
    const regenerate = async () => {
      await mainArea(page).getByRole('button', { name: 'Regenerate API Key', exact: true }).click();
      const confirm = alertDialogNamed(page, 'Regenerate API Key');
      await confirm.getByRole('button', { name: 'Regenerate', exact: true }).click();
      const sudo = dialogNamed(page, SUDO_TEXT.title);
      await expectVisible(sudo);
      return { confirm, sudo };
    };

    // Keyboard alone: the password field has the focus, Tab goes on to Cancel, Confirm and Close,
    // and Escape cancels: nothing changed, and the screen says so.
    let { confirm, sudo } = await regenerate();
    const password = sudo.getByLabel(SUDO_TEXT.password, { exact: true });
    await expect.poll(() => isFocused(page, SUDO_TEXT.password)).toBe(true);
    const stops: boolean[] = [];
    for (const name of [SUDO_TEXT.cancel, SUDO_TEXT.confirm, 'Close', SUDO_TEXT.password]) {
      await page.keyboard.press('Tab');
      stops.push(await isFocused(page, name));
    }
    expect(stops).toEqual([true, true, true, true]);
    await screenshot(page, 'sudo-dialog');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'sudo-dialog-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await expectHidden(sudo);
    await expectToast(page, 'Error', SUDO_CANCELLED_MESSAGE);
    // The confirmation stays open for another try, as after any failure.
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(confirm);
    expect(sudoCalls).toEqual([]);

    // A wrong password is said under the field; the right one, with Enter, lets the change through.
    ({ confirm, sudo } = await regenerate());
    await password.fill('not my password');
    await password.press('Enter');
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    await password.fill(user.password);
    await password.press('Enter');
    await expectHidden(sudo);
    await expectToast(page, 'API Key Regenerated');
    await expectHidden(confirm);
    const newKey = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('user') ?? '{}') as { apiKey?: string }).apiKey,
    );
    expect(newKey).toMatch(/^mr_/);
    expect(newKey).not.toBe(oldKey);
    expect((await suite.app.call('GET', '/api/scripts', { token: newKey })).status).toBe(200);
    expect(sudoCalls).toEqual(['POST', 'POST']);

    // Within the 10 minutes, a second protected change does not ask again.
    await mainArea(page).getByRole('button', { name: 'Create API key', exact: true }).click();
    const create = dialogNamed(page, 'Create API key');
    await create.getByRole('textbox', { name: 'Name' }).fill('Deploy bot');
    await create.getByRole('button', { name: 'Create key', exact: true }).click();
    const shown = dialogNamed(page, 'API key created');
    await expectVisible(shown);
    expect(await dialogNamed(page, SUDO_TEXT.title).count()).toBe(0);
    expect(sudoCalls).toEqual(['POST', 'POST']);
    await shown.getByRole('button', { name: 'Done', exact: true }).click();
  });
});
