import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_ENDED_NOTICE } from '../../../lib/notices.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { FIRST_ACCOUNT_NOTE, SignInScreen, SIGNED_OUT_DETAIL } from './SignInScreen.tsx';

/** As the app does: the sign-in screen until there is a token, then where the router went. */
function SignedOutGate() {
  const location = useLocation();
  const token = useSession((state) => state.token);
  if (!token) return <SignInScreen />;
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('SignInScreen', () => {
  it('says "You were signed out" after a session ended elsewhere, until the next sign-in', async () => {
    signInAs();
    useSession.getState().signOut(SESSION_ENDED_NOTICE);
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/auth/providers': () => ({ body: { google: { enabled: false, name: 'Google' } } }),
        'POST /api/auth/login': () => ({ body: { token: 'mrs_again', user: testUser() } }),
      }),
    );
    renderWithProviders(<SignInScreen />);
    expect(screen.getByText(SESSION_ENDED_NOTICE)).toBeInTheDocument();
    expect(screen.getByText(SIGNED_OUT_DETAIL)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    await waitFor(() => expect(useSession.getState().token).toBe('mrs_again'));
    expect(useSession.getState().endedNotice).toBeNull();
  });

  it('brings the visitor back to the link they opened signed out (an invitation), once signed in', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/auth/providers': () => ({ body: { google: { enabled: false, name: 'Google' } } }),
        'POST /api/auth/login': () => ({ body: { token: 'mrs_joining', user: testUser() } }),
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="*" element={<SignedOutGate />} />
      </Routes>,
      { route: '/join?token=abc' },
    );
    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    expect(await screen.findByTestId('location')).toHaveTextContent('/join?token=abc');
  });

  it('opens the dashboard after a sign-in from any other address, as the spec says', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/auth/providers': () => ({ body: { google: { enabled: false, name: 'Google' } } }),
        'POST /api/auth/login': () => ({ body: { token: 'mrs_home', user: testUser() } }),
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="*" element={<SignedOutGate />} />
      </Routes>,
      { route: '/settings' },
    );
    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'analytical{Enter}');
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/dashboard$/);
  });

  it('says nothing of the kind after a sign-out asked for here', () => {
    signInAs();
    useSession.getState().signOut();
    renderWithProviders(<SignInScreen />);
    expect(screen.queryByText(SESSION_ENDED_NOTICE)).not.toBeInTheDocument();
  });

  it('opens on Register, saying the first account becomes the admin, while no account exists', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/auth/providers': () => ({
          body: { google: { enabled: false, name: 'Google' }, firstAccount: true },
        }),
      }),
    );
    renderWithProviders(<SignInScreen />);
    expect(await screen.findByText(FIRST_ACCOUNT_NOTE)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeInTheDocument();
    // Login is one click away all the same.
    await userEvent.click(screen.getByRole('tab', { name: 'Login' }));
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('opens on Login, with no such line, once an account exists', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/auth/providers': () => ({
          body: { google: { enabled: false, name: 'Google' }, firstAccount: false },
        }),
      }),
    );
    const { queryClient } = renderWithProviders(<SignInScreen />);
    await waitFor(() => expect(queryClient.getQueryData(['/api/auth/providers'])).toBeDefined());
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByText(FIRST_ACCOUNT_NOTE)).not.toBeInTheDocument();
  });
});
