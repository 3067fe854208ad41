import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { BanList, BanRequest, ModerationAction, ModerationHistory } from '@moonrelay/contract/moderation';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';

const historyKey = (userId: number) => ['/api/players', 'moderation', userId] as const;
const BAN_LIST_KEY = ['/api/players', 'bans'] as const;
/** While an action is pending, the history is fetched again this often, so its state shows when it lands. */
const PENDING_POLL_MS = 2_000;

/** A player's moderation history and the ban in force (GET /api/players/{userId}/moderation). */
export function useModerationHistory(userId: number) {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: historyKey(userId),
    queryFn: () => apiRequest<ModerationHistory>('GET', `/api/players/${userId}/moderation`),
    enabled: Boolean(token),
    refetchInterval: (query) =>
      query.state.data?.actions.some((action) => action.state === 'pending') ? PENDING_POLL_MS : false,
  });
}

/**
 * The bans in force a page at a time (GET /api/players/bans): Moonrelay's (with path and state),
 * newest first, paged by cursor, and with the first page those made elsewhere that the last Open
 * Cloud import found.
 */
export function useBanPages() {
  const token = useSession((state) => state.token);
  return useInfiniteQuery({
    queryKey: BAN_LIST_KEY,
    queryFn: ({ pageParam }) =>
      apiRequest<BanList>('GET', `/api/players/bans${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: Boolean(token),
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.bans.some((ban) => ban.state === 'pending'))
        ? PENDING_POLL_MS
        : false,
  });
}

/** What a moderation dialog sends: each kind its own endpoint. */
export type ModerationRequest =
  | { kind: 'note'; text: string }
  | { kind: 'warning' | 'kick'; message: string }
  | { kind: 'ban' | 'editBan'; ban: BanRequest }
  | { kind: 'unban'; reason?: string };

function send(userId: number, request: ModerationRequest): Promise<ModerationAction> {
  const base = `/api/players/${userId}`;
  switch (request.kind) {
    case 'note':
      return apiRequest('POST', `${base}/notes`, { text: request.text });
    case 'warning':
      return apiRequest('POST', `${base}/warnings`, { message: request.message });
    case 'kick':
      return apiRequest('POST', `${base}/kick`, { message: request.message });
    case 'ban':
      return apiRequest('POST', `${base}/ban`, request.ban);
    case 'editBan':
      return apiRequest('PUT', `${base}/ban`, request.ban);
    case 'unban':
      return apiRequest('POST', `${base}/unban`, request.reason ? { reason: request.reason } : {});
  }
}

export function useModerate(userId: number) {
  return useMutation({
    mutationFn: (request: ModerationRequest) => send(userId, request),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: historyKey(userId) }),
        queryClient.invalidateQueries({ queryKey: BAN_LIST_KEY }),
      ]),
  });
}
