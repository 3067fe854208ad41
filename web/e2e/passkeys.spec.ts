import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, expectSignInScreen, loginPanel, mainArea } from './support/ui.ts';

const suite = browserSuite();

/**
 * Chromium's virtual authenticator on this page (DevTools protocol): a platform authenticator that
 * holds resident keys and verifies its user at once, so the page's passkey prompts are answered
 * without anyone touching a sensor. Answers a reader of the credentials it holds.
 */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

/**
 * WebAuthn needs a secure context and a relying party id that is a domain: http://localhost is
 * both, the suite's http://127.0.0.1 is not a domain. The server takes localhost from the Host header
 * (it is one of PUBLIC_HOSTS by default), so the passkey is made for http://localhost:<port>.
 */
const onLocalhost = (url: string) => url.replace('://127.0.0.1:', '://localhost:');

describe('passkeys', () => {
  it('are added in Settings through the browser prompt, listed, then sign in after the password, and alone', async () => {
    const app = { ...suite.app, url: onLocalhost(suite.app.url) };
    const user = await createUser(suite.app, { name: 'Passkey Pat' });
    const page = await suite.browser.newPage();
    const credentials = await addVirtualAuthenticator(page);
    await signInAs(page, app, user, '/settings');
    await expectSignedIn(page, user.name);

    const main = mainArea(page);
    await expectVisible(main.getByText(TWO_FACTOR.passkeysNone, { exact: true }));
    await main.getByRole('button', { name: TWO_FACTOR.addPasskey }).click();
    await main.getByLabel(TWO_FACTOR.passkeyName, { exact: true }).fill('This laptop');
    await main.getByLabel(TWO_FACTOR.passkeyProof, { exact: true }).fill(user.password);
    await main.getByRole('button', { name: TWO_FACTOR.passkeyCreate, exact: true }).click();

    const list = main.getByTestId('passkey-list');
    await expectVisible(list.getByText('This laptop', { exact: true }));
    await expectVisible(list.getByText(TWO_FACTOR.passkeyNeverUsed, { exact: false }));
    await expect.poll(() => main.getByTestId('two-factor-state').innerText()).toBe(TWO_FACTOR.statusOn);
    const [made] = await credentials();
    expect(made).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
    const countAfterRegistration = made!.signCount;

    for (const [name, width, height] of [
      ['passkeys-settings', 1440, 900],
      ['passkeys-settings-phone', 390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await list.scrollIntoViewIfNeeded();
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // Signed out: the password is right, and the passkey is asked for next, on this same device.
    await page.evaluate(() => localStorage.clear());
    await page.goto(app.url + '/');
    await expectSignInScreen(page);
    const panel = loginPanel(page);
    await panel.getByLabel('Email or username', { exact: true }).fill(user.username);
    await panel.getByLabel('Password', { exact: true }).fill(user.password);
    await panel.getByRole('button', { name: 'Login', exact: true }).click();
    const usePasskey = panel.getByRole('button', { name: TWO_FACTOR.stepUsePasskey });
    await expectVisible(usePasskey);
    // No authenticator app: no code field.
    expect(await panel.getByLabel(TWO_FACTOR.stepCode, { exact: true }).count()).toBe(0);
    await screenshot(page, 'passkeys-sign-in-step');
    await usePasskey.click();
    await expectSignedIn(page, user.name);

    // The authenticator signed once more, and Settings shows the passkey as used.
    const [used] = await credentials();
    expect(used!.signCount).toBeGreaterThan(countAfterRegistration);
    await page.goto(app.url + '/settings');
    await expectVisible(
      mainArea(page)
        .getByTestId('passkey-list')
        .getByText(/last used/),
    );

    // Signed out again: the passkey alone signs in (it verifies its user), no password typed.
    await page.evaluate(() => localStorage.clear());
    await page.goto(app.url + '/');
    await expectSignInScreen(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'passkeys-sign-in-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'passkeys-sign-in');
    await loginPanel(page).getByRole('button', { name: TWO_FACTOR.signInWithPasskey }).click();
    await expectSignedIn(page, user.name);
    const [again] = await credentials();
    expect(again!.signCount).toBeGreaterThan(used!.signCount);
  });
});
