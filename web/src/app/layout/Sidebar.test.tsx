import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs, testUser } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { Sidebar } from './Sidebar.tsx';

afterEach(() => vi.unstubAllGlobals());

function renderSidebar(isAdmin: boolean) {
  const user = testUser({ isAdmin });
  signInAs(user);
  vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user': () => ({ body: user }) }));
  renderWithProviders(<Sidebar />, { route: '/dashboard' });
}

describe('the sidebar', () => {
  it('offers the Admin Panel to admins', async () => {
    renderSidebar(true);
    expect(await screen.findByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
  });

  it('does not offer the Admin Panel to anyone else', async () => {
    renderSidebar(false);
    expect(await screen.findByRole('link', { name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });
});
