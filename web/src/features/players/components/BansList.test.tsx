import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BanList } from '@moonrelay/contract/moderation';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { BANS_TEXT, BansList } from './BansList.tsx';

/** Moonrelay's bans of players 1 to 1000, newest first, and 300 made elsewhere (players 5001 on). */
const list: BanList = {
  bans: Array.from({ length: 1000 }, (_, i) => ({
    id: `b${i}`,
    userId: i + 1,
    name: `player${i + 1}`,
    kind: 'ban' as const,
    actorId: 'u1',
    actorName: 'Ada',
    message: `Reason ${i + 1}`,
    privateReason: null,
    durationSeconds: null,
    excludeAltAccounts: false,
    path: 'game' as const,
    state: 'applied' as const,
    error: null,
    serverId: null,
    replaces: null,
    endedBy: null,
    createdAt: new Date(Date.UTC(2026, 10, 29, 12) - i * 60_000).toISOString(),
    completedAt: null,
  })),
  elsewhere: Array.from({ length: 300 }, (_, i) => ({
    userId: 5001 + i,
    name: null,
    durationSeconds: 86_400,
    startTime: '2026-11-20T10:00:00.000Z',
    displayReason: `Elsewhere ${5001 + i}`,
    privateReason: '',
    excludeAltAccounts: false,
    updateTime: null,
  })),
};

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the ban list', () => {
  it('draws only the rows in view of each table, and the others as it scrolls', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/players/bans': () => ({ body: list }) }));
    const onSelect = vi.fn();
    renderWithProviders(<BansList onSelect={onSelect} />);
    const ours = await screen.findByRole('table', { name: BANS_TEXT.ours });
    expect(screen.getByRole('heading', { name: `${BANS_TEXT.ours} (1,000)` })).toBeInTheDocument();
    // The header and the rows of a screenful and a few past it, not a thousand.
    const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
    expect(rows(ours).length).toBeGreaterThanOrEqual(8);
    expect(rows(ours).length).toBeLessThan(30);
    expect(ours).toHaveAttribute('aria-rowcount', '1001');
    expect(rows(ours)[0]).toHaveAttribute('aria-rowindex', '2');
    expect(rows(ours)[0]).toHaveTextContent('Reason 1');
    const elsewhere = screen.getByRole('table', { name: BANS_TEXT.elsewhere });
    expect(rows(elsewhere).length).toBeLessThan(30);
    expect(elsewhere).toHaveAttribute('aria-rowcount', '301');

    // Halfway down Moonrelay's bans: the rows there, with their places in the table, and a row
    // drawn there opens its player.
    const region = screen.getByRole('region', { name: BANS_TEXT.ours });
    region.scrollTop = 500 * 64;
    fireEvent.scroll(region);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open player501' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Open player1' })).toBeNull();
    const row = screen.getByRole('button', { name: 'Open player501' }).closest('tr')!;
    expect(row).toHaveAttribute('aria-rowindex', '502');
    expect(rows(ours).length).toBeLessThan(30);
    await userEvent.click(within(row).getByRole('button', { name: 'Open player501' }));
    expect(onSelect).toHaveBeenCalledWith(501);
  });
});
