import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiKeyList } from '@moonrelay/contract/api-keys';
import type { SuccessResponse } from '@moonrelay/contract/common';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

const pathOf = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/api-keys`;

export const userApiKeysQuery = (userId: string) =>
  queryOptions({ queryKey: [pathOf(userId)], queryFn: () => apiRequest<ApiKeyList>('GET', pathOf(userId)) });

/** A user's scoped API keys, fetched while the admin looks at them. */
export const useUserApiKeys = (userId: string, enabled: boolean) => useQuery({ ...userApiKeysQuery(userId), enabled });

/** Revokes one of a user's keys (audited); it stops working at once. */
export const useRevokeUserApiKey = (userId: string) =>
  useMutation({
    mutationFn: (keyId: string) =>
      apiRequest<SuccessResponse>('DELETE', `${pathOf(userId)}/${encodeURIComponent(keyId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userApiKeysQuery(userId).queryKey }),
  });
