import { useMutation, useQuery } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { InvitationPreview, TeamSummary } from '@moonrelay/contract/teams';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { teamsQuery } from '../../../lib/team-access.ts';

/**
 * The list of teams is read again before the caller goes on: the team gate follows a link only to
 * a team in that list, and the new team must be in it.
 */
async function withTeamsRead(team: TeamSummary): Promise<TeamSummary> {
  try {
    await queryClient.fetchQuery({ ...teamsQuery(), staleTime: 0 });
  } catch {
    // The team exists all the same: it joins the list already read, as the server answered it.
    queryClient.setQueryData<TeamSummary[]>(teamsQuery().queryKey, (teams) =>
      teams && !teams.some((listed) => listed.id === team.id) ? [...teams, team] : teams,
    );
  }
  return team;
}

/** Creates a team, owned by the person; it starts empty. */
export function useCreateTeam() {
  return useMutation({
    mutationFn: async (name: string) => withTeamsRead(await apiRequest<TeamSummary>('POST', '/api/teams', { name })),
  });
}

/**
 * What an invitation link offers (the team, the role, who invited, until when), read before the
 * person chooses to join: the server checks it as joining would, and uses nothing up.
 */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['/api/teams/invitations', token],
    queryFn: () => apiRequest<InvitationPreview>('GET', `/api/teams/invitations/${encodeURIComponent(token)}`),
    enabled: token !== '',
  });
}

/** Joins the team of an invitation link (its token is used up). */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: async (token: string) =>
      withTeamsRead(await apiRequest<TeamSummary>('POST', '/api/teams/join', { token })),
  });
}

/**
 * Deletes a team with everything it owns (a protected change: the API client asks the person to
 * confirm it is them first).
 */
export function useDeleteTeam(teamId: string) {
  return useMutation({
    mutationFn: () => apiRequest<SuccessResponse>('DELETE', `/api/teams/${encodeURIComponent(teamId)}`),
  });
}
