import { keepPreviousData, useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OnlinePlayer, PlayerRecord } from '@moonrelay/contract/players';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { createRefreshPacer } from '../../../lib/refresh-pacer.ts';
import { liveSocketFor, useLiveSocketState } from '../../../lib/socket.ts';
import { oncePerFrame } from './once-per-frame.ts';

/** While the live socket is down, the lists are fetched again this often. */
export const PLAYERS_POLL_MS = 10_000;
const PLAYERS_KEY = ['/api/players'] as const;
const ONLINE_KEY = [...PLAYERS_KEY, 'online'] as const;
/**
 * A live refresh fetches every page of the online list loaded so far again, one request each; it
 * waits this long per page after the last one, so a viewer far down a list of 10,000 asks for about
 * two pages a second, however fast players come and go.
 */
export const REFRESH_GAP_PER_PAGE_MS = 500;

export interface OnlinePlayersFilter {
  q: string;
  serverId: string;
}

interface OnlinePage {
  players: OnlinePlayer[];
  total: number;
  /** A broad search counted its first matches only: at least `total` match. */
  totalCapped: boolean;
  nextCursor: string | null;
}

function onlinePath(filter: OnlinePlayersFilter, cursor: string | undefined): string {
  const query = new URLSearchParams({ limit: '50' });
  if (filter.q.trim()) query.set('q', filter.q.trim());
  if (filter.serverId.trim()) query.set('serverId', filter.serverId.trim());
  if (cursor) query.set('cursor', cursor);
  return `/api/players/online?${query.toString()}`;
}

/** Who is online across the user's game servers, newest arrival first, 50 at a time. */
export function useOnlinePlayers(filter: OnlinePlayersFilter) {
  const token = useSession((state) => state.token);
  const socketConnected = useLiveSocketState((state) => state.connected);
  return useInfiniteQuery({
    queryKey: [...ONLINE_KEY, filter],
    queryFn: ({ pageParam }) => apiRequest<OnlinePage>('GET', onlinePath(filter, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled: Boolean(token),
    refetchInterval: socketConnected ? false : PLAYERS_POLL_MS,
  });
}

/** One player's record (GET /api/players/{userId}). */
export function usePlayerRecord(userId: number | null) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...PLAYERS_KEY, 'record', userId],
    queryFn: () => apiRequest<PlayerRecord>('GET', `/api/players/${userId}`),
    enabled: Boolean(token) && userId !== null,
  });
}

/** Pages of the online list loaded in the lists on screen. */
const onlinePagesLoaded = () =>
  queryClient
    .getQueriesData<InfiniteData<OnlinePage>>({ queryKey: ONLINE_KEY, type: 'active' })
    .reduce((sum, [, data]) => sum + (data?.pages.length ?? 0), 0);

/**
 * Joins and leaves arrive as `players:changed` (coalesced by the server): the lists are fetched
 * again, spaced by how many pages that costs. Events arriving within one frame (a burst as a full
 * server connects, or the socket coming back) count as one change, so the first of a burst does not
 * refresh on its own and leave the rest to a second refresh.
 */
export function usePlayersLiveEvents(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!token) return;
    const socket = liveSocketFor(token);
    const pacer = createRefreshPacer(
      () => void queryClient.invalidateQueries({ queryKey: PLAYERS_KEY }),
      () => Math.max(1, onlinePagesLoaded()) * REFRESH_GAP_PER_PAGE_MS,
    );
    const frame = oncePerFrame(() => pacer.changed());
    const changed = () => frame.request();
    socket.on('players:changed', changed);
    socket.on('connect', changed);
    return () => {
      socket.off('players:changed', changed);
      socket.off('connect', changed);
      frame.stop();
      pacer.stop();
    };
  }, [token]);
}
