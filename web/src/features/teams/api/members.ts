import { useMutation } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { CreatedInvitation, Grant, TeamMember } from '@moonrelay/contract/teams';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { refreshTeams } from '../../../lib/team-access.ts';
import { teamDetailsQuery, teamPath } from '../../../lib/team-details.ts';

const refresh = (teamId: string) => queryClient.invalidateQueries({ queryKey: teamDetailsQuery(teamId).queryKey });

/** An invitation link's secret: shown once, from this answer. */
export function useCreateInvitation(teamId: string) {
  return useMutation({
    mutationFn: (grant: Grant) => apiRequest<CreatedInvitation>('POST', `${teamPath(teamId)}/invitations`, grant),
    onSuccess: () => refresh(teamId),
  });
}

export function useRevokeInvitation(teamId: string) {
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiRequest<SuccessResponse>('DELETE', `${teamPath(teamId)}/invitations/${encodeURIComponent(invitationId)}`),
    onSuccess: () => refresh(teamId),
  });
}

/** A member's role, or their permissions one by one. */
export function useUpdateMember(teamId: string) {
  return useMutation({
    mutationFn: ({ userId, grant }: { userId: string; grant: Grant }) =>
      apiRequest<TeamMember>('PUT', `${teamPath(teamId)}/members/${encodeURIComponent(userId)}`, grant),
    // The person may have changed their own role: what they may do is read again too.
    onSuccess: () => Promise.all([refresh(teamId), refreshTeams()]),
  });
}

/** Removes a member; with the person's own id, they leave the team. */
export function useRemoveMember(teamId: string) {
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest<SuccessResponse>('DELETE', `${teamPath(teamId)}/members/${encodeURIComponent(userId)}`),
    onSuccess: () => refresh(teamId),
  });
}
