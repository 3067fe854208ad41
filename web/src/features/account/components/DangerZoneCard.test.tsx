import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { DangerZoneCard } from './DangerZoneCard.tsx';

const user = testUser();

beforeEach(() => useSession.getState().signIn('mrs_x', user));
afterEach(() => {
  useSession.getState().signOut();
  vi.unstubAllGlobals();
});

async function openDialog() {
  await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
  return screen.findByRole('alertdialog');
}

describe('DangerZoneCard', () => {
  it('lists what is lost and deletes only after confirming', async () => {
    const fetch = vi.fn(jsonFetch({ 'DELETE /api/user/account': () => ({ body: { success: true } }) }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<DangerZoneCard />, { route: '/settings' });
    const dialog = await openDialog();
    for (const item of [
      'Scripts and versions',
      'Execution history and logs',
      'API keys and tokens',
      'Scheduled scripts and shares',
    ]) {
      expect(within(dialog).getByText(item)).toBeInTheDocument();
    }
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByText('Account Deleted')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/api/user/account', expect.objectContaining({ method: 'DELETE' }));
    expect(useSession.getState().token).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('sends nothing when cancelled', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<DangerZoneCard />);
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetch).not.toHaveBeenCalled();
    expect(useSession.getState().token).toBe('mrs_x');
  });

  it("toasts 'Error' and keeps the session when the deletion fails", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'DELETE /api/user/account': () => ({ status: 500, body: { error: 'Internal error' } }) }),
    );
    renderWithProviders(<DangerZoneCard />);
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByText('Failed to delete account. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(useSession.getState().token).toBe('mrs_x');
  });
});
