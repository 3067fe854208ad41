import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest, EndedSessions } from '@moonrelay/contract/sessions';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { signInMethodsQuery } from './google-link.ts';
import { refreshSessions } from './sessions.ts';

/**
 * The contract's checks of the form, loaded on first use: Settings' first paint does without zod
 * (docs/decisions/041), and the chunk is fetched while the user types.
 */
export const passwordChecks = () => import('@moonrelay/contract/sessions').then((m) => m.ChangePasswordRequestSchema);

/**
 * Sets a new password: with the current one as proof, or without (an account that has none, or a
 * session in sudo mode; else the sudo dialog asks). Every other session is signed out.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) => apiRequest<EndedSessions>('POST', '/api/user/password', request),
    onSuccess: async () => {
      await Promise.all([
        refreshSessions(),
        // An account that had no password has one now.
        queryClient.invalidateQueries({ queryKey: signInMethodsQuery().queryKey }),
      ]);
    },
  });
}
