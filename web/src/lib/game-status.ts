import { queryOptions, useQuery } from '@tanstack/react-query';
import { GAME_HEALTH_POLL_MS, GAME_STATUS_POLL_MS } from '@moonrelay/contract/constants';
import type { GameStatus } from '@moonrelay/contract/game';
import { apiRequest } from './api-client.ts';
import { useSession } from './session.ts';
import { useLiveSocketState } from './socket.ts';
import { useCan } from './team-access.ts';

/** Whether a game is connected, its last ping and player data, and every live game server. */
export const gameStatusQuery = () =>
  queryOptions({
    queryKey: ['/api/game/status'],
    queryFn: () => apiRequest<GameStatus>('GET', '/api/game/status'),
  });

/**
 * The game status. While the live socket is up, `game:servers` changes keep this query's data
 * current (useLiveEvents), so it is fetched once (and again on each reconnect); while the socket is down it is polled every 2 s
 * (spec section 9) so the screens never go stale for long. Not asked for (nor polled) where the
 * member's role may not see the team's game servers (console.read): the server would refuse each time.
 */
export function useGameStatus() {
  const token = useSession((state) => state.token);
  const socketConnected = useLiveSocketState((state) => state.connected);
  const watch = useCan('console.read');
  return useQuery({
    ...gameStatusQuery(),
    enabled: Boolean(token) && watch.allowed,
    // With no game connected the socket brings no news of a game whose pings are refused: read the
    // status now and then to show them.
    refetchInterval: (query) =>
      !socketConnected ? GAME_STATUS_POLL_MS : query.state.data?.connected ? false : GAME_HEALTH_POLL_MS,
  });
}
