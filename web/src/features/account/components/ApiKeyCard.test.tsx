import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPY_FEEDBACK_MS } from '@moonrelay/contract/constants';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { TEAM_PERMISSIONS } from '@moonrelay/contract/teams';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { TEAM_SETTINGS_TEXT } from '../security-text.ts';
import { ApiKeyCard } from './ApiKeyCard.tsx';

const KEY = 'mr_8wEbh0sj58IVWRtDgjJoLW1aVCDv';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
});

describe('ApiKeyCard', () => {
  it('masks the key until Show, and masks it again on Hide', async () => {
    renderWithProviders(<ApiKeyCard apiKey={KEY} />);
    const field = screen.getByLabelText('API key');
    expect(field).toHaveValue('mr_8wEbh…VCDv');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(field).toHaveValue(KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(field).toHaveValue('mr_8wEbh…VCDv');
    expect(screen.getByRole('button', { name: 'Show' })).toBeInTheDocument();
  });

  it("says 'No API key available' without a key, and still offers to regenerate", () => {
    renderWithProviders(<ApiKeyCard apiKey={null} />);
    expect(screen.getByText('No API key available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy API key' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Regenerate API Key' })).toBeInTheDocument();
  });

  it("copies the whole key, toasts 'API Key Copied' and shows a check mark for 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    // After setup(), which installs a clipboard stub of its own.
    const writeText = vi.fn(async () => {});
    stubClipboard(writeText);
    const { container } = renderWithProviders(<ApiKeyCard apiKey={KEY} />);
    await user.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenCalledWith(KEY);
    expect(await screen.findByText('API Key Copied')).toBeInTheDocument();
    expect(container.querySelector('.lucide-check')).not.toBeNull();
    vi.advanceTimersByTime(COPY_FEEDBACK_MS);
    await waitFor(() => expect(container.querySelector('.lucide-check')).toBeNull());
    expect(container.querySelector('.lucide-copy')).not.toBeNull();
  });

  it("toasts 'Copy Failed' when the clipboard is unavailable", async () => {
    renderWithProviders(<ApiKeyCard apiKey={KEY} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(await screen.findByText('Copy Failed')).toBeInTheDocument();
    expect(screen.getByText(/copy it manually/)).toBeInTheDocument();
  });

  it("on a team, shows not the person's own key, and replacing the team's keeps the person signed in as themself", async () => {
    signInAs();
    chooseTeam('t1');
    const teamAccount = { ...testUser(), id: 't1', name: 'Studio', username: 'team-t1', apiKey: 'mr_team' };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams': () => ({
          body: [personalTeam(), testTeam({ role: 'owner', permissions: [...TEAM_PERMISSIONS] })],
        }),
        'POST /api/user/regenerate-key': () => ({ body: { success: true, apiKey: 'mr_team', user: teamAccount } }),
      }),
    );
    renderWithProviders(<ApiKeyCard apiKey={KEY} />);
    expect(screen.getByText(TEAM_SETTINGS_TEXT.teamKeyWhere)).toBeInTheDocument();
    expect(screen.queryByLabelText('API key')).not.toBeInTheDocument();
    const regenerate = screen.getByRole('button', { name: 'Regenerate API Key' });
    await waitFor(() => expect(regenerate).toBeEnabled());
    await userEvent.click(regenerate);
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('API Key Regenerated')).toBeInTheDocument();
    expect(useSession.getState().user).toMatchObject({ id: 'u1', apiKey: testUser().apiKey });
  });

  it("confirms before regenerating and toasts 'Error' when it fails", async () => {
    const fetch = vi.fn(
      jsonFetch({ 'POST /api/user/regenerate-key': () => ({ status: 500, body: { error: 'Internal error' } }) }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<ApiKeyCard apiKey={KEY} />);
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate API Key' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Regenerate API Key')).toBeInTheDocument();
    expect(within(dialog).getByText(/stop working immediately/)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('Failed to regenerate API key. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
