import { queryOptions, useQuery } from '@tanstack/react-query';
import { TEAM_ERRORS, type TeamPermission, type TeamSummary } from '@moonrelay/contract/teams';
import { ApiError, apiRequest } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { useSession } from './session.ts';
import { useTeam } from './team.ts';

/**
 * The teams the person belongs to (their personal team first) with their role and permissions in
 * each: what the team switcher lists and what the screens read to disable what a member may not do.
 * An account endpoint: the same answer whichever team is chosen.
 */
export const teamsQuery = () =>
  queryOptions({
    queryKey: ['/api/teams'],
    queryFn: () => apiRequest<TeamSummary[]>('GET', '/api/teams'),
  });

export function useTeams() {
  const token = useSession((state) => state.token);
  // Read again when the tab comes back: another member may have changed this person's role meanwhile.
  return useQuery({ ...teamsQuery(), enabled: Boolean(token), refetchOnWindowFocus: true });
}

export const refreshTeams = () => queryClient.invalidateQueries({ queryKey: teamsQuery().queryKey, exact: true });

/**
 * The chosen team's entry in the list; undefined while the list loads (or when the person is no
 * longer in the team: the team gate then takes them back to their own account).
 */
export function useCurrentTeam(): TeamSummary | undefined {
  const teamId = useTeam((state) => state.teamId);
  const teams = useTeams();
  return teams.data?.find((team) => (teamId ? team.id === teamId : team.personal));
}

/** What the person may do where the dashboard acts: everything on their own account. */
export type TeamPermissions = 'all' | ReadonlySet<TeamPermission>;

export function useTeamPermissions(): TeamPermissions {
  const teamId = useTeam((state) => state.teamId);
  const token = useSession((state) => state.token);
  // Read only on a team: the screens on the person's own account ask nothing more than before.
  const teams = useQuery({ ...teamsQuery(), enabled: Boolean(token) && teamId !== null, refetchOnWindowFocus: true });
  if (teamId === null) return 'all';
  // Unknown until the list answers: nothing is offered that the role might not allow.
  return new Set(teams.data?.find((team) => team.id === teamId)?.permissions ?? []);
}

/** Why a control is disabled: the words the server's own refusal ends with. */
export const needsPermissionText = (permission: TeamPermission) => `Needs the permission ${permission}`;

export interface Can {
  allowed: boolean;
  /** Set when not allowed: what to show beside (or as the title of) the disabled control. */
  reason?: string;
}

export function canWith(permissions: TeamPermissions, ...needed: TeamPermission[]): Can {
  const missing = permissions === 'all' ? undefined : needed.find((permission) => !permissions.has(permission));
  return missing ? { allowed: false, reason: needsPermissionText(missing) } : { allowed: true };
}

/** Whether the person's role in the chosen team allows an action needing all of `needed`. */
export function useCan(...needed: TeamPermission[]): Can {
  return canWith(useTeamPermissions(), ...needed);
}

/**
 * A refusal saying the person's role (or membership) changed since the list was read: the list is
 * read again, so the screens disable what is no longer allowed (or the gate leaves the team).
 */
function onRefusal(error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 403) return;
  const message = error.serverMessage ?? '';
  if (message.startsWith(TEAM_ERRORS.permissionMissingPrefix) || message === TEAM_ERRORS.headerInvalid) {
    void refreshTeams();
  }
}

queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'updated' && event.action.type === 'error') onRefusal(event.action.error);
});
queryClient.getMutationCache().subscribe((event) => {
  if (event.type === 'updated' && event.action.type === 'error') onRefusal(event.action.error);
});
