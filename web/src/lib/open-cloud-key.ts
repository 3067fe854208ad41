import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenCloudKeyStatus } from '@moonrelay/contract/open-cloud';
import { apiRequest } from './api-client.ts';
import { useSession } from './session.ts';

/**
 * The saved Open Cloud key (GET /api/open-cloud/key: masked, with its universe, place and scopes),
 * for those whose role may manage it (opencloud.manage): Settings shows and changes it. The editor
 * reads where cloud runs run from GET /api/open-cloud/place instead (lib/cloud-place.ts), which
 * whoever may run in the game may ask.
 */
export const OPEN_CLOUD_KEY_PATH = '/api/open-cloud/key';

export const openCloudKeyQuery = () =>
  queryOptions({
    queryKey: [OPEN_CLOUD_KEY_PATH],
    queryFn: () => apiRequest<OpenCloudKeyStatus>('GET', OPEN_CLOUD_KEY_PATH),
  });

/** `enabled`: false where the member's role may not manage the team's Open Cloud key (the call would be refused). */
export function useOpenCloudKey(enabled = true) {
  const token = useSession((state) => state.token);
  return useQuery({ ...openCloudKeyQuery(), enabled: enabled && Boolean(token) });
}
