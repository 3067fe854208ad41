import { useMutation } from '@tanstack/react-query';
import type { User } from '@moonrelay/contract/auth';
import type { ChangeEmailRequest } from '@moonrelay/contract/sessions';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { currentUserQuery } from './current-user.ts';

/** The contract's check of the new email, loaded on first use (see passwordChecks). */
export const emailChecks = () => import('@moonrelay/contract/sessions').then((m) => m.ChangeEmailRequestSchema);

/** Changes the account's email (a protected change: the sudo dialog may ask first). */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (request: ChangeEmailRequest) => apiRequest<User>('PUT', '/api/user/email', request),
    onSuccess: (user) => {
      useSession.getState().setUser(user);
      queryClient.setQueryData(currentUserQuery().queryKey, user);
    },
  });
}
