import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import { startTestOidcProvider, type TestIdentity, type TestOidcProvider } from '../../server/test/oidc-provider.ts';
import { createUser, signInAs, uniqueUserFields } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible, storageItem } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import {
  alertDialogNamed,
  expectSignedIn,
  expectSignInScreen,
  expectToast,
  loginPanel,
  mainArea,
  sidebar,
} from './support/ui.ts';

/**
 * Sign-in with Google against a real OpenID Connect provider (oidc-provider on 127.0.0.1, with
 * its own login and consent pages): the button, the provider, the callback and the dashboard;
 * the refusals a person can meet; and linking from Settings.
 */

let oidc: TestOidcProvider;
const suite = browserSuite(async () => {
  oidc = await startTestOidcProvider();
  return oidc.env();
});
beforeAll(() => oidc.allowRedirectUri(`${suite.app.url}/auth/callback`));
afterAll(async () => {
  await oidc?.close();
});

/** Chromium logs the refused exchange (409) on the console; the tests that cause one expect it. */
const EXCHANGE_CONFLICT = /status of 409 \(Conflict\) \[[^\]]*\/api\/(auth|user)\/google\]$/;

const googleButton = (page: Page) => loginPanel(page).getByRole('button', { name: 'Continue with Google' });

/** The provider's pages, by what a person sees on them. */
const provider = {
  async expectLogin(page: Page) {
    await expectVisible(page.getByRole('heading', { name: 'Sign in', exact: true }));
    await expectVisible(page.getByText('to continue to Moonrelay', { exact: true }));
  },
  async signIn(page: Page, who: TestIdentity) {
    await page.getByLabel('Username', { exact: true }).fill(who.username);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  },
  consent: (page: Page) => page.getByRole('heading', { name: 'Moonrelay wants to access your account' }),
};

/** The browser's requests to the provider's authorization endpoint. */
function recordAuthorizationRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === oidc.issuer && url.pathname === '/auth') requests.push(request);
  });
  return requests;
}

/** Holds POST /api/auth/google until released, so the screen during the exchange can be seen. */
async function holdExchange(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${suite.app.url}/api/auth/google`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function currentUser(page: Page): Promise<User> {
  const token = (await storageItem(page, 'token')) as string;
  const res = await suite.app.call('GET', '/api/user', { token });
  expect(res.status).toBe(200);
  return res.body as User;
}

describe('sign in with Google', () => {
  it('button -> provider login -> consent -> callback -> dashboard; the next sign-in opens the same account', async () => {
    const grace = oidc.addUser({ name: 'Grace Hopper' });
    const page = await suite.browser.newPage();
    const authorizations = recordAuthorizationRequests(page);
    await page.goto(suite.app.url + '/');
    await expectSignInScreen(page);
    await expect.poll(() => googleButton(page).isEnabled()).toBe(true);
    await screenshot(page, 'sign-in-google');

    await googleButton(page).click();
    await provider.expectLogin(page);
    expect(new URL(page.url()).origin).toBe(oidc.issuer);
    await screenshot(page, 'google-provider-login');

    // The authorization request, as the browser sent it (spec section 7, plus state, nonce and PKCE).
    expect(authorizations).toHaveLength(1);
    const params = Object.fromEntries(new URL(authorizations[0]!.url()).searchParams);
    expect(params).toMatchObject({
      client_id: oidc.clientId,
      redirect_uri: `${suite.app.url}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[\w-]{43}$/);
    expect(params.nonce).toMatch(/^[\w-]{43}$/);
    expect(params.code_challenge).toMatch(/^[\w-]{43}$/);

    // A wrong password stays at the provider.
    await page.getByLabel('Username', { exact: true }).fill(grace.username);
    await page.getByLabel('Password', { exact: true }).fill('not my password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectVisible(page.getByRole('alert').getByText('Wrong username or password.'));

    await provider.signIn(page, grace);
    await expectVisible(provider.consent(page));
    await expectVisible(page.getByText('See your email address', { exact: true }));
    await screenshot(page, 'google-provider-consent');

    const release = await holdExchange(page);
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await expectPath(page, '/auth/callback');
    const pending = loginPanel(page).getByRole('button', { name: 'Authenticating...' });
    await expectVisible(pending);
    expect(await pending.isDisabled()).toBe(true);
    await screenshot(page, 'google-callback-authenticating');
    release();

    await expectPath(page, '/dashboard');
    await expectSignedIn(page, 'Grace Hopper');
    await expectVisible(sidebar(page).getByText(grace.email!, { exact: true }));
    // The code does not stay in the address bar or the history entry.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => sessionStorage.getItem('oidcFlow'))).toBeNull();
    const user = await currentUser(page);
    expect(user).toMatchObject({ name: 'Grace Hopper', email: grace.email, googleId: grace.sub, isAdmin: false });

    // Settings: the Google ID, and no unlink for an account whose only way in is Google.
    await sidebar(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await expect.poll(() => mainArea(page).getByLabel('Google ID', { exact: true }).inputValue()).toBe(grace.sub);
    await expectVisible(mainArea(page).getByText(/has no password/));
    expect(await mainArea(page).getByRole('button', { name: 'Unlink Google' }).isDisabled()).toBe(true);
    await screenshot(page, 'settings-google-only-account');

    // Out, and in again: the provider remembers the person (consent only), Moonrelay the account.
    await sidebar(page).getByRole('button', { name: 'Logout', exact: true }).click();
    await expectSignInScreen(page);
    await expect.poll(() => googleButton(page).isEnabled()).toBe(true);
    await googleButton(page).click();
    await expectVisible(provider.consent(page));
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await expectPath(page, '/dashboard');
    await expectSignedIn(page, 'Grace Hopper');
    expect((await currentUser(page)).id).toBe(user.id);
  });

  it("Cancel at the provider: 'Authentication Error' / 'Authentication was cancelled.'", async () => {
    const page = await suite.browser.newPage();
    await page.goto(suite.app.url + '/');
    await expect.poll(() => googleButton(page).isEnabled()).toBe(true);
    await googleButton(page).click();
    await provider.expectLogin(page);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    await expectToast(page, 'Authentication Error', 'Authentication was cancelled.');
    await expectPath(page, '/');
    await expectSignInScreen(page);
    expect(await storageItem(page, 'token')).toBeNull();
    await screenshot(page, 'google-cancelled');
  });

  it("a callback whose state this tab did not send: 'Authentication Failed', nothing sent", async () => {
    const page = await suite.browser.newPage();
    const exchanges: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/google') exchanges.push(request);
    });
    await page.goto(suite.app.url + '/');
    await expect.poll(() => googleButton(page).isEnabled()).toBe(true);
    await googleButton(page).click();
    await provider.expectLogin(page);
    // A forged answer (someone else's code, to sign this browser in as them) instead of the real one.
    await page.goto(`${suite.app.url}/auth/callback?code=someone-elses-code&state=a-state-we-never-sent`);

    await expectToast(page, 'Authentication Failed', 'Failed to authenticate with Google. Please try again.');
    await expectPath(page, '/');
    await expectSignInScreen(page);
    expect(exchanges).toHaveLength(0);
    expect(await storageItem(page, 'token')).toBeNull();
  });

  it('an email that belongs to a password account is refused, not joined to it', async () => {
    suite.browser.allowConsoleErrors(EXCHANGE_CONFLICT);
    const owner = await createUser(suite.app, uniqueUserFields());
    const twin = oidc.addUser({ email: owner.email, name: 'Not The Owner' });
    const page = await suite.browser.newPage();
    await page.goto(suite.app.url + '/');
    await expect.poll(() => googleButton(page).isEnabled()).toBe(true);
    await googleButton(page).click();
    await provider.expectLogin(page);
    await provider.signIn(page, twin);
    await page.getByRole('button', { name: 'Allow', exact: true }).click();

    await expectToast(page, 'Authentication Failed', ERRORS.identityEmailTaken);
    await expectPath(page, '/');
    await expectSignInScreen(page);
    expect(await storageItem(page, 'token')).toBeNull();
    await screenshot(page, 'google-email-taken');
    const account = await suite.app.call('GET', '/api/user', { token: owner.token });
    expect(account.body.googleId).toBeNull();
  });
});

