import { useMutation } from '@tanstack/react-query';
import type { SuccessResponse } from '@moonrelay/contract/common';
import type { SaveCloudPlaceRequest } from '@moonrelay/contract/cloud-runs';
import type { OpenCloudKey, SaveOpenCloudKeyRequest } from '@moonrelay/contract/open-cloud';
import { apiRequest } from '../../../lib/api-client.ts';
import { CLOUD_PLACE_PATH, refreshCloudPlace } from '../../../lib/cloud-place.ts';
import { OPEN_CLOUD_KEY_PATH, openCloudKeyQuery } from '../../../lib/open-cloud-key.ts';
import { queryClient } from '../../../lib/query-client.ts';

export { openCloudKeyQuery, useOpenCloudKey } from '../../../lib/open-cloud-key.ts';

/**
 * The key as shown here, and where cloud runs run as the editor's Run in Roblox reads it
 * (lib/cloud-place.ts): both change with the key and with the place.
 */
const refresh = () =>
  Promise.all([queryClient.invalidateQueries({ queryKey: openCloudKeyQuery().queryKey }), refreshCloudPlace()]);

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
    mutationFn: (request: SaveCloudPlaceRequest) => apiRequest<OpenCloudKey>('PUT', CLOUD_PLACE_PATH, request),
    onSuccess: (key) => {
      queryClient.setQueryData(openCloudKeyQuery().queryKey, { key });
      void refreshCloudPlace();
    },
  });
}

export function useRemoveOpenCloudKey() {
  return useMutation({
    mutationFn: () => apiRequest<SuccessResponse>('DELETE', OPEN_CLOUD_KEY_PATH),
    onSuccess: refresh,
  });
}
