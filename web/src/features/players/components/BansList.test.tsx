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
  nextCursor: null,
  total: 1000,
};

/**
 * GET /api/players/bans as the server pages it, over `list`'s bans: `size` to a page, the cursor the
 * offset of the next one, the bans made elsewhere with the first page only. Records each cursor asked for.
 */
function banPages(size: number, asked: (string | null)[]) {
  return (_body: unknown, url?: URL) => {
    const cursor = url!.searchParams.get('cursor');
    asked.push(cursor);
    const start = Number(cursor ?? 0);
    const end = start + size;
    return {
      body: {
        bans: list.bans.slice(start, end),
        nextCursor: end < list.bans.length ? String(end) : null,
        total: list.bans.length,
        elsewhere: cursor ? [] : list.elsewhere,
      },
    };
  };
}

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

  it('asks for the next page by cursor as the end of the loaded bans comes near, and by Load more', async () => {
    const asked: (string | null)[] = [];
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/players/bans': banPages(50, asked) }));
    renderWithProviders(<BansList onSelect={vi.fn()} />);
    const ours = await screen.findByRole('table', { name: BANS_TEXT.ours });
    // The count is the server's total, not the rows loaded; the table's is unknown while pages remain.
    expect(screen.getByRole('heading', { name: `${BANS_TEXT.ours} (1,000)` })).toBeInTheDocument();
    expect(ours).toHaveAttribute('aria-rowcount', '-1');
    expect(screen.getByRole('table', { name: BANS_TEXT.elsewhere })).toHaveAttribute('aria-rowcount', '301');
    // The top of the first page is far from its end: nothing more is asked for.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([null]);

    // Scrolled near the end of the 50 loaded: the next page, after the last ban shown.
    const region = screen.getByRole('region', { name: BANS_TEXT.ours });
    region.scrollTop = 35 * 64;
    fireEvent.scroll(region);
    await waitFor(() => expect(asked).toEqual([null, '50']));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open player51' })).toBeInTheDocument());
    // The bans made elsewhere came with the first page and stay.
    expect(screen.getByRole('table', { name: BANS_TEXT.elsewhere })).toHaveAttribute('aria-rowcount', '301');

    // Load more is the keyboard's way to the next page.
    await userEvent.click(screen.getByRole('button', { name: BANS_TEXT.loadMore }));
    await waitFor(() => expect(asked).toEqual([null, '50', '100']));
  });
});
