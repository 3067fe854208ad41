import { useMutation } from '@tanstack/react-query';
import type { RegenerateKeyResponse } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { currentUserQuery } from './current-user.ts';

/** Replaces the API key; the old one stops working at once. The new key and user are stored locally. */
export function useRegenerateKey() {
  return useMutation({
    mutationFn: () => apiRequest<RegenerateKeyResponse>('POST', '/api/user/regenerate-key'),
    onSuccess: ({ user }) => {
      useSession.getState().setUser(user);
      queryClient.setQueryData(currentUserQuery().queryKey, user);
    },
  });
}
