import { queryOptions, useQuery } from '@tanstack/react-query';
import { GAME_STATUS_POLL_MS } from '@moonrelay/contract/constants';
import type { ConsoleErrorCounts, ConsoleLine, ConsolePage } from '@moonrelay/contract/console';
import type { ConsoleFilter } from '../../../components/console/console-feed.ts';
import { consoleSearch } from '../../../components/console/console-source.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useSession } from '../../../lib/session.ts';
import { useCan } from '../../../lib/team-access.ts';

/** GET /api/game/console: the signed-in user's game servers' lines, newest first. */
export const GAME_CONSOLE_PATH = '/api/game/console';

export const fetchGameConsole = (filter: ConsoleFilter, cursor: string | null) =>
  apiRequest<ConsolePage>('GET', GAME_CONSOLE_PATH + consoleSearch(filter, cursor));

/**
 * The last hour's errors per game server, for the server cards. New error lines add to it as the
 * live socket brings them (useLiveEvents); every 30 s it is fetched again, which also lets errors
 * older than an hour leave the count.
 */
export const CONSOLE_ERRORS_POLL_MS = 30_000;

export const consoleErrorCountsQuery = () =>
  queryOptions({
    queryKey: ['/api/game/console/errors'],
    queryFn: () => apiRequest<ConsoleErrorCounts>('GET', '/api/game/console/errors'),
  });

/** Not asked for (nor polled) where the member's role may not read the console (console.read). */
export function useConsoleErrorCounts() {
  const token = useSession((state) => state.token);
  const read = useCan('console.read');
  return useQuery({
    ...consoleErrorCountsQuery(),
    enabled: Boolean(token) && read.allowed,
    refetchInterval: CONSOLE_ERRORS_POLL_MS,
  });
}

/** Errors in the last hour of one game server, once the counts are known. */
export function useServerErrorCount(serverId: string | undefined): number | undefined {
  const counts = useConsoleErrorCounts();
  if (!counts.data || serverId === undefined) return undefined;
  return counts.data.servers.find((server) => server.serverId === serverId)?.errorsLastHour ?? 0;
}

/** Counts the error lines of a `console:lines` event into the counts already fetched (if any). */
export function countNewErrors(lines: readonly ConsoleLine[]): void {
  const errors = new Map<string, number>();
  for (const line of lines) {
    if (line.level === 'error') errors.set(line.serverId, (errors.get(line.serverId) ?? 0) + 1);
  }
  if (errors.size === 0) return;
  queryClient.setQueryData<ConsoleErrorCounts>(consoleErrorCountsQuery().queryKey, (counts) => {
    if (!counts) return counts;
    const servers = counts.servers.map((server) => ({
      ...server,
      errorsLastHour: server.errorsLastHour + (errors.get(server.serverId) ?? 0),
    }));
    for (const [serverId, count] of errors) {
      if (!servers.some((server) => server.serverId === serverId)) servers.push({ serverId, errorsLastHour: count });
    }
    return { servers };
  });
}

/** While the live socket is down, the console polls its newest lines as often as the game status. */
export const CONSOLE_POLL_MS = GAME_STATUS_POLL_MS;
