import type { Page, Request } from 'playwright-core';
import { browserSuite } from './support/suite.ts';
import { describe, expect, it } from 'vitest';
import { APP_NAME, APP_VERSION } from '@moonrelay/contract/constants';
import { VALIDATION } from '@moonrelay/contract/messages';
import { createUser, uniqueUserFields } from './support/app.ts';
import { screenshot } from './support/browser.ts';

import {
  expectFieldError,
  expectHidden,
  expectNoFieldError,
  expectPath,
  expectVisible,
  storageItem,
} from './support/expect.ts';
import {
  expectSignedIn,
  expectSignInScreen,
  loginPanel,
  mainArea,
  registerPanel,
  sidebar,
  sidebarLink,
  toast,
} from './support/ui.ts';

/** Chromium logs the failed login call (401) on the console; the wrong-password test expects it. */
const LOGIN_REJECTED = /status of 401 \(Unauthorized\) \[[^\]]*\/api\/auth\/login\]$/;

const suite = browserSuite();

async function openRegisterTab(page: Page) {
  await page.getByRole('tab', { name: 'Register', exact: true }).click();
  const panel = registerPanel(page);
  await expectVisible(panel.getByRole('button', { name: 'Create account' }));
  return {
    panel,
    email: panel.getByLabel('Email', { exact: true }),
    username: panel.getByLabel('Username', { exact: true }),
    name: panel.getByLabel('Name', { exact: true }),
    password: panel.getByLabel('Password', { exact: true }),
    confirmPassword: panel.getByLabel('Confirm password', { exact: true }),
    submit: panel.getByRole('button', { name: 'Create account' }),
  };
}

function loginForm(page: Page) {
  const panel = loginPanel(page);
  return {
    panel,
    emailOrUsername: panel.getByLabel('Email or username', { exact: true }),
    password: panel.getByLabel('Password', { exact: true }),
    submit: panel.getByRole('button', { name: 'Login', exact: true }),
  };
}

/** Logs in through the form; `identifier` is the email or the username. */
async function logInThroughForm(page: Page, identifier: string, password: string) {
  const form = loginForm(page);
  await form.emailOrUsername.fill(identifier);
  await form.password.fill(password);
  await form.submit.click();
}

/** Collects the page's calls to one API path. */
function recordCalls(page: Page, path: string): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) calls.push(request);
  });
  return calls;
}

