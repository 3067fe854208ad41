import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { VALIDATION } from '@moonrelay/contract/messages';
import { testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { RegisterForm } from './RegisterForm.tsx';

const user = testUser({ isAdmin: true });

async function fill(values: Partial<Record<'Email' | 'Username' | 'Name' | 'Password' | 'Confirm password', string>>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
  }
  await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
}

const valid = {
  Email: 'ada@example.com',
  Username: 'ada',
  Name: 'Ada',
  Password: 'analytical',
  'Confirm password': 'analytical',
};

describe('RegisterForm', () => {
  it.each([
    [{ Email: 'ada@' }, VALIDATION.invalidEmail],
    [{ Username: 'ad' }, VALIDATION.usernameTooShort],
    [{ Username: 'a'.repeat(31) }, VALIDATION.usernameTooLong],
    [{ Username: 'ada lovelace' }, VALIDATION.usernameCharacters],
    [{ Name: '' }, VALIDATION.nameRequired],
    [{ Password: 'short', 'Confirm password': 'short' }, VALIDATION.passwordTooShort],
    [{ 'Confirm password': 'different' }, VALIDATION.passwordsDontMatch],
  ])('shows the message for %j and sends nothing', async (change, message) => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<RegisterForm onSignedIn={() => {}} />);
    await fill({ ...valid, ...change });
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends everything but confirmPassword and hands over the session', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/auth/register': (body) => {
          sent.push(body);
          return { body: { token: 'mrs_t', user } };
        },
      }),
    );
    const onSignedIn = vi.fn();
    renderWithProviders(<RegisterForm onSignedIn={onSignedIn} />);
    await fill(valid);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(sent).toEqual([{ email: 'ada@example.com', username: 'ada', name: 'Ada', password: 'analytical' }]);
  });

  it("toasts 'Registration Failed' with the server's text", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'POST /api/auth/register': () => ({ status: 409, body: { error: 'This username is already taken' } }),
      }),
    );
    renderWithProviders(<RegisterForm onSignedIn={() => {}} />);
    await fill(valid);
    expect(await screen.findByText('Registration Failed')).toBeInTheDocument();
    expect(screen.getByText('This username is already taken')).toBeInTheDocument();
  });
});
