import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { ADMIN_PAGE_SIZE_DEFAULT } from '@moonrelay/contract/constants';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { useTeam } from '../../../lib/team.ts';

/**
 * What the admin lists share. Each is a page of `?page=&pageSize=` (50 a page, the API's default).
 * While the live socket is up, socket events keep them current (live/useAdminLiveEvents.ts), so they
 * are fetched once; while it is down they are polled at the spec's intervals (ADMIN_POLL_MS).
 */
export const ADMIN_PAGE_SIZE = ADMIN_PAGE_SIZE_DEFAULT;

/** Every admin query's key starts with its GET path, then the page. */
export const adminPageKey = (path: string, page: number) => [path, page] as const;

export const isAdminQueryKey = (queryKey: QueryKey) =>
  typeof queryKey[0] === 'string' && queryKey[0].startsWith('/api/admin/');

export const fetchAdminPage = <T>(path: string, page: number) =>
  apiRequest<T>('GET', `${path}?page=${page}&pageSize=${ADMIN_PAGE_SIZE}`);

/**
 * Poll every `pollMs` only while the live socket is down, or watches a team: a team's socket is not
 * an admin's and hears none of the admins' events.
 */
export function useAdminPollInterval(pollMs: number): number | false {
  const socketConnected = useLiveSocketState((state) => state.connected);
  const onTeam = useTeam((state) => state.teamId !== null);
  return socketConnected && !onTeam ? false : pollMs;
}

/**
 * A page of an admin list, fetched with the session (admins only: 403 for anyone else). `live`:
 * the admin's socket hears of the list's changes (polled only while it is down); a list no event
 * tells of is polled all the time.
 */
export function useAdminPage<T>(path: string, page: number, pollMs: number, { live = true }: { live?: boolean } = {}) {
  const token = useSession((state) => state.token);
  const livePoll = useAdminPollInterval(pollMs);
  return useQuery({
    queryKey: adminPageKey(path, page),
    queryFn: () => fetchAdminPage<T>(path, page),
    enabled: Boolean(token),
    refetchInterval: live ? livePoll : pollMs,
    // Turning a page keeps the rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}
