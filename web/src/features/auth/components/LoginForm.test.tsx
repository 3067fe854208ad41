import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TWO_FACTOR, VALIDATION } from '@moonrelay/contract/messages';
import { testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { LoginForm } from './LoginForm.tsx';

const user = testUser();

describe('LoginForm', () => {
  it('shows the spec messages for empty fields and sends nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<LoginForm onSignedIn={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(VALIDATION.emailOrUsernameRequired)).toBeInTheDocument();
    expect(screen.getByText(VALIDATION.passwordRequired)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("reads 'Logging in...' while the request runs, then hands over the session", async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const respond = jsonFetch({ 'POST /api/auth/login': () => ({ body: { token: 'mrs_t', user } }) });
    vi.stubGlobal('fetch', async (...args: Parameters<typeof respond>) => {
      await answered;
      return respond(...args);
    });
    const onSignedIn = vi.fn();
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} />);
    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'secret password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const pending = await screen.findByRole('button', { name: 'Logging in...' });
    expect(pending).toBeDisabled();
    release();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ token: 'mrs_t', user }));
  });

  it("toasts 'Login Failed' with the server's text", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'POST /api/auth/login': () => ({ status: 401, body: { error: 'Invalid credentials' } }) }),
    );
    renderWithProviders(<LoginForm onSignedIn={() => {}} />);
    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid credentials')).toBeInTheDocument();
  });

  it.each([
    [['totp'], false, true],
    [['passkey'], true, false],
    [['totp', 'passkey'], true, true],
  ] as const)(
    'after the password, offers what the account has (%j): a passkey %s, a code %s',
    async (methods, passkey, code) => {
      vi.stubGlobal(
        'fetch',
        jsonFetch({
          'POST /api/auth/login': () => ({ body: { twoFactorRequired: true, methods, challenge: 'c' } }),
        }),
      );
      renderWithProviders(<LoginForm onSignedIn={() => {}} />);
      await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
      await userEvent.type(screen.getByLabelText('Password'), 'secret password');
      await userEvent.click(screen.getByRole('button', { name: 'Login' }));
      expect(await screen.findByText(TWO_FACTOR.stepTitle)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: TWO_FACTOR.stepUsePasskey }) !== null).toBe(passkey);
      expect(screen.queryByLabelText(TWO_FACTOR.stepCode) !== null).toBe(code);
    },
  );

  it('shows a lockout where the form is, saying when it ends, as the server words it', async () => {
    const lockout = 'Too many failed login attempts. Try again in 15 minutes.';
    vi.stubGlobal('fetch', jsonFetch({ 'POST /api/auth/login': () => ({ status: 429, body: { error: lockout } }) }));
    renderWithProviders(<LoginForm onSignedIn={() => {}} />);
    await userEvent.type(screen.getByLabelText('Email or username'), 'ada');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong again');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const alert = await screen.findByTestId('login-locked');
    expect(alert).toHaveTextContent(lockout);
    expect(alert).toHaveAttribute('role', 'alert');
    // The toast says it too, without the fallback's "Please try again".
    expect(within(await screen.findByTestId('toast')).getByText(lockout)).toBeInTheDocument();
  });
});
