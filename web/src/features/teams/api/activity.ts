import { useInfiniteQuery } from '@tanstack/react-query';
import type { TeamActivityPage } from '@moonrelay/contract/teams';
import { apiRequest } from '../../../lib/api-client.ts';

/** Entries asked for at a time: a few screens of rows, well under the server's most (200). */
export const ACTIVITY_PAGE_SIZE = 100;

export interface ActivityFilter {
  /** An action family (`moderation.`), or '' for every action. */
  action: string;
  /** A member's user id, or '' for everyone. */
  actorId: string;
}

function activityPath(teamId: string, filter: ActivityFilter, cursor: string | undefined): string {
  const query = new URLSearchParams({ limit: String(ACTIVITY_PAGE_SIZE) });
  if (filter.action) query.set('action', filter.action);
  if (filter.actorId) query.set('actorId', filter.actorId);
  if (cursor) query.set('cursor', cursor);
  return `/api/teams/${encodeURIComponent(teamId)}/activity?${query.toString()}`;
}

/**
 * The team's activity log with these filters, newest first, a page at a time by the server's
 * cursor. Under the team details' key, so a change made on the Team screen (which reads the
 * details again) reads the log again too, and its entry shows.
 */
export function useTeamActivity(teamId: string, filter: ActivityFilter, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['/api/teams', teamId, 'activity', filter],
    queryFn: ({ pageParam }) => apiRequest<TeamActivityPage>('GET', activityPath(teamId, filter, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled,
    // Other members act while this screen is closed: it reads the log again each time it opens.
    staleTime: 0,
  });
}
