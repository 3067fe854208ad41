import { useMutation } from '@tanstack/react-query';
import type { RegenerateKeyResponse } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useTeam } from '../../../lib/team.ts';

/** The game's integration scripts (Game, Connect the game), which carry the account's key. */
const INTEGRATION_SCRIPTS_KEY = ['/api/game/integration-scripts'];
import { currentUserQuery } from './current-user.ts';

/**
 * Replaces the API key; the old one stops working at once. On one's own account the new key and
 * user are stored locally. On a team it is the team's game key that is replaced, and the answer's
 * user is the team's account, not the person signed in: it is not stored, and the integration
 * scripts, which carry the team's key, are read again.
 */
export function useRegenerateKey() {
  return useMutation({
    mutationFn: () => apiRequest<RegenerateKeyResponse>('POST', '/api/user/regenerate-key'),
    onSuccess: ({ user }) => {
      if (useTeam.getState().teamId !== null) {
        void queryClient.invalidateQueries({ queryKey: INTEGRATION_SCRIPTS_KEY });
        return;
      }
      useSession.getState().setUser(user);
      queryClient.setQueryData(currentUserQuery().queryKey, user);
    },
  });
}
