import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { closeLiveSocket } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { PlayersScreen } from './PlayersScreen.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  useSession.setState({ token: 'mrs_test' });
});
afterEach(() => {
  closeLiveSocket();
  vi.unstubAllGlobals();
  useSession.setState({ token: null, user: null });
});

const player = (userId: number): OnlinePlayer => ({
  userId,
  name: `player${userId}`,
  displayName: null,
  serverId: 'server-a',
  joinedAt: '2026-11-29T00:00:00.000Z',
  accountAgeDays: 100,
});

/** The online list in pages of ten, thirty players in all; `onPage` sees each request's cursor. */
function onlineInPages(onPage: (cursor: string | null) => void) {
  const pages: Record<string, { players: OnlinePlayer[]; nextCursor: string | null }> = {
    first: { players: Array.from({ length: 10 }, (_, i) => player(i + 1)), nextCursor: 'c1' },
    c1: { players: Array.from({ length: 10 }, (_, i) => player(i + 11)), nextCursor: 'c2' },
    c2: { players: Array.from({ length: 10 }, (_, i) => player(i + 21)), nextCursor: null },
  };
  return async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/players/online') return new Response('{"error":"Not found"}', { status: 404 });
    const cursor = url.searchParams.get('cursor');
    onPage(cursor);
    const page = pages[cursor ?? 'first']!;
    return new Response(JSON.stringify({ ...page, total: 30 }), { headers: { 'content-type': 'application/json' } });
  };
}

describe('the online players list', () => {
  it('fetches pages until the end is out of reach, even when a live refresh replaces a page request on its way', async () => {
    let refreshed = false;
    vi.stubGlobal(
      'fetch',
      onlineInPages((cursor) => {
        // A join or leave arrives in the same moment as the second page is asked for: the refresh
        // takes the request's place before the screen has drawn it.
        if (cursor === 'c1' && !refreshed) {
          refreshed = true;
          void queryClient.invalidateQueries({ queryKey: ['/api/players'] });
        }
      }),
    );
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('30 players online')).toBeInTheDocument();
    expect(refreshed).toBe(true);
    expect(screen.getAllByTestId('player-row')).toHaveLength(28);
  });
});
