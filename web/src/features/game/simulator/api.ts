import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { SimulatorStatus } from '@moonrelay/contract/simulator';
import { apiRequest } from '../../../lib/api-client.ts';
import { gameStatusQuery } from '../../../lib/game-status.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useCan } from '../../../lib/team-access.ts';

/** The signed-in user's simulated game server (GET /api/game/simulator). */
export const simulatorQuery = () =>
  queryOptions({
    queryKey: ['/api/game/simulator'],
    queryFn: () => apiRequest<SimulatorStatus>('GET', '/api/game/simulator'),
  });

/**
 * Read once, then kept by the start and stop answers; read again when it should have ended or its
 * server stopped pinging (SimulatorBar), so it is never polled. Not asked for where the member's role
 * may not see the team's game servers (console.read, what the endpoint asks).
 */
export function useSimulator() {
  const token = useSession((state) => state.token);
  const watch = useCan('console.read');
  return useQuery({ ...simulatorQuery(), enabled: Boolean(token) && watch.allowed });
}

/** A start or stop answers the status: kept as it is, and the game status read again for the server. */
function settled(status: SimulatorStatus) {
  queryClient.setQueryData(simulatorQuery().queryKey, status);
  void queryClient.invalidateQueries({ queryKey: gameStatusQuery().queryKey });
}

export const useStartSimulator = () =>
  useMutation({
    mutationFn: () => apiRequest<SimulatorStatus>('POST', '/api/game/simulator'),
    onSuccess: settled,
  });

export const useStopSimulator = () =>
  useMutation({
    mutationFn: () => apiRequest<SimulatorStatus>('DELETE', '/api/game/simulator'),
    onSuccess: settled,
  });
