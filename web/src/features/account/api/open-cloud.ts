import { useMutation } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { SaveCloudPlaceRequest } from '@moonrelay/contract/cloud-runs';
import type { OpenCloudKey, SaveOpenCloudKeyRequest } from '@moonrelay/contract/open-cloud';
import { apiRequest } from '../../../lib/api-client.ts';
import { OPEN_CLOUD_KEY_PATH, openCloudKeyQuery } from '../../../lib/open-cloud-key.ts';
import { queryClient } from '../../../lib/query-client.ts';

// The key's query is shared with the editor (its Run in Roblox names the place): lib/open-cloud-key.ts.
export { openCloudKeyQuery, useOpenCloudKey } from '../../../lib/open-cloud-key.ts';

const refresh = () => queryClient.invalidateQueries({ queryKey: openCloudKeyQuery().queryKey });

/** Saves or replaces the key; Roblox is asked before anything is stored. */
export function useSaveOpenCloudKey() {
  return useMutation({
    mutationFn: (request: SaveOpenCloudKeyRequest) => apiRequest<OpenCloudKey>('PUT', OPEN_CLOUD_KEY_PATH, request),
    onSuccess: refresh,
  });
}

/** Sets the place cloud runs use, and its pinned version (null: the newest); the answer is the key as saved. */
export function useSaveCloudPlace() {
  return useMutation({
    mutationFn: (request: SaveCloudPlaceRequest) => apiRequest<OpenCloudKey>('PUT', '/api/open-cloud/place', request),
    onSuccess: (key) => queryClient.setQueryData(openCloudKeyQuery().queryKey, { key }),
  });
}

export function useRemoveOpenCloudKey() {
  return useMutation({
    mutationFn: () => apiRequest<SuccessResponse>('DELETE', OPEN_CLOUD_KEY_PATH),
    onSuccess: refresh,
  });
}
