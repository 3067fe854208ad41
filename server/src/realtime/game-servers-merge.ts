import type { GameServersChange } from '@moonrelay/contract/events';
import type { GameServer } from '@moonrelay/contract/game';

/** One user's game-server changes merged: the newest word on each server wins. */
export interface MergedServers {
  servers: Map<string, GameServer>;
  /** Server id -> its last ping, for servers that stopped pinging. */
  gone: Map<string, string>;
}

export const emptyMerged = (): MergedServers => ({ servers: new Map(), gone: new Map() });

/**
 * Merges a change into what is waiting. Ping times decide, not arrival: with several instances a
 * change published by one may arrive after a newer one from another. A server announced gone at
 * its last ping stays gone unless it pinged after that.
 */
export function mergeChange(into: MergedServers, change: GameServersChange): void {
  for (const server of change.servers) {
    const known = into.servers.get(server.serverId);
    if (known && known.lastPing > server.lastPing) continue;
    const goneAt = into.gone.get(server.serverId);
    if (goneAt !== undefined && goneAt >= server.lastPing) continue;
    into.gone.delete(server.serverId);
    into.servers.set(server.serverId, server);
  }
  for (const { serverId, lastPing } of change.gone) {
    const known = into.servers.get(serverId);
    if (known && known.lastPing > lastPing) continue;
    into.servers.delete(serverId);
    into.gone.set(serverId, lastPing);
  }
}

export function toChange(userId: string, merged: MergedServers): GameServersChange {
  return {
    userId,
    servers: [...merged.servers.values()],
    gone: [...merged.gone].map(([serverId, lastPing]) => ({ serverId, lastPing })),
  };
}
