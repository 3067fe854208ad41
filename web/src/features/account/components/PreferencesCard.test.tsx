import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTheme } from '../../../lib/theme.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { PreferencesCard } from './PreferencesCard.tsx';

beforeEach(() => useTheme.setState({ theme: 'dark' }));

describe('PreferencesCard', () => {
  it("turning dark mode off stores 'light' and toasts 'Theme Updated'", async () => {
    renderWithProviders(<PreferencesCard />);
    const toggle = screen.getByLabelText('Dark mode');
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    expect(localStorage.getItem('theme')).toBe('light');
    expect(useTheme.getState().theme).toBe('light');
    expect(toggle).not.toBeChecked();
    expect(await screen.findByText('Theme Updated')).toBeInTheDocument();
    expect(screen.getByText('Light mode enabled')).toBeInTheDocument();
  });

  it("turning it back on stores 'dark'", async () => {
    useTheme.setState({ theme: 'light' });
    renderWithProviders(<PreferencesCard />);
    await userEvent.click(screen.getByLabelText('Dark mode'));
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(await screen.findByText('Dark mode enabled')).toBeInTheDocument();
  });
});
