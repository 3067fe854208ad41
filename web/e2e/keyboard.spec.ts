import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import {
  codeEditor,
  codeEditorLines,
  dialogNamed,
  executionPane,
  expectSignedIn,
  expectToast,
  loginPanel,
  mainArea,
  registerPanel,
  sidebar,
} from './support/ui.ts';

/**
 * Moonrelay by keyboard alone: Tab, Shift+Tab, Enter, Space and typing, never a mouse click or a
 * focus set by the test. Each step walks the focus to the control a person would reach, and fails
 * naming the control when the walk never gets there.
 */
const suite = browserSuite();

const DEFAULT_CODE = '-- Write your Lua code here...';
/** More Tab presses than any screen has tab stops before its farthest control. */
const MAX_PRESSES = 80;

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, direction: 'forwards' | 'backwards' = 'forwards'): Promise<void> {
  await expectVisible(target);
  for (let presses = 0; presses < MAX_PRESSES; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(direction === 'forwards' ? 'Tab' : 'Shift+Tab');
  }
  throw new Error(
    `${target} was not reached with ${MAX_PRESSES} presses of ${direction === 'forwards' ? '' : 'Shift+'}Tab`,
  );
}

/** What has the focus: its role or tag and its accessible text, to list a walk's stops. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '(page)';
    const name = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText ?? '';
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()} "${name.trim()}"`;
  });

describe('by keyboard alone', () => {
  it('Tab reaches both tabs of the sign-in screen; the unavailable Google button is no tab stop and says why', async () => {
    const page = await suite.browser.newPage();
    await page.goto(suite.app.url + '/');
    const loginTab = page.getByRole('tab', { name: 'Login', exact: true });
    const registerTab = page.getByRole('tab', { name: 'Register', exact: true });
    await expectVisible(loginPanel(page).getByLabel('Email or username'));

    // Every stop from the top of the page to the Login button, walked with Tab alone.
    const stops: string[] = [];
    const submit = loginPanel(page).getByRole('button', { name: 'Login', exact: true });
    for (let presses = 0; presses < MAX_PRESSES && !(await isFocused(submit)); presses += 1) {
      await page.keyboard.press('Tab');
      stops.push(await focusedElement(page));
    }
    expect(stops).toContain('tab "Login"');
    expect(stops).toContain('tab "Register"');
    expect(stops.at(-1)).toBe('button "Login"');
    expect(stops.filter((stop) => stop.includes('Google'))).toEqual([]);
    // The reason is on screen in text, and read out with the button.
    const google = loginPanel(page).getByRole('button', { name: 'Continue with Google', exact: true });
    await expectVisible(loginPanel(page).getByText('Sign in with Google is not configured on this server.'));
    expect(await google.isDisabled()).toBe(true);
    expect(
      await google.evaluate(
        (button) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent,
      ),
    ).toBe('Sign in with Google is not configured on this server.');

    // Back to the Register tab with Shift+Tab, and Enter shows its form.
    await tabTo(page, registerTab, 'backwards');
    await page.keyboard.press('Enter');
    await expectVisible(registerPanel(page).getByLabel('Username'));
    expect(await registerTab.getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'keyboard-register');
    // And Space brings Login back.
    await tabTo(page, loginTab, 'backwards');
    await page.keyboard.press('Space');
    await expectVisible(loginPanel(page).getByLabel('Email or username'));
  });

  it('signs in, writes a script, saves it, runs it in the sandbox, reads the output and copies the API key', async () => {
    const page = await suite.browser.newPage();
    await suite.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.app.url });
    const user = await createUser(suite.app, { name: 'Keyboard Writer' });
    await page.goto(suite.app.url + '/');

    // Sign in: type into the fields, Enter submits.
    await tabTo(page, loginPanel(page).getByLabel('Email or username'));
    await page.keyboard.type(user.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await expectSignedIn(page, user.name);
    await expectPath(page, '/dashboard');

    // To the Script Editor from the sidebar.
    await tabTo(page, sidebar(page).getByRole('link', { name: 'Script Editor', exact: true }));
    await page.keyboard.press('Enter');
    await expectPath(page, '/editor');
    await expectVisible(mainArea(page).getByRole('heading', { level: 1, name: 'Script Editor', exact: true }));

    // The name, then the code: Tab reaches the code area, Enter starts typing below the comment.
    await tabTo(page, mainArea(page).getByLabel('Script Name'));
    await page.keyboard.type('Typed by keyboard');
    await tabTo(page, codeEditor(page).locator('.ace_scroller'));
    await page.keyboard.press('Enter');
    await page.keyboard.type('print("typed by keyboard")');
    await expect.poll(() => codeEditorLines(page)).toEqual([DEFAULT_CODE, 'print("typed by keyboard")']);
    // Esc leaves the code; Shift+Tab walks back up to Save.
    await page.keyboard.press('Escape');
    await tabTo(page, mainArea(page).getByRole('button', { name: 'Save', exact: true }), 'backwards');
    await page.keyboard.press('Enter');
    const dialog = dialogNamed(page, 'Save Script Configuration');
    await expectVisible(dialog);
    await tabTo(page, dialog.getByRole('button', { name: 'Save Script', exact: true }));
    await page.keyboard.press('Enter');
    await expectToast(page, 'Script Saved');
    await expectHidden(dialog);
    await expect.poll(() => new URL(page.url()).searchParams.get('id')).toBeTruthy();

    // Run in the sandbox, a few stops back from Save (Space presses a button as Enter does).
    await tabTo(page, mainArea(page).getByRole('button', { name: 'Run in Sandbox', exact: true }), 'backwards');
    await page.keyboard.press('Space');
    const pane = executionPane(page);
    await expectVisible(pane.status.getByText('Success', { exact: true }), 60_000);
    // The output is a tab stop: reached, its text is the run's.
    await tabTo(page, mainArea(page).getByRole('region', { name: 'Output', exact: true }));
    expect(await pane.output.innerText()).toContain('typed by keyboard');
    await screenshot(page, 'keyboard-output');

    // Back to the dashboard, and copy the API key.
    await tabTo(page, sidebar(page).getByRole('link', { name: 'Dashboard', exact: true }), 'backwards');
    await page.keyboard.press('Enter');
    await expectPath(page, '/dashboard');
    await tabTo(page, mainArea(page).getByRole('button', { name: 'Copy API key', exact: true }));
    await page.keyboard.press('Enter');
    await expectToast(page, 'API Key Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(user.user.apiKey);

    const stored = await suite.app.call('GET', '/api/scripts', { token: user.token });
    expect((stored.body as { name: string; code: string }[]).map(({ name, code }) => ({ name, code }))).toEqual([
      { name: 'Typed by keyboard', code: `${DEFAULT_CODE}\nprint("typed by keyboard")` },
    ]);
  });
});
