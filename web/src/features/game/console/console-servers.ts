import type { ConsoleErrorCounts } from '@moonrelay/contract/console';
import type { GameServer } from '@moonrelay/contract/game';
import { isSimulatedServerId, SIMULATOR_TEXT } from '@moonrelay/contract/simulated';
import type { ConsoleServerOption } from '../../../components/console/ConsoleView.tsx';
import { countText } from '../../../components/console/console-format.ts';
import { shortId } from '../../../lib/format.ts';

/**
 * The console's server picker: the game servers of the status (in the order they connected, as
 * the Game panel lists them), then any other server that logged errors in the last hour (it may
 * have stopped; its lines are kept). Each says its errors of the last hour.
 */
export function consoleServerOptions(
  servers: readonly GameServer[] | undefined,
  counts: ConsoleErrorCounts | undefined,
): ConsoleServerOption[] {
  const errors = new Map(counts?.servers.map((server) => [server.serverId, server.errorsLastHour]));
  const label = (serverId: string, playerName?: string) => {
    // A simulated server's id is shown whole with its mark: cut to 8 characters it would read "simulate…".
    const id = isSimulatedServerId(serverId) ? `${serverId} · ${SIMULATOR_TEXT.badge}` : shortId(serverId);
    const name = playerName ? `${id} · ${playerName}` : id;
    const count = errors.get(serverId) ?? 0;
    return count ? `${name} (${countText(count, 'error', 'errors')} in the last hour)` : name;
  };
  const known = [...(servers ?? [])].sort((a, b) =>
    a.connectedAt < b.connectedAt ? -1 : a.connectedAt > b.connectedAt ? 1 : 0,
  );
  const options = known.map((server) => ({
    serverId: server.serverId,
    label: label(server.serverId, server.gameData?.playerName),
  }));
  for (const serverId of errors.keys()) {
    if (!options.some((option) => option.serverId === serverId)) options.push({ serverId, label: label(serverId) });
  }
  return options;
}