describe('Google in Settings', () => {
  it('a password account links Google through the provider, signs in with it, and unlinks it', async () => {
    const owner = await createUser(suite.app, { name: 'Linda Linker' });
    const identity = oidc.addUser({ email: owner.email, name: 'Linda Linker' });
    const page = await suite.browser.newPage();
    await signInAs(page, suite.app, owner, '/settings');
    await expectSignedIn(page, owner.name);
    const card = mainArea(page).getByText('Google Sign-In', { exact: true });
    await expectVisible(card);
    await expectHidden(mainArea(page).getByLabel('Google ID', { exact: true }));
    await screenshot(page, 'settings-google-not-linked');

    await mainArea(page).getByRole('button', { name: 'Link Google Account' }).click();
    await provider.expectLogin(page);
    await provider.signIn(page, identity);
    await page.getByRole('button', { name: 'Allow', exact: true }).click();

    await expectToast(page, 'Google Account Linked', 'You can now sign in with Google.');
    await expectPath(page, '/settings');
    await expect.poll(() => mainArea(page).getByLabel('Google ID', { exact: true }).inputValue()).toBe(identity.sub);
    await expectVisible(mainArea(page).getByTestId('linked-google-id').getByText(identity.sub));
    expect(JSON.parse((await storageItem(page, 'user')) ?? '{}').googleId).toBe(identity.sub);
    await screenshot(page, 'settings-google-linked');

    // Google now opens this account (in a fresh tab, signed out).
    const other = await suite.browser.newPage();
    await other.goto(suite.app.url + '/');
    await expect.poll(() => googleButton(other).isEnabled()).toBe(true);
    await googleButton(other).click();
    await expectVisible(provider.consent(other));
    await other.getByRole('button', { name: 'Allow', exact: true }).click();
    await expectPath(other, '/dashboard');
    await expectSignedIn(other, owner.name);
    expect((await currentUser(other)).id).toBe(owner.user.id);
    await other.close();

    // Unlink: the password still works, the Google ID is gone.
    await mainArea(page).getByRole('button', { name: 'Unlink Google' }).click();
    const dialog = alertDialogNamed(page, 'Unlink Google');
    await expectVisible(dialog);
    await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
    await expectToast(page, 'Google Account Unlinked');
    await expectHidden(mainArea(page).getByLabel('Google ID', { exact: true }));
    await expectVisible(mainArea(page).getByRole('button', { name: 'Link Google Account' }));
    const login = await suite.app.call('POST', '/api/auth/login', {
      body: { emailOrUsername: owner.email, password: owner.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.googleId).toBeNull();
  });
});
