import type { GameServer, GameStatus, PlayerData } from '@moonrelay/contract/game';

/** A player as the integration script reports one. */
export const PLAYER: PlayerData = {
  playerName: 'builderman',
  userId: 156,
  placeId: 1818,
  gameId: 13058,
  universeId: 13058,
  position: { x: 12.4, y: 5.6, z: -7.5 },
  health: 75,
  maxHealth: 100,
  walkSpeed: 16,
};

/** An ISO time `ms` milliseconds ago. */
export const agoIso = (ms: number) => new Date(Date.now() - ms).toISOString();

export function testServer(overrides: Partial<GameServer> = {}): GameServer {
  return {
    serverId: 'a4f0c3c2-1111-2222-3333-444455556666',
    connected: true,
    lastPing: agoIso(1000),
    connectedAt: agoIso(60_000),
    gameData: PLAYER,
    ...overrides,
  };
}

/** A game pinging now, with one server. */
export function connectedStatus(overrides: Partial<GameStatus> = {}): GameStatus {
  const server = testServer();
  return { connected: true, lastPing: server.lastPing, gameData: server.gameData, servers: [server], ...overrides };
}

export const DISCONNECTED: GameStatus = { connected: false, lastPing: null, gameData: null, servers: [] };
