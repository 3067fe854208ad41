import { useServerChoice } from './game-link.ts';
import { queryClient } from './query-client.ts';
import { teamsQuery } from './team-access.ts';
import { useTeam } from './team.ts';

/** The query parameter naming the team a page belongs to: `/runs?team=<id>`. */
export const TEAM_PARAM = 'team';

/**
 * The search of a link to `team`'s pages: `?team=<id>`, which the team gate follows. The person's
 * own account is named by their user id, like any team; the gate then drops the parameter.
 */
export const teamSearch = (teamId: string) => `?${new URLSearchParams({ [TEAM_PARAM]: teamId }).toString()}`;

/**
 * Acts on another team from now on. What was fetched for the previous team goes first, requests
 * still out included, so none of its data stays on screen or lands after the change; the list of
 * teams is the person's own and stays, and the game server picked was one of the previous team's.
 * The signed-in screens are keyed by the team (SignedInApp), so they mount afresh and fetch the
 * new team's data.
 */
export function switchTeam(teamId: string | null): void {
  // Cancelling happens at once (the promise only tells when every query has settled).
  void queryClient.cancelQueries();
  const teams = queryClient.getQueryData(teamsQuery().queryKey);
  useTeam.getState().setTeam(teamId);
  queryClient.clear();
  useServerChoice.setState({ serverId: null });
  if (teams) queryClient.setQueryData(teamsQuery().queryKey, teams);
}
