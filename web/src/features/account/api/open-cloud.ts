import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { OpenCloudKey, OpenCloudKeyStatus, SaveOpenCloudKeyRequest } from '@moonrelay/contract/open-cloud';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

const PATH = '/api/open-cloud/key';

export const openCloudKeyQuery = () =>
  queryOptions({
    queryKey: [PATH],
    queryFn: () => apiRequest<OpenCloudKeyStatus>('GET', PATH),
  });

/** `enabled`: false where the member's role may not manage the team's Open Cloud key. */
export function useOpenCloudKey(enabled = true) {
  return useQuery({ ...openCloudKeyQuery(), enabled });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: openCloudKeyQuery().queryKey });

/** Saves or replaces the key; Roblox is asked before anything is stored. */
export function useSaveOpenCloudKey() {
  return useMutation({
    mutationFn: (request: SaveOpenCloudKeyRequest) => apiRequest<OpenCloudKey>('PUT', PATH, request),
    onSuccess: refresh,
  });
}

export function useRemoveOpenCloudKey() {
  return useMutation({
    mutationFn: () => apiRequest<SuccessResponse>('DELETE', PATH),
    onSuccess: refresh,
  });
}
