import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectFieldError, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, expectSignInScreen, loginPanel, mainArea } from './support/ui.ts';

/** Chromium logs the refused code (401) on the console; the wrong-code step expects it. */
const CODE_REJECTED = /status of 401 \(Unauthorized\) \[[^\]]*\/api\/auth\/login\/two-factor\]$/;

const suite = browserSuite();

/** The code an authenticator app shows `offsetSteps` steps of 30 seconds from now. */
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

describe('two-factor sign-in', () => {
  it('is set up in Settings with the key and a code, shows the recovery codes once, then asks for a code at sign-in', async () => {
    suite.browser.allowConsoleErrors(CODE_REJECTED);
    const user = await createUser(suite.app, { name: 'Careful Cam' });
    const settings = await suite.browser.newPage();
    await signInAs(settings, suite.app, user, '/settings');
    await expectSignedIn(settings, user.name);

    const main = mainArea(settings);
    await main.getByRole('button', { name: TWO_FACTOR.setUp, exact: true }).click();
    await main.getByLabel(TWO_FACTOR.currentPassword, { exact: true }).fill(user.password);
    await main.getByRole('button', { name: TWO_FACTOR.continue, exact: true }).click();
    await expectVisible(main.getByRole('img', { name: TWO_FACTOR.qrAlt }));
    const secret = (await main.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(settings, 'two-factor-setup');

    await main.getByLabel(TWO_FACTOR.confirmCode, { exact: true }).fill(await codeAt(secret));
    await main.getByRole('button', { name: TWO_FACTOR.confirm, exact: true }).click();
    const codes = main.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    // First that it is on, then the codes to save: in that order, in the panel itself.
    const panelText = await main.getByTestId('recovery-codes').innerText();
    expect(panelText.indexOf(TWO_FACTOR.turnedOn)).toBeGreaterThanOrEqual(0);
    expect(panelText.indexOf(TWO_FACTOR.turnedOn)).toBeLessThan(panelText.indexOf(TWO_FACTOR.recoveryTitle));
    const recoveryCodes = await codes.allInnerTexts();
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    await screenshot(settings, 'two-factor-recovery-codes');
    await main.getByRole('button', { name: TWO_FACTOR.savedCodes, exact: true }).click();
    await expect.poll(() => main.getByTestId('two-factor-state').innerText()).toBe(TWO_FACTOR.statusOn);
    await expectVisible(main.getByText(TWO_FACTOR.recoveryCodesLeft(10), { exact: true }));
    await settings.close();

    // Signed out: the password is right, and a code is asked for next.
    const page = await suite.browser.newPage();
    await page.goto(suite.app.url + '/');
    await expectSignInScreen(page);
    const panel = loginPanel(page);
    await panel.getByLabel('Email or username', { exact: true }).fill(user.username);
    await panel.getByLabel('Password', { exact: true }).fill(user.password);
    await panel.getByRole('button', { name: 'Login', exact: true }).click();
    const codeField = panel.getByLabel(TWO_FACTOR.stepCode, { exact: true });
    await expectVisible(codeField);
    await screenshot(page, 'two-factor-sign-in-step');

    await codeField.fill('000000');
    await codeField.press('Enter');
    await expectFieldError(codeField, TWO_FACTOR.wrongCode);
    await codeField.fill(await codeAt(secret, 1));
    await codeField.press('Enter');
    await expectSignedIn(page, user.name);

    // The phone is lost: a recovery code turns it off in Settings, typed into the same field as a password.
    await page.goto(suite.app.url + '/settings');
    const settingsMain = mainArea(page);
    await settingsMain.getByRole('button', { name: TWO_FACTOR.turnOff, exact: true }).click();
    const proof = settingsMain.getByLabel(TWO_FACTOR.turnOffProof, { exact: true });
    await proof.fill(recoveryCodes[0]!.toLowerCase());
    await settingsMain.getByRole('button', { name: TWO_FACTOR.turnOff, exact: true }).click();
    await expect.poll(() => settingsMain.getByTestId('two-factor-state').innerText()).toBe(TWO_FACTOR.statusOff);
  });
});
