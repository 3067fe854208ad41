import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../lib/format.ts';
import { testUser } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ProfileCard } from './ProfileCard.tsx';

const user = testUser({ name: 'Ada Lovelace' });

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
