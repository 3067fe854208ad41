import type { TeamSummary } from '@moonrelay/contract/teams';

/**
 * The teams a script of the chosen team can be copied into: the person's others where they hold
 * scripts.write, which the server asks of the team a copy goes to. `currentTeamId` null is the
 * person's own account (their personal team), which is then not a target but may be otherwise.
 */
export function copyTargets(teams: readonly TeamSummary[], currentTeamId: string | null): TeamSummary[] {
  return teams.filter(
    (team) =>
      (currentTeamId === null ? !team.personal : team.id !== currentTeamId) &&
      team.permissions.includes('scripts.write'),
  );
}
