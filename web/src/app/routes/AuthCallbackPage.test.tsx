import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router-dom';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { useSession } from '../../lib/session.ts';
import { signInAs, testUser } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { AuthCallbackPage } from './AuthCallbackPage.tsx';

const user = testUser({ googleId: '117000000000000000001' });

function Where() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

function renderCallback(query: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/callback" element={<AuthCallbackPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: `/auth/callback?${query}` },
  );
}

const keepFlow = (state: string, purpose: 'sign-in' | 'link' = 'sign-in') =>
  sessionStorage.setItem('oidcFlow', JSON.stringify({ state, purpose }));

const landedOn = (path: string) => waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(path));

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  useSession.getState().signOut();
});

describe('/auth/callback', () => {
  it("exchanges the code, reading 'Authenticating...' meanwhile, then stores the session and opens the dashboard", async () => {
    keepFlow('st4te');
    const sent: unknown[] = [];
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const respond = jsonFetch({
      'GET /api/auth/providers': () => ({ body: { google: { enabled: true, name: 'Google' } } }),
      'POST /api/auth/google': (body) => {
        sent.push(body);
        return { body: { token: 'mrs_new', user } };
      },
    });
    vi.stubGlobal('fetch', async (...args: Parameters<typeof respond>) => {
      if (String(args[0]).endsWith('/api/auth/google')) await answered;
      return respond(...args);
    });
    renderCallback('code=c0de&state=st4te&scope=openid');
    expect((await screen.findAllByRole('button', { name: 'Authenticating...' }))[0]).toBeDisabled();
    answer();
    await landedOn('/dashboard');
    expect(sent).toEqual([{ code: 'c0de', state: 'st4te', redirectUri: `${window.location.origin}/auth/callback` }]);
    expect(useSession.getState().token).toBe('mrs_new');
    expect(localStorage.getItem('token')).toBe('mrs_new');
    // The attempt is spent: this tab would refuse the same answer again.
    expect(sessionStorage.getItem('oidcFlow')).toBeNull();
  });

  it('returns to the invitation or shared script the sign-in began on, and nowhere else a tab was told', async () => {
    const signedInBy = (token: string) => jsonFetch({ 'POST /api/auth/google': () => ({ body: { token, user } }) });
    sessionStorage.setItem('oidcFlow', JSON.stringify({ state: 's1', purpose: 'sign-in', returnTo: '/join?token=x' }));
    vi.stubGlobal('fetch', signedInBy('mrs_a'));
    const first = renderCallback('code=c0de&state=s1');
    await landedOn('/join');
    first.unmount();
    useSession.getState().signOut();

    // An entry changed to send the visitor elsewhere is not followed.
    for (const elsewhere of ['https://evil.example/join', '//evil.example/shared/x', '/settings']) {
      sessionStorage.setItem('oidcFlow', JSON.stringify({ state: 's2', purpose: 'sign-in', returnTo: elsewhere }));
      vi.stubGlobal('fetch', signedInBy('mrs_b'));
      const view = renderCallback('code=c0de&state=s2');
      await landedOn('/dashboard');
      view.unmount();
      useSession.getState().signOut();
    }
  });

  it('an account with two-factor sign-in answers a challenge: the code step, then the session', async () => {
    keepFlow('st4te');
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/auth/google': () => ({
          body: { twoFactorRequired: true, methods: ['totp', 'passkey'], challenge: 'ch4llenge' },
        }),
        'POST /api/auth/login/two-factor': (body) => {
          sent.push(body);
          return (body as { code: string }).code === '123456'
            ? { body: { token: 'mrs_2fa', user } }
            : { status: 401, body: { error: TWO_FACTOR.wrongCode } };
        },
      }),
    );
    renderCallback('code=c0de&state=st4te');
    const code = await screen.findByLabelText(TWO_FACTOR.stepCode);
    expect(screen.getByRole('button', { name: TWO_FACTOR.stepUsePasskey })).toBeInTheDocument();
    expect(useSession.getState().token).toBeNull();
    await userEvent.type(code, '000000{Enter}');
    expect(await screen.findByText(TWO_FACTOR.wrongCode)).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, '123456{Enter}');
    await landedOn('/dashboard');
    expect(sent).toEqual([
      { challenge: 'ch4llenge', code: '000000' },
      { challenge: 'ch4llenge', code: '123456' },
    ]);
    expect(useSession.getState().token).toBe('mrs_2fa');
  });

  it('Back from the two-factor step returns to the sign-in screen without a session', async () => {
    keepFlow('st4te');
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/auth/google': () => ({ body: { twoFactorRequired: true, methods: ['totp'], challenge: 'c' } }),
      }),
    );
    renderCallback('code=c0de&state=st4te');
    await userEvent.click(await screen.findByRole('button', { name: TWO_FACTOR.stepBack }));
    await landedOn('/');
    expect(useSession.getState().token).toBeNull();
  });

  it.each([
    ['access_denied', 'Authentication was cancelled.'],
    ['server_error', 'Authentication failed.'],
  ])("error=%s: 'Authentication Error' / '%s', back on the sign-in screen", async (error, text) => {
    keepFlow('st4te');
    const fetch = vi.fn(jsonFetch({}));
    vi.stubGlobal('fetch', fetch);
    renderCallback(`error=${error}&state=st4te`);
    await landedOn('/');
    expect(await screen.findByText('Authentication Error')).toBeInTheDocument();
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalledWith('/api/auth/google', expect.anything());
    expect(sessionStorage.getItem('oidcFlow')).toBeNull();
  });

  it.each([
    ['another state than this tab kept', 'code=c0de&state=forged', true],
    ['no attempt started in this tab', 'code=c0de&state=st4te', false],
    ['no code', 'state=st4te', true],
  ])("refuses %s with 'Authentication Failed', sending nothing", async (_label, query, started) => {
    if (started) keepFlow('st4te');
    const fetch = vi.fn(jsonFetch({}));
    vi.stubGlobal('fetch', fetch);
    renderCallback(query);
    expect(await screen.findByText('Authentication Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to authenticate with Google. Please try again.')).toBeInTheDocument();
    await landedOn('/');
    expect(fetch).not.toHaveBeenCalledWith('/api/auth/google', expect.anything());
    expect(useSession.getState().token).toBeNull();
  });

  it("shows the server's reason when the exchange conflicts with an existing account", async () => {
    keepFlow('st4te');
    const reason = 'An account with this email already exists.';
    vi.stubGlobal('fetch', jsonFetch({ 'POST /api/auth/google': () => ({ status: 409, body: { error: reason } }) }));
    renderCallback('code=c0de&state=st4te');
    expect(await screen.findByText('Authentication Failed')).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
    await landedOn('/');
    expect(useSession.getState().token).toBeNull();
  });

  it("uses the spec's text for any other failed exchange", async () => {
    keepFlow('st4te');
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'POST /api/auth/google': () => ({ status: 400, body: { error: 'ID token refused: expired' } }) }),
    );
    renderCallback('code=c0de&state=st4te');
    expect(await screen.findByText('Failed to authenticate with Google. Please try again.')).toBeInTheDocument();
  });

  it('finishes a link attempt of the signed-in user and returns to Settings', async () => {
    signInAs(testUser());
    keepFlow('l1nk', 'link');
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/user/google': (body) => {
          sent.push(body);
          return { body: user };
        },
      }),
    );
    renderCallback('code=c0de&state=l1nk');
    await landedOn('/settings');
    expect(await screen.findByText('Google Account Linked')).toBeInTheDocument();
    expect(sent).toEqual([{ code: 'c0de', state: 'l1nk', redirectUri: `${window.location.origin}/auth/callback` }]);
    expect(useSession.getState().user?.googleId).toBe(user.googleId);
    // Linking does not replace the session.
    expect(useSession.getState().token).toBe('mrs_x');
  });

  it('returns a failed link attempt to Settings with the reason of a conflict', async () => {
    signInAs(testUser());
    keepFlow('l1nk', 'link');
    const reason = 'This identity is already linked to another Moonrelay account';
    vi.stubGlobal('fetch', jsonFetch({ 'POST /api/user/google': () => ({ status: 409, body: { error: reason } }) }));
    renderCallback('code=c0de&state=l1nk');
    await landedOn('/settings');
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(useSession.getState().token).toBe('mrs_x');
  });
});
