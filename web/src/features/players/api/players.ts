import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OnlinePlayer, PlayerRecord } from '@moonrelay/contract/players';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { liveSocketFor, useLiveSocketState } from '../../../lib/socket.ts';

/** While the live socket is down, the lists are fetched again this often. */
export const PLAYERS_POLL_MS = 10_000;
const PLAYERS_KEY = ['/api/players'] as const;

export interface OnlinePlayersFilter {
  q: string;
  serverId: string;
}

interface OnlinePage {
  players: OnlinePlayer[];
  total: number;
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
    queryKey: [...PLAYERS_KEY, 'online', filter],
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

/** Joins and leaves arrive as `players:changed` (coalesced by the server): the lists are fetched again. */
export function usePlayersLiveEvents(): void {
  const token = useSession((state) => state.token);
  useEffect(() => {
    if (!token) return;
    const socket = liveSocketFor(token);
    const refresh = () => void queryClient.invalidateQueries({ queryKey: PLAYERS_KEY });
    socket.on('players:changed', refresh);
    socket.on('connect', refresh);
    return () => {
      socket.off('players:changed', refresh);
      socket.off('connect', refresh);
    };
  }, [token]);
}
