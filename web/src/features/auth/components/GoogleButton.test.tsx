import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserNavigation } from '../../../lib/oidc-flow.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { GoogleButton } from './GoogleButton.tsx';

const AUTHORIZATION_URL = 'https://accounts.google.com/o/oauth2/v2/auth?client_id=abc&state=st4te';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

/** The button once the providers have answered (it is re-rendered then, so found afresh). */
async function enabledButton(name: string) {
  await waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled());
  return screen.getByRole('button', { name });
}

const providers = (enabled: boolean, name = 'Google') => ({
  'GET /api/auth/providers': () => ({ body: { google: { enabled, name } } }),
});

describe('GoogleButton', () => {
  it('stays disabled, saying why, when the server has no provider configured', async () => {
    vi.stubGlobal('fetch', jsonFetch(providers(false)));
    const { queryClient } = renderWithProviders(<GoogleButton />);
    await waitFor(() => expect(queryClient.getQueryData(['/api/auth/providers'])).toBeDefined());
    const button = screen.getByRole('button', { name: 'Continue with Google' });
    expect(button).toBeDisabled();
    // Said in text on the screen, and read out with the button.
    expect(await screen.findByText('Sign in with Google is not configured on this server.')).toBeVisible();
    expect(button).toHaveAccessibleDescription('Sign in with Google is not configured on this server.');
  });

  it('asks the server for the authorization URL, keeps the state in this tab and leaves for the provider', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        ...providers(true),
        'POST /api/auth/google/start': (body) => {
          sent.push(body);
          return { body: { authorizationUrl: AUTHORIZATION_URL, state: 'st4te' } };
        },
      }),
    );
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    renderWithProviders(<GoogleButton />);
    await userEvent.click(await enabledButton('Continue with Google'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(AUTHORIZATION_URL));
    expect(sent).toEqual([{ redirectUri: `${window.location.origin}/auth/callback` }]);
    expect(JSON.parse(sessionStorage.getItem('oidcFlow') ?? 'null')).toEqual({ state: 'st4te', purpose: 'sign-in' });
    expect(screen.getByRole('button', { name: /Redirecting/ })).toBeDisabled();
  });

  it('keeps the invitation or shared script it was opened on, for the callback to return to', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        ...providers(true),
        'POST /api/auth/google/start': () => ({ body: { authorizationUrl: AUTHORIZATION_URL, state: 'st4te' } }),
      }),
    );
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    renderWithProviders(<GoogleButton />, { route: '/shared/t0ken?x=1' });
    await userEvent.click(await enabledButton('Continue with Google'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(AUTHORIZATION_URL));
    expect(JSON.parse(sessionStorage.getItem('oidcFlow') ?? 'null')).toEqual({
      state: 'st4te',
      purpose: 'sign-in',
      returnTo: '/shared/t0ken?x=1',
    });
  });

  it('is named after the configured provider', async () => {
    vi.stubGlobal('fetch', jsonFetch(providers(true, 'Acme SSO')));
    renderWithProviders(<GoogleButton />);
    expect(await enabledButton('Continue with Acme SSO')).toBeEnabled();
  });

  it("toasts 'Authentication Failed' when the provider cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        ...providers(true),
        'POST /api/auth/google/start': () => ({ status: 502, body: { error: 'unreachable' } }),
      }),
    );
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    renderWithProviders(<GoogleButton />);
    await userEvent.click(await enabledButton('Continue with Google'));
    expect(await screen.findByText('Authentication Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to authenticate with Google. Please try again.')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('oidcFlow')).toBeNull();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  it("reads 'Authenticating...' while the callback exchanges the code", () => {
    vi.stubGlobal('fetch', jsonFetch(providers(true)));
    renderWithProviders(<GoogleButton exchanging />);
    expect(screen.getByRole('button', { name: 'Authenticating...' })).toBeDisabled();
  });
});
