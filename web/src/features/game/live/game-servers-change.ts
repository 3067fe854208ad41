import type { GameServersChange } from '@moonrelay/contract/events';
import type { GameServer, GameStatus } from '@moonrelay/contract/game';

const newestFirst = (a: GameServer, b: GameServer) => (a.lastPing < b.lastPing ? 1 : a.lastPing > b.lastPing ? -1 : 0);

/**
 * Applies one `game:servers` change to the status the screens hold (fetched whole once, from
 * GET /api/game/status). Ping times decide: a change older than what is shown is ignored, so a
 * change that was on its way while the status was fetched cannot undo the fetch. With no live
 * server left, the last ping and player data stay as the last known ones (the screens say when).
 */
export function applyServersChange(status: GameStatus, change: GameServersChange): GameStatus {
  const byId = new Map(status.servers.map((server) => [server.serverId, server]));
  for (const server of change.servers) {
    const known = byId.get(server.serverId);
    if (!known || known.lastPing <= server.lastPing) byId.set(server.serverId, server);
  }
  for (const { serverId, lastPing } of change.gone) {
    const known = byId.get(serverId);
    if (known && known.lastPing <= lastPing) byId.delete(serverId);
  }
  const servers = [...byId.values()].filter((server) => server.connected).sort(newestFirst);
  const newest = servers[0];
  return {
    connected: servers.length > 0,
    lastPing: newest && (!status.lastPing || newest.lastPing >= status.lastPing) ? newest.lastPing : status.lastPing,
    gameData: newest ? newest.gameData : status.gameData,
    servers,
  };
}