describe('sign-in screen', () => {
  it('is what a signed-out visitor sees on every path, deep links included', async () => {
    const page = await suite.browser.newPage();
    for (const path of ['/settings', '/editor?id=x', '/dashboard', '/scripts', '/']) {
      await page.goto(suite.app.url + path);
      await expectSignInScreen(page);
      // The deep link is kept in the address bar; only the screen is the sign-in one.
      const { pathname, search } = new URL(path, suite.app.url);
      await expectPath(page, pathname, search);
      const form = loginForm(page);
      await expectVisible(form.emailOrUsername);
      await expectVisible(form.password);
      await expectVisible(form.submit);
    }
    await expectVisible(page.getByRole('heading', { name: `${APP_NAME} ${APP_VERSION}` }));
    await expectVisible(
      page.getByText('A Lua script execution platform with secure authentication, free API access and instant setup.'),
    );
    // Each tab has the identity-provider button.
    await expectVisible(loginPanel(page).getByRole('button', { name: 'Continue with Google' }));
    await screenshot(page, 'sign-in-login');

    await openRegisterTab(page);
    await expectVisible(registerPanel(page).getByRole('button', { name: 'Continue with Google' }));
    expect(await storageItem(page, 'token')).toBeNull();
  });

  it('login with empty fields shows both required messages and sends nothing', async () => {
    const page = await suite.browser.newPage();
    const logins = recordCalls(page, '/api/auth/login');
    await page.goto(suite.app.url + '/');
    const form = loginForm(page);
    await form.submit.click();
    await expectFieldError(form.emailOrUsername, VALIDATION.emailOrUsernameRequired);
    await expectFieldError(form.password, VALIDATION.passwordRequired);
    // Whitespace is not an email or a username either.
    await form.emailOrUsername.fill('   ');
    await form.submit.click();
    await expectFieldError(form.emailOrUsername, VALIDATION.emailOrUsernameRequired);
    expect(logins).toHaveLength(0);
    await expectSignInScreen(page);
  });

  it('register shows the spec message under each invalid field, then creates the account', async () => {
    const page = await suite.browser.newPage();
    const registrations = recordCalls(page, '/api/auth/register');
    await page.goto(suite.app.url + '/');
    const form = await openRegisterTab(page);

    // Everything empty: each required field says so.
    await form.submit.click();
    await expectFieldError(form.email, VALIDATION.invalidEmail);
    await expectFieldError(form.username, VALIDATION.usernameTooShort);
    await expectFieldError(form.name, VALIDATION.nameRequired);
    await expectFieldError(form.password, VALIDATION.passwordTooShort);

    // Each rule in turn; the form checks again on every change after the first submit.
    await form.email.fill('not-an-email');
    await expectFieldError(form.email, VALIDATION.invalidEmail);
    await form.username.fill('ab');
    await expectFieldError(form.username, VALIDATION.usernameTooShort);
    await form.name.fill('   ');
    await expectFieldError(form.name, VALIDATION.nameRequired);
    await form.password.fill('short');
    await expectFieldError(form.password, VALIDATION.passwordTooShort);
    await form.confirmPassword.fill('different');
    await expectFieldError(form.confirmPassword, VALIDATION.passwordsDontMatch);
    await form.submit.click();
    await expectFieldError(form.email, VALIDATION.invalidEmail);
    await expectFieldError(form.confirmPassword, VALIDATION.passwordsDontMatch);
    await screenshot(page, 'sign-in-register-errors');

    await form.username.fill('a'.repeat(31));
    await expectFieldError(form.username, VALIDATION.usernameTooLong);
    await form.username.fill('bad name!');
    await expectFieldError(form.username, VALIDATION.usernameCharacters);
    expect(registrations).toHaveLength(0);

    // Now a valid form: the account is created and the dashboard opens.
    const fields = uniqueUserFields({ name: 'Grace Hopper' });
    await form.email.fill(fields.email);
    await form.username.fill(fields.username);
    await form.name.fill(fields.name);
    await form.password.fill(fields.password);
    await form.confirmPassword.fill(fields.password);
    for (const input of [form.email, form.username, form.name, form.password, form.confirmPassword]) {
      await expectNoFieldError(input);
    }
    await form.submit.click();

    await expectPath(page, '/dashboard');
    await expectSignedIn(page, fields.name);
    const nav = sidebar(page);
    await expectVisible(nav.getByText(fields.email, { exact: true }));
    await expectVisible(nav.getByRole('heading', { name: `${APP_NAME} ${APP_VERSION}` }));
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
    // Not the first account on this server: no admin entry.
    await expectVisible(sidebarLink(page, 'Settings'));
    await expectHidden(sidebarLink(page, 'Admin Panel'));

    // confirmPassword is checked in the browser and never sent.
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.postDataJSON()).toEqual({
      email: fields.email,
      username: fields.username,
      name: fields.name,
      password: fields.password,
    });
    expect(await storageItem(page, 'token')).toBeTruthy();
    expect(JSON.parse((await storageItem(page, 'user')) ?? 'null')).toMatchObject({
      email: fields.email,
      username: fields.username,
      name: fields.name,
      isAdmin: false,
    });
    await screenshot(page, 'dashboard');
  });

  it('the first account on the server is the admin: its sidebar has the Admin Panel entry', async () => {
    const page = await suite.browser.newPage();
    await page.goto(suite.app.url + '/');
    await logInThroughForm(page, suite.firstAccount.email, suite.firstAccount.password);
    await expectPath(page, '/dashboard');
    await expectSignedIn(page, suite.firstAccount.name);
    await expectVisible(sidebar(page).getByText(suite.firstAccount.email, { exact: true }));
    await expectVisible(sidebarLink(page, 'Admin Panel'));
    await screenshot(page, 'dashboard-admin');
    await sidebarLink(page, 'Admin Panel').click();
    await expectPath(page, '/admin');
  });

  it('logout returns to the sign-in screen at / and forgets the token; login by username signs in again', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Linus Logout' });
    // Signed in through the form by email, then out through the sidebar.
    await page.goto(suite.app.url + '/settings');
    await logInThroughForm(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    await expectSignedIn(page, user.name);
    const browserToken = await storageItem(page, 'token');
    expect(browserToken).toBeTruthy();

    await sidebar(page).getByRole('button', { name: 'Logout', exact: true }).click();
    await expectPath(page, '/');
    await expectSignInScreen(page);
    expect(await storageItem(page, 'token')).toBeNull();
    expect(await storageItem(page, 'user')).toBeNull();
    // The server revoked that session; the account's other sessions are untouched.
    expect((await suite.app.call('GET', '/api/user', { token: browserToken as string })).status).toBe(401);
    expect((await suite.app.call('GET', '/api/user', { token: user.token })).status).toBe(200);

    await logInThroughForm(page, user.username, user.password);
    await expectPath(page, '/dashboard');
    await expectSignedIn(page, user.name);
    await expectVisible(sidebar(page).getByText(user.email, { exact: true }));
    expect(await storageItem(page, 'token')).toBeTruthy();
  });

  it('logout drops the requests still out, so none comes back a 401 after the token is revoked', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Lola Late' });
    // The dashboard's script list stays unanswered until the server has revoked the token.
    let revoked!: () => void;
    const logoutAnswered = new Promise<void>((resolve) => (revoked = resolve));
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/logout')) revoked();
    });
    let held = 0;
    await page.route('**/api/scripts', async (route) => {
      held += 1;
      await logoutAnswered;
      // Dropped by the page meanwhile, it can no longer go on.
      await route.continue().catch(() => undefined);
    });
    await page.goto(suite.app.url + '/');
    await logInThroughForm(page, user.username, user.password);
    await expectSignedIn(page, user.name);
    await expect.poll(() => held).toBeGreaterThan(0);
    await sidebar(page).getByRole('button', { name: 'Logout', exact: true }).click();
    await expectSignInScreen(page);
    await logoutAnswered;
    // finishTest fails the test on any console error, such as a 401 for /api/scripts.
  });

  it("a wrong password shows the 'Login Failed' toast and stays signed out", async () => {
    suite.browser.allowConsoleErrors(LOGIN_REJECTED);
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await page.goto(suite.app.url + '/');
    await logInThroughForm(page, user.username, 'not the password');

    const notice = toast(page);
    await expectVisible(notice.getByText('Login Failed', { exact: true }));
    await expectVisible(notice.getByText('Invalid credentials', { exact: true }));
    await expectSignInScreen(page);
    await expectPath(page, '/');
    expect(await storageItem(page, 'token')).toBeNull();
    // The button is usable again for the next attempt.
    expect(await loginForm(page).submit.isEnabled()).toBe(true);
  });
});
