import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs, testUser } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { AppShell } from './AppShell.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('the menu on a narrow screen', () => {
  it.each([
    ['another screen', 'Settings'],
    ['the screen already shown', 'Dashboard'],
  ])('closes once a link to %s is followed', async (_, link) => {
    const user = testUser();
    signInAs(user);
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user': () => ({ body: user }) }));
    renderWithProviders(<AppShell>screen</AppShell>, { route: '/dashboard' });

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    // A dialog named for screen readers (axe's aria-dialog-name).
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    await userEvent.click(await within(menu).findByRole('link', { name: link }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('keeps the sidebar it drew at the first opening, hidden and out of reach while closed', async () => {
    const user = testUser();
    signInAs(user);
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user': () => ({ body: user }) }));
    renderWithProviders(<AppShell>screen</AppShell>, { route: '/dashboard' });
    const sidebars = () => document.querySelectorAll('nav[aria-label="Main"]');
    const before = sidebars().length;

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    const drawn = within(menu).getByRole('navigation', { name: 'Main' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Still in the page, but hidden: no link of it can be reached.
    expect(sidebars()).toHaveLength(before + 1);
    expect(drawn).toBeInTheDocument();
    expect(within(drawn).queryAllByRole('link')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const again = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(again).getByRole('navigation', { name: 'Main' })).toBe(drawn);
  });
});
