import type { GameServer, GameStatus } from '@moonrelay/contract/game';
import { isLive, type ServerPresence } from '../../platform/presence.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** A game server as screens see it. */
export function toGameServer(presence: ServerPresence, nowMs: number): GameServer {
  return {
    serverId: presence.serverId,
    connected: isLive(presence, nowMs),
    lastPing: iso(presence.lastPingMs),
    connectedAt: iso(presence.connectedAtMs),
    gameData: presence.gameData,
  };
}

/**
 * The status screens show: connected if any server pinged within the window; the newest server's
 * data. `known` is most recent ping first.
 */
export function toGameStatus(known: ServerPresence[], nowMs: number): GameStatus {
  const servers = known.map((presence) => toGameServer(presence, nowMs));
  const newest = servers[0];
  return {
    connected: servers.some((server) => server.connected),
    lastPing: newest?.lastPing ?? null,
    gameData: newest?.gameData ?? null,
    servers: servers.filter((server) => server.connected),
  };
}
