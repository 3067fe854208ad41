import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../lib/session.ts';
import { testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ApiAccessCard } from './ApiAccessCard.tsx';

const user = testUser({ apiKey: 'mr_oldoldoldoldoldold' });
const NEW_KEY = 'mr_newnewnewnewnewnew';

beforeEach(() => useSession.getState().signIn('mrs_x', user));
afterEach(() => {
  useSession.getState().signOut();
  vi.unstubAllGlobals();
});

describe('ApiAccessCard', () => {
  it('shows the full key and copies it', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user': () => ({ body: user }) }));
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<ApiAccessCard />);
    expect(screen.getByText('API Access')).toBeInTheDocument();
    expect(screen.getByText(user.apiKey!)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenCalledWith(user.apiKey);
    expect(await screen.findByText('API Key Copied')).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  });

  it("says 'No API key available' without a key", async () => {
    const keyless = { ...user, apiKey: null };
    useSession.getState().signIn('mrs_x', keyless);
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/user': () => ({ body: keyless }) }));
    renderWithProviders(<ApiAccessCard />);
    expect(await screen.findByText('No API key available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy API key' })).not.toBeInTheDocument();
  });

  it('regenerates after confirming: the new key shows, is stored, and a toast says to update integrations', async () => {
    const fetch = vi.fn(
      jsonFetch({
        'GET /api/user': () => ({ body: user }),
        'POST /api/user/regenerate-key': () => ({ body: { apiKey: NEW_KEY, user: { ...user, apiKey: NEW_KEY } } }),
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<ApiAccessCard />);
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Regenerate API Key')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('API Key Regenerated')).toBeInTheDocument();
    expect(screen.getByText(/Update your game integrations/)).toBeInTheDocument();
    expect(await screen.findByText(NEW_KEY)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(useSession.getState().user?.apiKey).toBe(NEW_KEY);
    expect(fetch).toHaveBeenCalledWith('/api/user/regenerate-key', expect.objectContaining({ method: 'POST' }));
  });

  it('leaves the key alone when the dialog is cancelled', async () => {
    const fetch = vi.fn(jsonFetch({ 'GET /api/user': () => ({ body: user }) }));
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<ApiAccessCard />);
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetch).not.toHaveBeenCalledWith('/api/user/regenerate-key', expect.anything());
    expect(screen.getByText(user.apiKey!)).toBeInTheDocument();
  });
});
