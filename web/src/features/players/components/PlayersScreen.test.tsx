import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import type { OnlinePlayer } from '@moonrelay/contract/players';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { closeLiveSocket, useLiveSocketState } from '../../../lib/socket.ts';
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
  vi.restoreAllMocks();
  useLiveSocketState.setState({ connected: false });
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

  it('says a broad search counted its first 1,000 matches and stopped', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ players: [player(1)], total: 1000, totalCapped: true, nextCursor: null }),
    );
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('1,000+ players online match, 1 shown')).toBeInTheDocument();
  });
});

/**
 * The online list as the server answers it, from `roster` (newest arrival first) in pages of
 * `pageSize`, the cursor being the offset; `requests` holds each request's query string.
 */
function onlineServer(roster: OnlinePlayer[], pageSize = 50) {
  const requests: URLSearchParams[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/players/online') return new Response('{"error":"Not found"}', { status: 404 });
    requests.push(url.searchParams);
    const q = url.searchParams.get('q') ?? '';
    const matching = roster.filter((p) => p.name.startsWith(q));
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const to = from + pageSize;
    const page = {
      players: matching.slice(from, to),
      total: matching.length,
      nextCursor: to < matching.length ? String(to) : null,
    };
    return new Response(JSON.stringify(page), { headers: { 'content-type': 'application/json' } });
  };
  return { fetch, requests };
}

/** jsdom scrolls nothing itself: the list's scroller moves where it is told and says so. */
function scrollerOf(): HTMLElement {
  const scroller = screen.getByTestId('players-scroller');
  scroller.scrollTo = ((options: ScrollToOptions) => {
    scroller.scrollTop = options.top ?? scroller.scrollTop;
    // As in a browser, the scroll is heard after the write, not during it.
    queueMicrotask(() => fireEvent.scroll(scroller));
  }) as typeof scroller.scrollTo;
  return scroller;
}

function scrollTo(scroller: HTMLElement, top: number) {
  scroller.scrollTop = top;
  fireEvent.scroll(scroller);
}

const rowIndexes = () => screen.getAllByTestId('player-row').map((row) => Number(row.getAttribute('data-row-index')));
const ROW = 56;

describe('a long online list', () => {
  it('draws only the rows around the view of a thousand loaded, and follows the scrolling', async () => {
    const roster = Array.from({ length: 1_000 }, (_, i) => player(i + 1));
    vi.stubGlobal('fetch', onlineServer(roster, 1_000).fetch);
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('1,000 players online')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Players online' })).toHaveAttribute('aria-rowcount', '1001');
    const drawn = rowIndexes();
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(40);
    expect(drawn[0]).toBe(0);

    scrollTo(scrollerOf(), 500 * ROW);
    await waitFor(() => expect(rowIndexes()).toContain(500));
    expect(rowIndexes()).not.toContain(0);
    expect(rowIndexes().length).toBeLessThan(40);
    expect(screen.getByRole('button', { name: 'Open player501' }).closest('tr')).toHaveAttribute(
      'aria-rowindex',
      '502',
    );
  });

  it('asks for the next page when scrolled near the end of the loaded rows', async () => {
    const server = onlineServer(Array.from({ length: 120 }, (_, i) => player(i + 1)));
    vi.stubGlobal('fetch', server.fetch);
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('120 players online, 50 shown')).toBeInTheDocument();
    expect(server.requests.filter((query) => query.has('cursor'))).toEqual([]);

    scrollTo(scrollerOf(), 40 * ROW);
    expect(await screen.findByText('120 players online, 100 shown')).toBeInTheDocument();
    expect(server.requests.map((query) => query.get('cursor'))).toContain('50');
  });

  it('folds a burst of joins into one refresh, made at the next frame', async () => {
    const roster = Array.from({ length: 30 }, (_, i) => player(i + 1));
    const server = onlineServer(roster);
    vi.stubGlobal('fetch', server.fetch);
    useLiveSocketState.setState({ connected: true });
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('30 players online')).toBeInTheDocument();
    const asked = server.requests.length;

    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => frames.push(run));
    vi.stubGlobal('cancelAnimationFrame', (frame: number) => void frames.splice(frame - 1, 1));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    for (let i = 0; i < 100; i++) {
      roster.unshift(player(1_000 + i));
      socket.serverSends('players:changed', {});
    }
    expect(frames).toHaveLength(1);
    expect(invalidate).not.toHaveBeenCalled();

    frames.shift()!(performance.now());
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('130 players online, 50 shown')).toBeInTheDocument();
    expect(server.requests.slice(asked).map((query) => query.get('cursor'))).toEqual([null]);
  });

  it('keeps the reader’s place when a player joins above the rows in view', async () => {
    const roster = Array.from({ length: 50 }, (_, i) => player(i + 1));
    vi.stubGlobal('fetch', onlineServer(roster).fetch);
    useLiveSocketState.setState({ connected: true });
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('50 players online')).toBeInTheDocument();
    const scroller = scrollerOf();
    scrollTo(scroller, 10 * ROW);
    await waitFor(() => expect(rowIndexes()).not.toContain(0));
    const reading = screen.getByRole('button', { name: 'Open player11' }).closest('tr')!;

    roster.unshift(player(999));
    void queryClient.invalidateQueries({ queryKey: ['/api/players'] });
    expect(await screen.findByText('51 players online')).toBeInTheDocument();
    await waitFor(() => expect(scroller.scrollTop).toBe(11 * ROW));
    // The same row, moved down one place in the list and kept where it was on screen.
    expect(screen.getByRole('button', { name: 'Open player11' }).closest('tr')).toBe(reading);
    expect(reading).toHaveAttribute('data-row-index', '11');
  });

  it('asks for the search once the typing pauses, not for every key', async () => {
    const server = onlineServer([player(1), player(22), player(23)]);
    vi.stubGlobal('fetch', server.fetch);
    renderWithProviders(<PlayersScreen />, { route: '/players' });
    expect(await screen.findByText('3 players online')).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Search by name, display name or user id' });
    for (const text of ['p', 'pl', 'pla', 'play', 'player2']) fireEvent.change(search, { target: { value: text } });
    expect(search).toHaveValue('player2');
    expect(await screen.findByText('2 players online')).toBeInTheDocument();
    expect(server.requests.map((query) => query.get('q')).filter(Boolean)).toEqual(['player2']);
  });
});
