import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSIONS, VALIDATION } from '@moonrelay/contract/messages';
import { formatDate } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { EMAIL_TEXT } from '../security-text.ts';
import { ProfileCard } from './ProfileCard.tsx';

const user = testUser({ name: 'Ada Lovelace' });

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('ProfileCard', () => {
  it('shows name, email and creation date read-only, and no Google ID without one', () => {
    renderWithProviders(<ProfileCard user={user} />);
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Account created')).toHaveValue(formatDate(user.createdAt));
    expect(screen.queryByLabelText('Google ID')).not.toBeInTheDocument();
  });

  it('shows the Google ID when the account has one', () => {
    renderWithProviders(<ProfileCard user={{ ...user, googleId: '1098765' }} />);
    expect(screen.getByLabelText('Google ID')).toHaveValue('1098765');
  });

  it('changes the email through its own small form, checked before it is sent', async () => {
    signInAs(user);
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'PUT /api/user/email': (body) => {
          sent.push(body);
          return { body: { ...user, email: (body as { email: string }).email } };
        },
      }),
    );
    renderWithProviders(<ProfileCard user={user} />);
    await userEvent.click(screen.getByRole('button', { name: EMAIL_TEXT.change }));
    const field = screen.getByLabelText(EMAIL_TEXT.new);
    await userEvent.type(field, 'ada@{Enter}');
    expect(await screen.findByText(VALIDATION.invalidEmail)).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'ADA@example.com{Enter}');
    expect(await screen.findByText(SESSIONS.sameEmail)).toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, 'lovelace@example.com{Enter}');
    expect(await screen.findByText(SESSIONS.emailChanged)).toBeInTheDocument();
    expect(sent).toEqual([{ email: 'lovelace@example.com' }]);
    expect(useSession.getState().user?.email).toBe('lovelace@example.com');
    await waitFor(() => expect(screen.queryByLabelText(EMAIL_TEXT.new)).not.toBeInTheDocument());
  });
});
