import { GAME_CONNECTED_WINDOW_MS, GAME_PRESENCE_PERSIST_MS } from '@moonrelay/contract/constants';
import type {
  GameCommandRequest,
  GamePingRequest,
  GamePingResponse,
  GameServer,
  GameStatus,
  PlayerData,
} from '@moonrelay/contract/game';
import { inTransaction, type Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { Presence, ServerPresence } from '../../platform/presence.ts';
import type { BusWaits } from './bus-waits.ts';
import type { CommandsService, CommandSource } from './commands.service.ts';
import { gameServersRepo, type GameServerRow } from './game-servers.repo.ts';

/** Studio and scripts that send no serverId share this one. */
export const DEFAULT_SERVER_ID = 'default';
/** A status event with fresh ping data goes out at most this often per user (connects and disconnects at once). */
const STATUS_EVENT_INTERVAL_MS = 1_000;
/** A server gone this long is forgotten by presence (its saved row stays). */
const FORGET_AFTER_MS = 10 * 60 * 1000;

export const GAME_SERVER_NOT_CONNECTED = 'Game server not connected';

const iso = (ms: number) => new Date(ms).toISOString();

export function toGameServer(presence: ServerPresence, nowMs: number): GameServer {
  return {
    serverId: presence.serverId,
    connected: nowMs - presence.lastPingMs < GAME_CONNECTED_WINDOW_MS,
    lastPing: iso(presence.lastPingMs),
    connectedAt: iso(presence.connectedAtMs),
    gameData: presence.gameData,
  };
}

/** The status screens show: connected if any server pinged within the window; the newest server's data. */
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

/**
 * The game link: pings (presence, results, commands, long-poll), the status, and sending commands
 * to the right game servers. Presence is never written to the database on a ping; it is saved on
 * connect, on disconnect, and at most every 30 s in between.
 */
export function createGameLinkService(deps: {
  db: Db;
  bus: EventBus;
  presence: Presence;
  commands: CommandsService;
  waits: BusWaits;
  logger: Logger;
}) {
  const { db, bus, presence, commands, waits, logger } = deps;
  const lastSaved = new Map<string, number>();
  const lastStatusEvent = new Map<string, number>();

  // Presence saves wait here and are written together once a second: a restart with a live fleet
  // reconnects thousands of servers within one ping interval, and one transaction (one fsync) for
  // all of them keeps that off the pings' path (bench/game.ts measured the storm).
  const pendingSaves = new Map<string, GameServerRow>();

  function save(entry: ServerPresence, disconnectedAtMs: number | null): void {
    const key = `${entry.userId}\n${entry.serverId}`;
    lastSaved.set(key, Date.now());
    pendingSaves.set(key, {
      userId: entry.userId,
      serverId: entry.serverId,
      gameData: entry.gameData ? JSON.stringify(entry.gameData) : null,
      connectedAt: iso(entry.connectedAtMs),
      lastPing: iso(entry.lastPingMs),
      disconnectedAt: disconnectedAtMs === null ? null : iso(disconnectedAtMs),
    });
  }

  async function flushSaves(): Promise<void> {
    if (pendingSaves.size === 0) return;
    const rows = [...pendingSaves.values()];
    pendingSaves.clear();
    try {
      await inTransaction(db, async (trx) => {
        for (const row of rows) await gameServersRepo.save(trx, row);
      });
    } catch {
      // One row can sink the batch (its account was deleted meanwhile): save the rest one by one.
      for (const row of rows) {
        await gameServersRepo
          .save(db, row)
          .catch((error: unknown) => logger.warn({ err: error, userId: row.userId }, 'game presence not saved'));
      }
    }
  }

  async function publishStatus(userId: string, nowMs: number): Promise<void> {
    lastStatusEvent.set(userId, nowMs);
    bus.publish({ type: 'game:status', userId, status: toGameStatus(await presence.list(userId), nowMs) });
  }

  async function status(userId: string): Promise<GameStatus> {
    const nowMs = Date.now();
    const known = await presence.list(userId);
    if (known.length > 0) return toGameStatus(known, nowMs);
    // Nothing in memory (no ping since this server started): the last saved ping still tells when.
    const saved = await gameServersRepo.latestForUser(db, userId);
    return {
      connected: false,
      lastPing: saved?.lastPing ?? null,
      gameData: saved?.gameData ? (JSON.parse(saved.gameData) as PlayerData) : null,
      servers: [],
    };
  }

  return {
    status,

    async ping(userId: string, request: GamePingRequest): Promise<GamePingResponse> {
      const serverId = request.serverId || DEFAULT_SERVER_ID;
      const nowMs = Date.now();
      if (request.results?.length) await commands.recordResults(userId, request.results);
      const touch = await presence.touch(userId, serverId, request.playerData ?? null, nowMs);
      const saveKey = `${userId}\n${serverId}`;
      if (touch.connected || nowMs - (lastSaved.get(saveKey) ?? 0) >= GAME_PRESENCE_PERSIST_MS)
        save(touch.presence, null);
      if (touch.connected || nowMs - (lastStatusEvent.get(userId) ?? 0) >= STATUS_EVENT_INTERVAL_MS) {
        await publishStatus(userId, nowMs);
      }

      if (!request.wait) {
        const taken = await commands.takeForServer(userId, serverId);
        return { success: true, command: taken[0] ?? null, commands: taken };
      }
      // Long-poll: listen before looking, so a command queued between the look and the wait still wakes it.
      const stopWaiting = new AbortController();
      const queued = waits.commandQueued(userId, serverId, request.wait * 1000, stopWaiting.signal);
      let taken = await commands.takeForServer(userId, serverId);
      if (taken.length > 0) stopWaiting.abort();
      else if (await queued) taken = await commands.takeForServer(userId, serverId);
      return { success: true, command: taken[0] ?? null, commands: taken };
    },

    /**
     * Queues a command. With a serverId: that server, which must be connected. Without: every
     * connected server of the user, or, with none connected, whichever server pings first.
     */
    async send(userId: string, request: GameCommandRequest, source: CommandSource, executionId?: string) {
      const nowMs = Date.now();
      const live = (await presence.list(userId)).filter((p) => toGameServer(p, nowMs).connected);
      let serverIds: (string | null)[];
      if (request.serverId !== undefined) {
        if (!live.some((p) => p.serverId === request.serverId)) throw new AppError(409, GAME_SERVER_NOT_CONNECTED);
        serverIds = [request.serverId];
      } else {
        serverIds = live.length ? live.map((p) => p.serverId) : [null];
      }
      return commands.enqueue(userId, request, { source, serverIds, executionId });
    },

    /** The server an execution runs on: the given one if connected, else the most recently pinged. */
    async executionServer(userId: string, serverId: string | undefined): Promise<string | null> {
      const nowMs = Date.now();
      const live = (await presence.list(userId)).filter((p) => toGameServer(p, nowMs).connected);
      if (serverId !== undefined) return live.some((p) => p.serverId === serverId) ? serverId : null;
      return live[0]?.serverId ?? null;
    },

    /** Writes the presence saves waiting (every second, and at shutdown). */
    flushSaves,

    /** Announces servers that stopped pinging, then writes the presence saves; runs every second. */
    async sweepDisconnected(): Promise<void> {
      const nowMs = Date.now();
      const gone = await presence.takeDisconnected(nowMs, GAME_CONNECTED_WINDOW_MS, FORGET_AFTER_MS);
      const users = new Set<string>();
      for (const entry of gone) {
        save(entry, nowMs);
        lastSaved.delete(`${entry.userId}\n${entry.serverId}`);
        users.add(entry.userId);
      }
      for (const userId of users) {
        await publishStatus(userId, nowMs);
        lastStatusEvent.delete(userId);
      }
      await flushSaves();
    },
  };
}

export type GameLinkService = ReturnType<typeof createGameLinkService>;
