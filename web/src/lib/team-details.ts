import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamDetails } from '@moonrelay/contract/teams';
import { apiRequest } from './api-client.ts';

export const teamPath = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;

/**
 * A team's members and (for a member with members.manage) its open invitations: the Team screen
 * manages them, and other screens name people by them (the Runs page's person filter).
 */
export const teamDetailsQuery = (teamId: string) =>
  queryOptions({
    queryKey: ['/api/teams', teamId],
    queryFn: () => apiRequest<TeamDetails>('GET', teamPath(teamId)),
  });

export function useTeamDetails(teamId: string | null) {
  // Other members join, leave and change while a screen that shows them is closed: each opening
  // reads them again (what was read shows meanwhile).
  return useQuery({ ...teamDetailsQuery(teamId ?? ''), enabled: teamId !== null, staleTime: 0 });
}
