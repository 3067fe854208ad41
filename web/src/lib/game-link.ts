import { create } from 'zustand';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import { isStudioServer } from '@moonrelay/contract/studio';
import type { GameServer, GameServerRefusal, GameStatus, PlayerData } from '@moonrelay/contract/game';

/**
 * What the screens make of a game status: whether a game is connected, which game server they show
 * and act on, and when that reading next changes on its own.
 *
 * Connected is judged here too, not only by the server's flag: a status whose last ping is 10 s old
 * or more reads as Disconnected (spec section 4) even if no newer status arrives, so a game that
 * stops shows Disconnected about 10 s later without a reload.
 */
export interface GameLink {
  connected: boolean;
  /** The last ping and player data of the server the screens show (the most recently pinged). */
  lastPing: string | null;
  gameData: PlayerData | null;
  /** Game servers pinging now, in the order they connected. */
  liveServers: GameServer[];
  /** With several live servers, the chosen one: commands and runs name it. Otherwise undefined. */
  serverId: string | undefined;
  /** When (ms since epoch) something connected now goes stale; null when nothing is connected. */
  staleAt: number | null;
  /** Whether the server the screens show is a Studio session (Play or a local test server). */
  studio: boolean;
  /** Game servers whose pings Moonrelay refuses, and why. */
  refusedPings: GameServerRefusal[];
  /** The last game server refused for the API key's server budget, if recent. */
  serverBudget: GameServerRefusal | null;
}

const pingedAt = (lastPing: string | null) => (lastPing ? Date.parse(lastPing) : Number.NaN);

/** A ping counts while it is younger than the connection window. */
export function isFresh(lastPing: string | null, now: number): boolean {
  return now - pingedAt(lastPing) < GAME_CONNECTED_WINDOW_MS;
}

const inConnectOrder = (a: GameServer, b: GameServer) =>
  a.connectedAt < b.connectedAt ? -1 : a.connectedAt > b.connectedAt ? 1 : a.serverId < b.serverId ? -1 : 1;

const NO_GAME: GameLink = {
  connected: false,
  lastPing: null,
  gameData: null,
  liveServers: [],
  serverId: undefined,
  staleAt: null,
  studio: false,
  refusedPings: [],
  serverBudget: null,
};

export function gameLinkOf(status: GameStatus | undefined, chosenServerId: string | null, now: number): GameLink {
  if (!status) return NO_GAME;

  const connected = status.connected && isFresh(status.lastPing, now);
  // In the order they connected: a list that reshuffled on every ping would move the picker's
  // entries (and the default choice) under the user's cursor.
  const liveServers = status.servers
    .filter((server) => server.connected && isFresh(server.lastPing, now))
    .sort(inConnectOrder);
  const pings = [...(connected ? [status.lastPing] : []), ...liveServers.map((server) => server.lastPing)];
  const staleAt = pings.length ? Math.min(...pings.map((ping) => pingedAt(ping) + GAME_CONNECTED_WINDOW_MS)) : null;

  const refusedPings = status.refusedPings ?? [];
  const serverBudget = status.serverBudget ?? null;
  if (liveServers.length > 1) {
    const chosen = liveServers.find((server) => server.serverId === chosenServerId) ?? liveServers[0]!;
    return {
      connected,
      lastPing: chosen.lastPing,
      gameData: chosen.gameData,
      liveServers,
      serverId: chosen.serverId,
      staleAt,
      studio: isStudioServer(chosen),
      refusedPings,
      serverBudget,
    };
  }
  // One server (or none live): the status's own fields describe it; commands need not name it.
  const shown = liveServers[0];
  return {
    connected,
    lastPing: status.lastPing,
    gameData: status.gameData,
    liveServers,
    serverId: undefined,
    staleAt,
    studio: shown ? isStudioServer(shown) : false,
    refusedPings,
    serverBudget,
  };
}

interface ServerChoice {
  /** The game server the user picked; kept while it lives, forgotten for the first live one when it stops. */
  serverId: string | null;
  choose(serverId: string): void;
}

/** Shared by the Game panel and the script executor, so both act on the same server. */
export const useServerChoice = create<ServerChoice>((set) => ({
  serverId: null,
  choose: (serverId) => set({ serverId }),
}));
