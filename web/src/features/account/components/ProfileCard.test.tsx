import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '@moonrelay/contract/auth';
import { formatDate } from '../../../lib/format.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ProfileCard } from './ProfileCard.tsx';

const user: User = {
  id: 'u1',
  name: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.com',
  googleId: null,
  apiKey: 'mr_x',
  createdAt: '2026-01-01T00:00:00.000Z',
  isAdmin: false,
};

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
});
