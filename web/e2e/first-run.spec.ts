import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, uniqueUserFields, type E2EApp } from './support/app.ts';
import { launchBrowser, screenshot, type E2EBrowser } from './support/browser.ts';
import { ensureWebBuilt } from './support/build.ts';
import { expectVisible } from './support/expect.ts';
import { expectSignedIn, registerPanel, sidebarLink } from './support/ui.ts';

const FIRST_ACCOUNT_NOTE = 'No account exists yet: the first account you create becomes the admin of this Moonrelay.';

/** A fresh instance, with no account at all (browserSuite registers one up front, so not that). */
describe('the first run', () => {
  let app: E2EApp;
  let browser: E2EBrowser;
  beforeAll(async () => {
    await ensureWebBuilt();
    app = await startApp();
    browser = await launchBrowser({ origin: app.url });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('opens on Register saying the first account becomes the admin, and the account made there is', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    const register = page.getByRole('tab', { name: 'Register', exact: true });
    await expectVisible(page.getByText(FIRST_ACCOUNT_NOTE, { exact: true }));
    await expect.poll(() => register.getAttribute('aria-selected')).toBe('true');
    const panel = registerPanel(page);
    await expectVisible(panel.getByRole('button', { name: 'Create account', exact: true }));
    await screenshot(page, 'first-run-register-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(page.getByText(FIRST_ACCOUNT_NOTE, { exact: true }));
    await screenshot(page, 'first-run-register-390');

    const fields = uniqueUserFields({ name: 'Founding Admin' });
    await panel.getByLabel('Email', { exact: true }).fill(fields.email);
    await panel.getByLabel('Username', { exact: true }).fill(fields.username);
    await panel.getByLabel('Name', { exact: true }).fill(fields.name);
    await panel.getByLabel('Password', { exact: true }).fill(fields.password);
    await panel.getByLabel('Confirm password', { exact: true }).fill(fields.password);
    await panel.getByRole('button', { name: 'Create account', exact: true }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectSignedIn(page, fields.name);
    await expectVisible(sidebarLink(page, 'Admin Panel'));

    // Signed out, the next visitor meets Login: the instance has its admin now.
    const next = await browser.newPage();
    await next.goto(app.url);
    await expectVisible(next.getByRole('button', { name: 'Login', exact: true }));
    await expect
      .poll(() => next.getByRole('tab', { name: 'Login', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await next.getByText(FIRST_ACCOUNT_NOTE).count()).toBe(0);
  });
});
