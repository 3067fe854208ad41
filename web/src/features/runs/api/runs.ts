import { infiniteQueryOptions, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import type { ExecutionTarget } from '@moonrelay/contract/executions';
import type { Run, RunPage } from '@moonrelay/contract/runs';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ExecutionResult } from '../../../lib/execution-result.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { RUN_POLL_MS, RUNS_KEY } from '../../../lib/run-detail.ts';
import { useSession } from '../../../lib/session.ts';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { runsQueryString, type RunFilters } from '../run-filters.ts';

/**
 * The run history. Lists are kept current by `execution:updated` events (useRunsLiveEvents) while
 * the live socket is up, and polled while it is down.
 */
export const RUNS_POLL_MS = RUN_POLL_MS;

/** Everything cached of the run history. */
export const allRunsKey = RUNS_KEY;

/** Every cached list of runs, whatever its filters (the live events patch them all). */
export const runListsKey = [...RUNS_KEY, 'list'] as const;

/** The user's runs with these filters, newest first, a page at a time (GET /api/executions). */
export const runsQuery = (filters: RunFilters) =>
  infiniteQueryOptions({
    queryKey: [...runListsKey, filters],
    queryFn: ({ pageParam }) => apiRequest<RunPage>('GET', `/api/executions${runsQueryString(filters, pageParam)}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

export function useRuns(filters: RunFilters) {
  const token = useSession((state) => state.token);
  const socketConnected = useLiveSocketState((state) => state.connected);
  return useInfiniteQuery({
    ...runsQuery(filters),
    enabled: Boolean(token),
    refetchInterval: socketConnected ? false : RUNS_POLL_MS,
  });
}

// One run in full is shared with the editor, which follows the cloud runs it starts (lib/run-detail.ts).
export { runDetailsKey, runQuery, useRun } from '../../../lib/run-detail.ts';

/** The scripts feature's list (its query key is its GET path): a run changes a script's executionCount. */
const SCRIPTS_QUERY_KEY = ['/api/scripts'] as const;

/**
 * Runs a run again where it ran: a saved script by its id (its current code), custom code (or a
 * script deleted since) by the code the run kept; a game run on the same game server, a cloud run
 * with the same time limit.
 */
export const useRunAgain = () =>
  useMutation({
    mutationFn: (run: Pick<Run, 'scriptId' | 'code' | 'target' | 'serverId' | 'cloud'>) => {
      const where: { target: ExecutionTarget; serverId?: string; timeoutSeconds?: number } = { target: run.target };
      if (run.target === 'game' && run.serverId) where.serverId = run.serverId;
      if (run.target === 'cloud' && run.cloud) where.timeoutSeconds = run.cloud.timeoutSeconds;
      return run.scriptId
        ? apiRequest<ExecutionResult>('POST', `/api/scripts/${encodeURIComponent(run.scriptId)}/execute`, where)
        : apiRequest<ExecutionResult>('POST', '/api/scripts/execute', { code: run.code, ...where });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: SCRIPTS_QUERY_KEY }),
  });
