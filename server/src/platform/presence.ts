import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import type { PlayerData } from '@moonrelay/contract/game';

/**
 * Which game servers are pinging, kept out of the database: a ping only touches this. The embedded
 * mode keeps it in memory; the scale-out mode in Redis, so a game pinging one instance is connected
 * for all of them.
 */
export interface ServerPresence {
  userId: string;
  serverId: string;
  gameData: PlayerData | null;
  lastPingMs: number;
  connectedAtMs: number;
}

/** A server counts as connected while its last ping is younger than the connection window. */
export const isLive = (presence: ServerPresence, nowMs: number) =>
  nowMs - presence.lastPingMs < GAME_CONNECTED_WINDOW_MS;

export interface PresenceTouch {
  presence: ServerPresence;
  /** This ping (re)connected the server: it was unknown or its last ping was older than the window. */
  connected: boolean;
}

export interface Presence {
  /**
   * Records a ping. Answers undefined, recording nothing, for a server not known yet when the user
   * already has as many known servers as the presence takes per user: a leaked key must not be able
   * to fill memory with made-up server ids.
   */
  touch(
    userId: string,
    serverId: string,
    gameData: PlayerData | null,
    nowMs: number,
  ): Promise<PresenceTouch | undefined>;
  /** One server of the user, if known (connected or recently gone). */
  get(userId: string, serverId: string): Promise<ServerPresence | undefined>;
  /** The user's known servers (connected or recently gone), most recent ping first. */
  list(userId: string): Promise<ServerPresence[]>;
  /**
   * How many of the user's servers pinged within `windowMs` (a broadcast's audience), without
   * building the list: sending to 20,000 servers must not cost a sort of them.
   */
  liveCount(userId: string, nowMs: number, windowMs: number): Promise<number>;
  /** Every known server of every user (the admin's connections view). */
  listAll(): Promise<ServerPresence[]>;
  /**
   * Servers whose last ping is older than `windowMs` and not reported yet: each is answered once,
   * so a disconnect is announced once. Entries older than `forgetMs` are dropped.
   */
  takeDisconnected(nowMs: number, windowMs: number, forgetMs: number): Promise<ServerPresence[]>;
  close(): Promise<void>;
}

interface Entry extends ServerPresence {
  announcedGone: boolean;
}

export function createMemoryPresence(windowMs: number, maxServersPerUser = Infinity): Presence {
  const byUser = new Map<string, Map<string, Entry>>();
  const view = ({ announcedGone: _gone, ...presence }: Entry): ServerPresence => ({ ...presence });
  const newestFirst = (a: ServerPresence, b: ServerPresence) => b.lastPingMs - a.lastPingMs;

  return {
    async touch(userId, serverId, gameData, nowMs) {
      let servers = byUser.get(userId);
      if (!servers) byUser.set(userId, (servers = new Map()));
      const previous = servers.get(serverId);
      if (!previous && servers.size >= maxServersPerUser) return undefined;
      const connected = !previous || nowMs - previous.lastPingMs >= windowMs;
      const entry: Entry = {
        userId,
        serverId,
        // A ping without player data (no player in the server yet) keeps what was known.
        gameData: gameData ?? previous?.gameData ?? null,
        lastPingMs: nowMs,
        connectedAtMs: connected ? nowMs : previous.connectedAtMs,
        announcedGone: false,
      };
      servers.set(serverId, entry);
      return { presence: view(entry), connected };
    },
    async get(userId, serverId) {
      const entry = byUser.get(userId)?.get(serverId);
      return entry ? view(entry) : undefined;
    },
    async list(userId) {
      return [...(byUser.get(userId)?.values() ?? [])].map(view).sort(newestFirst);
    },
    async liveCount(userId, nowMs, window) {
      let live = 0;
      for (const entry of byUser.get(userId)?.values() ?? []) if (nowMs - entry.lastPingMs < window) live += 1;
      return live;
    },
    async listAll() {
      return [...byUser.values()].flatMap((servers) => [...servers.values()].map(view)).sort(newestFirst);
    },
    async takeDisconnected(nowMs, window, forgetMs) {
      const gone: ServerPresence[] = [];
      for (const [userId, servers] of byUser) {
        for (const [serverId, entry] of servers) {
          const age = nowMs - entry.lastPingMs;
          if (age >= window && !entry.announcedGone) {
            entry.announcedGone = true;
            gone.push(view(entry));
          }
          if (age >= forgetMs) servers.delete(serverId);
        }
        if (servers.size === 0) byUser.delete(userId);
      }
      return gone;
    },
    async close() {
      byUser.clear();
    },
  };
}
