import { useMutation } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { adminUsersKey } from './users.ts';

/** The account feature's current-user query (its key is its GET path): an admin may demote themselves. */
const CURRENT_USER_QUERY_KEY = ['/api/user'] as const;

export interface RoleChange {
  userId: string;
  isAdmin: boolean;
}

/**
 * Promotes a user to admin or demotes them (POST /api/admin/users/{id}/role). The server refuses to
 * demote the last admin (409 'The last admin cannot be demoted').
 */
export const useSetUserRole = () =>
  useMutation({
    mutationFn: ({ userId, isAdmin }: RoleChange) =>
      apiRequest<SuccessResponse>('POST', `/api/admin/users/${encodeURIComponent(userId)}/role`, { isAdmin }),
    onSuccess: (_answer, { userId }) => {
      if (userId === useSession.getState().user?.id) {
        void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
