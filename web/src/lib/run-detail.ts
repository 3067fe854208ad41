import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CloudRunLogsEvent } from '@moonrelay/contract/cloud-runs';
import type { Run } from '@moonrelay/contract/runs';
import { apiRequest } from './api-client.ts';
import { applyCloudLogs, withLiveCloud } from './cloud-run.ts';
import { queryClient } from './query-client.ts';
import { useSession } from './session.ts';
import { useLiveSocketState } from './socket.ts';

/**
 * One run in full (GET /api/executions/{id}). Here rather than in the Runs page's feature: the
 * Script Editor follows a cloud run it started through the same query, so the live patches of
 * `execution:logs` reach both screens, and neither fetches the run twice.
 */

/** While the live socket is down, a pending run is fetched again this often. */
export const RUN_POLL_MS = 5_000;

/** Everything cached of the run history. */
export const RUNS_KEY = ['/api/executions'] as const;

/** Every cached run in full. */
export const runDetailsKey = [...RUNS_KEY, 'run'] as const;

const runPath = (id: string) => `/api/executions/${encodeURIComponent(id)}`;

export const runQuery = (id: string) => {
  const queryKey = [...runDetailsKey, id] as const;
  return queryOptions({
    queryKey,
    queryFn: async () => {
      const fetched = await apiRequest<Run>('GET', runPath(id));
      // Lines told live while this answer was on its way may be newer than it.
      return withLiveCloud(fetched, queryClient.getQueryData<Run>(queryKey));
    },
  });
};

export function useRun(id: string | null) {
  const token = useSession((state) => state.token);
  const socketConnected = useLiveSocketState((state) => state.connected);
  return useQuery({
    ...runQuery(id ?? ''),
    enabled: Boolean(token) && id !== null,
    refetchInterval: (query) => (!socketConnected && query.state.data?.status === 'pending' ? RUN_POLL_MS : false),
  });
}

/**
 * `execution:logs`: a cloud run's new lines and state, added to the run where a screen has it. A
 * run whose first fetch is on its way has nothing to add them to, and that answer may have been
 * read before these lines were kept: it is fetched again, so it includes them. A run nobody
 * looks at is left alone (it is fetched in full when opened).
 */
export function onCloudLogs(event: CloudRunLogsEvent): void {
  const { queryKey } = runQuery(event.executionId);
  const state = queryClient.getQueryState<Run>(queryKey);
  if (!state) return;
  if (state.data === undefined) {
    if (state.fetchStatus === 'fetching') {
      void queryClient.cancelQueries({ queryKey }).then(() => queryClient.invalidateQueries({ queryKey }));
    }
    return;
  }
  queryClient.setQueryData<Run>(queryKey, (run) => (run ? applyCloudLogs(run, event) : run));
}

/**
 * Cancels a cloud run still waiting in Moonrelay's queue (POST /api/executions/{id}/cancel; a 409
 * once Roblox has it). The answer is the run as it ended, shown at once.
 */
export const useCancelCloudRun = () =>
  useMutation({
    mutationFn: (id: string) => apiRequest<Run>('POST', `${runPath(id)}/cancel`),
    onSuccess: (run) => queryClient.setQueryData(runQuery(run.id).queryKey, run),
  });
