import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScriptShare } from '@moonrelay/contract/shares';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { formatDateTime } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { SHARE_TEXT } from './share-text.ts';
import { SharedLinksCard } from './SharedLinksCard.tsx';

const FLY: ScriptShare = {
  id: 'sh1',
  scriptId: 's1',
  scriptName: 'Fly',
  createdAt: '2026-03-02T12:00:00.000Z',
  createdBy: 'grace',
};
const HEAL: ScriptShare = {
  id: 'sh2',
  scriptId: 's2',
  scriptName: 'Heal',
  createdAt: '2026-03-01T08:00:00.000Z',
  createdBy: null,
};

/** The team's links; DELETE stops one. Ada is a viewer of Studio (t1) and a developer of Arcade (t2). */
function server() {
  let shares = [FLY, HEAL];
  const calls: string[] = [];
  const respond = jsonFetch({
    'GET /api/shares': () => ({ body: { items: shares } }),
    'DELETE /api/shares/sh2': () => {
      shares = shares.filter((share) => share.id !== 'sh2');
      return { body: { success: true } };
    },
    'GET /api/teams': () => ({
      body: [
        personalTeam(),
        testTeam({ id: 't1', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] }),
        testTeam({ id: 't2', name: 'Arcade' }),
        testTeam({ id: 't3', name: 'Mods', role: 'moderator', permissions: [...ROLE_PERMISSIONS.moderator] }),
      ],
    }),
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`);
    return respond(input, init);
  });
  return calls;
}

const rowOf = (scriptName: string) => {
  const row = screen.getByText(scriptName, { exact: true }).closest('tr');
  if (!row) throw new Error(`no row for ${scriptName}`);
  return row;
};
const stopLabel = (share: ScriptShare) => SHARE_TEXT.stopLabel(share.scriptName, formatDateTime(share.createdAt));

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('Settings → Shared links', () => {
  it("lists the team's links (script, created, by whom) and stops one", async () => {
    const calls = server();
    renderWithProviders(<SharedLinksCard />);

    await screen.findByText('Fly', { exact: true });
    const fly = rowOf('Fly');
    expect(within(fly).getByRole('link', { name: 'Fly' })).toHaveAttribute('href', '/editor?id=s1');
    expect(within(fly).getByText(formatDateTime(FLY.createdAt))).toBeInTheDocument();
    expect(within(fly).getByText('grace')).toBeInTheDocument();
    // Its maker's account is gone.
    expect(within(rowOf('Heal')).getByText(SHARE_TEXT.deletedAccount)).toHaveAttribute('data-gone');

    await userEvent.click(within(rowOf('Heal')).getByRole('button', { name: stopLabel(HEAL) }));
    // Asked first: nothing is stopped until it is confirmed.
    const confirm = await screen.findByRole('alertdialog', { name: SHARE_TEXT.stopTitle });
    expect(confirm).toHaveTextContent(SHARE_TEXT.stopBody('Heal', formatDateTime(HEAL.createdAt)));
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: SHARE_TEXT.stop }));
    expect(await screen.findByText(SHARE_TEXT.stoppedDetail('Heal'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Heal', { exact: true })).not.toBeInTheDocument());
    expect(screen.getAllByTestId('share-row')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    // The focus stays on the list, not on the body the button left.
    await waitFor(() => expect(screen.getByRole('region', { name: SHARE_TEXT.linksLabel })).toHaveFocus());
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual(['DELETE /api/shares/sh2']);
  });

  it('keeps the link when Stop sharing is cancelled', async () => {
    const calls = server();
    renderWithProviders(<SharedLinksCard />);
    await screen.findByText('Heal', { exact: true });
    await userEvent.click(within(rowOf('Heal')).getByRole('button', { name: stopLabel(HEAL) }));
    const confirm = await screen.findByRole('alertdialog', { name: SHARE_TEXT.stopTitle });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getAllByTestId('share-row')).toHaveLength(2);
    expect(calls.filter((call) => call.startsWith('DELETE'))).toEqual([]);
  });

  it('says when no script is shared', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/shares': () => ({ body: { items: [] } }) }));
    renderWithProviders(<SharedLinksCard />);
    expect(await screen.findByText(SHARE_TEXT.noLinks)).toBeInTheDocument();
  });

  it('lets a viewer see the links but not stop them, and asks nothing for a role that may not read scripts', async () => {
    const calls = server();
    chooseTeam('t1');
    const { unmount } = renderWithProviders(<SharedLinksCard />);
    await screen.findByText('Fly', { exact: true });
    const stop = within(rowOf('Fly')).getByRole('button', { name: stopLabel(FLY) });
    expect(stop).toBeDisabled();
    expect(stop).toHaveAttribute('title', 'Needs the permission scripts.write');
    unmount();

    chooseTeam('t3');
    calls.length = 0;
    // Forgotten, so a card that asked for the list would ask the server again.
    queryClient.removeQueries({ queryKey: ['/api/shares'] });
    renderWithProviders(<SharedLinksCard />);
    expect(await screen.findByText('Needs the permission scripts.read')).toBeInTheDocument();
    expect(calls).not.toContain('GET /api/shares');
  });
});
