import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '@moonrelay/contract/api-keys';
import type { SuccessResponse } from '@moonrelay/contract/common';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: ['/api/user/api-keys'],
    queryFn: () => apiRequest<ApiKeyList>('GET', '/api/user/api-keys'),
  });

/** The user's scoped API keys, masked. `enabled`: false where the member's role may not manage keys. */
export function useApiKeys(enabled = true) {
  return useQuery({ ...apiKeysQuery(), enabled });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysQuery().queryKey });

/** Creates a key; its answer holds the key itself, shown this once. */
export function useCreateApiKey() {
  return useMutation({
    mutationFn: (request: CreateApiKeyRequest) => apiRequest<CreatedApiKey>('POST', '/api/user/api-keys', request),
    onSuccess: refresh,
  });
}

export function useRevokeApiKey() {
  return useMutation({
    mutationFn: (keyId: string) =>
      apiRequest<SuccessResponse>('DELETE', `/api/user/api-keys/${encodeURIComponent(keyId)}`),
    onSuccess: refresh,
  });
}
