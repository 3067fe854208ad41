import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudPlaceStatus } from '@moonrelay/contract/cloud-runs';
import { apiRequest } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { useSession } from './session.ts';

/**
 * Where the account's cloud runs run and whether one can start now (GET /api/open-cloud/place:
 * universe, place, pinned version, and the refusal a run would get). Unlike the Open Cloud key, it
 * is anyone's who may run in the game (runs.game), so a team's developer sees the place in the
 * editor too. Settings invalidates it when it saves or removes the key or saves the place.
 */
export const CLOUD_PLACE_PATH = '/api/open-cloud/place';

export const cloudPlaceQuery = () =>
  queryOptions({
    queryKey: [CLOUD_PLACE_PATH],
    queryFn: () => apiRequest<CloudPlaceStatus>('GET', CLOUD_PLACE_PATH),
  });

/** `enabled`: false where the member's role does not include runs.game (the call would be refused). */
export function useCloudPlace(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...cloudPlaceQuery(), enabled: enabled && Boolean(token) });
}

/** Reads it again: the key or the place changed, or a run was refused for what it said was ready. */
export const refreshCloudPlace = () =>
  queryClient.invalidateQueries({ queryKey: cloudPlaceQuery().queryKey, exact: true });
