import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModerationAction } from '@moonrelay/contract/moderation';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { PlayerModeration } from './PlayerModeration.tsx';

/** A server where player 7 has no moderation yet, and the person is a viewer of Studio. */
function server() {
  vi.stubGlobal(
    'fetch',
    jsonFetch({
      'GET /api/players/7/moderation': () => ({ body: { actions: [], ban: null, elsewhere: null } }),
      'GET /api/teams': () => ({
        body: [personalTeam(), testTeam({ id: 't1', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] })],
      }),
    }),
  );
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe("a player's moderation buttons", () => {
  it('are disabled for a role without the permission, each saying which one it needs', async () => {
    server();
    chooseTeam('t1');
    renderWithProviders(<PlayerModeration userId={7} online />);
    expect(await screen.findByText('Kick: Needs the permission players.kick')).toBeInTheDocument();
    expect(screen.getByText('Ban: Needs the permission players.ban')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kick' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Kick' })).toHaveAttribute('title', 'Needs the permission players.kick');
    expect(screen.getByRole('button', { name: 'Ban' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Warn' })).toBeDisabled();
  });

  it('are all open on the person’s own account', async () => {
    server();
    renderWithProviders(<PlayerModeration userId={7} online />);
    expect(await screen.findByText('No moderation yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Kick' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Ban' })).toBeEnabled();
    expect(screen.queryByTestId('permission-notes')).not.toBeInTheDocument();
  });
});

/** A note or a kick of player 7, the `i`th newest. */
function action(i: number): ModerationAction {
  return {
    id: `m${i}`,
    userId: 7,
    kind: i % 2 ? 'kick' : 'note',
    actorId: 'u1',
    actorName: 'Ada',
    message: `Entry ${i}`,
    privateReason: null,
    durationSeconds: null,
    excludeAltAccounts: false,
    path: i % 2 ? 'game' : null,
    state: 'applied',
    error: null,
    serverId: null,
    replaces: null,
    endedBy: null,
    createdAt: new Date(Date.UTC(2026, 10, 29, 12) - i * 60_000).toISOString(),
    completedAt: null,
  };
}

describe("a player's moderation history", () => {
  it('draws only the entries in view of a hundred, and the others as it scrolls', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/players/7/moderation': () => ({
          body: { actions: Array.from({ length: 100 }, (_, i) => action(i)), ban: null, elsewhere: null },
        }),
      }),
    );
    renderWithProviders(<PlayerModeration userId={7} online />);
    const list = await screen.findByRole('list', { name: 'Moderation history' });
    const entries = () => within(list).getAllByTestId('moderation-entry');
    // The entries of a screenful and a few past it, not a hundred.
    expect(entries().length).toBeGreaterThanOrEqual(4);
    expect(entries().length).toBeLessThan(20);
    expect(entries()[0]).toHaveTextContent('Entry 0');
    expect(entries()[0]).toHaveAttribute('aria-posinset', '1');
    expect(entries()[0]).toHaveAttribute('aria-setsize', '100');
    expect(within(entries()[1]!).getByTestId('moderation-state')).toHaveTextContent('applied');

    // Scrolled to the end: the oldest entry, with its place in the whole list.
    const region = screen.getByRole('region', { name: 'Moderation history' });
    region.scrollTop = 100_000;
    fireEvent.scroll(region);
    await waitFor(() => expect(entries().at(-1)).toHaveTextContent('Entry 99'));
    expect(entries().at(-1)).toHaveAttribute('aria-posinset', '100');
    expect(within(list).queryByText('Entry 0')).toBeNull();
    expect(entries().length).toBeLessThan(20);
  });
});
