import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SignInMethods } from '@moonrelay/contract/auth';
import { browserNavigation } from '../../../lib/oidc-flow.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { GoogleAccountCard } from './GoogleAccountCard.tsx';

const GOOGLE_ID = '117953072572730000001';
const methods = (password: boolean, googleId: string | null, enabled = true): SignInMethods => ({
  password,
  google: { enabled, name: 'Google', googleId },
});

beforeEach(() => signInAs(testUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  useSession.getState().signOut();
});

describe('GoogleAccountCard', () => {
  it('links: asks for a link attempt and leaves for the provider', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/sign-in-methods': () => ({ body: methods(true, null) }),
        'POST /api/user/google/start': () => ({
          body: { authorizationUrl: 'https://idp.example/auth?x', state: 'l1nk' },
        }),
      }),
    );
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    renderWithProviders(<GoogleAccountCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Link Google Account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example/auth?x'));
    expect(JSON.parse(sessionStorage.getItem('oidcFlow') ?? 'null')).toEqual({ state: 'l1nk', purpose: 'link' });
  });

  it('cannot link when the server has no provider configured', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/user/sign-in-methods': () => ({ body: methods(true, null, false) }) }),
    );
    renderWithProviders(<GoogleAccountCard />);
    expect(await screen.findByText('Sign in with Google is not configured on this server.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Link Google Account' })).toBeDisabled();
  });

  it('shows the linked Google ID and unlinks after confirming', async () => {
    let linked = true;
    const fetch = vi.fn(
      jsonFetch({
        'GET /api/user/sign-in-methods': () => ({ body: methods(true, linked ? GOOGLE_ID : null) }),
        'DELETE /api/user/google': () => {
          linked = false;
          return { body: testUser({ googleId: null }) };
        },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<GoogleAccountCard />);
    expect(await screen.findByTestId('linked-google-id')).toHaveTextContent(GOOGLE_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Unlink Google' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Google Account Unlinked')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Link Google Account' })).toBeEnabled();
    expect(fetch).toHaveBeenCalledWith('/api/user/google', expect.objectContaining({ method: 'DELETE' }));
    expect(useSession.getState().user?.googleId).toBeNull();
  });

  it('never offers to unlink an account that has no password', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user/sign-in-methods': () => ({ body: methods(false, GOOGLE_ID) }) }));
    renderWithProviders(<GoogleAccountCard />);
    expect(await screen.findByRole('button', { name: 'Unlink Google' })).toBeDisabled();
    expect(screen.getByText(/has no password/)).toBeInTheDocument();
  });
});
