import { TEAM_ERRORS, type TeamSummary } from '@moonrelay/contract/teams';

/**
 * What the team gate does next, from the address's `?team=`, the chosen team and the person's
 * teams. A link names the team its page belongs to, so a link one member copies opens the same
 * team's page for another; the address then keeps naming the chosen team, so any copied link does.
 */
export type TeamLinkStep =
  /** Show the screens. */
  | { kind: 'ready' }
  /** The list of teams is needed first. */
  | { kind: 'wait' }
  /** Act on this team (null: the person's own account). `notice` says why, when they did not ask. */
  | { kind: 'switch'; teamId: string | null; notice?: string }
  /** The link names a team the person is not in: say so, and stay. */
  | { kind: 'refuse'; notice: string }
  /** The address should name this team (null: no parameter); the screens show meanwhile. */
  | { kind: 'tidy'; teamId: string | null };

export interface TeamLinkInput {
  /** `?team=` of the address, or null. */
  linked: string | null;
  /** The chosen team; null for the person's own account. */
  teamId: string | null;
  /** The person's user id: their own account's id. */
  userId: string | undefined;
  /** The person's teams; undefined until (or unless) the list answers. */
  teams: readonly TeamSummary[] | undefined;
  /** The list could not be read. */
  listFailed: boolean;
}

export const NO_LONGER_MEMBER = 'You are no longer a member of that team: showing your own account.';

export function teamLinkStep({ linked, teamId, userId, teams, listFailed }: TeamLinkInput): TeamLinkStep {
  const ownId = userId ?? teams?.find((team) => team.personal)?.id;
  const current = teamId ?? ownId;
  if (linked !== null && linked !== current) {
    if (linked === ownId) return { kind: 'switch', teamId: null };
    if (teams) {
      return teams.some((team) => team.id === linked)
        ? { kind: 'switch', teamId: linked }
        : { kind: 'refuse', notice: TEAM_ERRORS.notFound };
    }
    return listFailed ? { kind: 'refuse', notice: 'Your teams could not be loaded.' } : { kind: 'wait' };
  }
  if (teamId === null) return linked === null ? { kind: 'ready' } : { kind: 'tidy', teamId: null };
  if (teams && !teams.some((team) => team.id === teamId)) {
    return { kind: 'switch', teamId: null, notice: NO_LONGER_MEMBER };
  }
  // Until the list answers, the chosen team is not known to still be the person's: nothing of it shows.
  if (!teams && !listFailed) return { kind: 'wait' };
  return linked === teamId ? { kind: 'ready' } : { kind: 'tidy', teamId };
}
