import { create } from 'zustand';
import { useSession } from './session.ts';

/**
 * The team the dashboard acts on (docs/decisions/049-teams-as-accounts.md): null for the person's
 * own account (their personal team, whose id is their user id), else the id of a team they belong
 * to. Every request then names it (api-client.ts sends the Moonrelay-Team header).
 *
 * Remembered per person in localStorage, so a reload (or the next sign-in on this browser by the
 * same person) opens the same team; forgotten on sign-out. Only this store and the switching in
 * team-switch.ts change it.
 */
export const TEAM_STORAGE_PREFIX = 'team:';

const storageKeyOf = (userId: string) => `${TEAM_STORAGE_PREFIX}${userId}`;

function storedTeamOf(userId: string | undefined): string | null {
  if (!userId) return null;
  const stored = localStorage.getItem(storageKeyOf(userId));
  // The personal team's id is the user's own: the same as none.
  return stored && stored !== userId ? stored : null;
}

interface TeamState {
  /** null: the person's own account. */
  teamId: string | null;
  /** Acts on this team from now on (null or the person's own id: their account). */
  setTeam(teamId: string | null): void;
}

export const useTeam = create<TeamState>((set) => ({
  teamId: storedTeamOf(useSession.getState().user?.id),
  setTeam(teamId) {
    const userId = useSession.getState().user?.id;
    const next = teamId && teamId !== userId ? teamId : null;
    if (userId) {
      if (next) localStorage.setItem(storageKeyOf(userId), next);
      else localStorage.removeItem(storageKeyOf(userId));
    }
    set({ teamId: next });
  },
}));

/** The value of the Moonrelay-Team header: the chosen team, none for the person's own account. */
export const teamHeaderValue = (): string | null => useTeam.getState().teamId;

/** The account the dashboard's data belongs to: the chosen team's, or the person's own. */
export const actingAccountId = (): string | undefined => useTeam.getState().teamId ?? useSession.getState().user?.id;

// Signing out forgets the choice; another person signing in gets their own.
useSession.subscribe((state, previous) => {
  if (!state.token && previous.token) {
    const userId = previous.user?.id;
    if (userId) localStorage.removeItem(storageKeyOf(userId));
    useTeam.setState({ teamId: null });
  } else if (state.user?.id !== previous.user?.id) {
    useTeam.setState({ teamId: storedTeamOf(state.user?.id) });
  }
});
