import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  GAME_CONNECTED_WINDOW_MS,
  GAME_OPEN_COMMANDS_MAX,
  GAME_PRESENCE_PERSIST_MS,
} from '@moonrelay/contract/constants';
import type {
  GameCommandRequest,
  GamePingRequest,
  GamePingResponse,
  GameStatus,
  PlayerData,
} from '@moonrelay/contract/game';
import { inTransaction, type Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { Presence, ServerPresence } from '../../platform/presence.ts';
import type { BusWaits } from './bus-waits.ts';
import type { CommandsService, CommandSource } from './commands.service.ts';
import { isLive } from '../../platform/presence.ts';
import { toGameStatus } from './game-server-view.ts';
import { gameServersRepo, type GameServerRow } from './game-servers.repo.ts';
import type { ServerChanges } from './server-changes.ts';
import { GAME_LINK_BUSY, type ConnectAdmission } from './connect-admission.ts';
import type { ConsoleService } from '../console/console.service.ts';
import { createPingRefusals } from './ping-refusals.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import type { Roster } from '../players/roster.ts';

export { toGameServer, toGameStatus } from './game-server-view.ts';

/** Studio and scripts that send no serverId share this one. */
export const DEFAULT_SERVER_ID = 'default';
/** A server gone this long is forgotten by presence (its saved row stays). */
const FORGET_AFTER_MS = 10 * 60 * 1000;
/** Presence saves are written this many rows to a statement, the event loop free between two. */
const SAVE_CHUNK_ROWS = 500;

export const GAME_SERVER_NOT_CONNECTED = 'Game server not connected';
export const TOO_MANY_OPEN_COMMANDS = `Too many commands waiting for this game server (at most ${GAME_OPEN_COMMANDS_MAX}); wait for it to take them or for them to expire`;
export const TOO_MANY_OPEN_BROADCASTS = `Too many commands to every game server waiting (at most ${GAME_OPEN_COMMANDS_MAX}); wait for your servers to answer them or for them to expire`;
export const TOO_MANY_GAME_SERVERS = 'Too many game servers on this API key';
export const TOO_MANY_NEW_GAME_SERVERS = 'Too many new game servers on this API key this minute';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The game link: pings (presence, results, commands, long-poll), the status, and sending commands
 * to the right game servers. Presence is never written to the database on a ping; it is saved on
 * connect, on disconnect, and at most every 30 s in between.
 *
 * A ping's cost does not grow with the number of the user's servers: presence is one map entry,
 * the screens' live view is a change noted for the next coalesced `game:servers` event, and the
 * saved-presence write joins the next batch. Only what a person asks for (the status, a command for
 * every live server) reads the whole list.
 */
export function createGameLinkService(deps: {
  db: Db;
  presence: Presence;
  commands: CommandsService;
  waits: BusWaits;
  changes: ServerChanges;
  admission: ConnectAdmission;
  consoleLines: ConsoleService;
  /** Each server's players, from the roster its pings carry. */
  roster: Roster;
  /** Game servers seen for the first time, per key owner (GAME_NEW_SERVERS_PER_KEY_PER_MINUTE). */
  newServers: WindowCounter;
  logger: Logger;
}) {
  const { db, presence, commands, waits, changes, admission, consoleLines, roster, newServers, logger } = deps;
  const lastSaved = new Map<string, number>();
  const refusals = createPingRefusals({ db, logger });
  /**
   * Pings this instance holds right now (long-poll), by user and server, with how many: when Redis
   * comes back empty after a restart, these servers are alive (their request is open here) and are
   * put back into presence at once, instead of being "not connected" until their next ping.
   */
  const held = new Map<string, { userId: string; serverId: string; gameData: PlayerData | null; count: number }>();

  // Presence saves wait here and are written together once a second: a restart with a live fleet
  // reconnects thousands of servers within one ping interval, and a few multi-row statements for all
  // of them keep that off the pings' path (bench/game.ts measures the storm).
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

  /**
   * Writes the waiting saves a chunk at a time, each chunk one statement in its own transaction,
   * yielding to the event loop between chunks: a restart storm queues a save for every server at
   * once, and SQLite's writes block the loop while they run.
   */
  async function flushSaves(): Promise<void> {
    if (pendingSaves.size === 0) return;
    const rows = [...pendingSaves.values()];
    pendingSaves.clear();
    for (let start = 0; start < rows.length; start += SAVE_CHUNK_ROWS) {
      if (start > 0) await yieldToEventLoop();
      const chunk = rows.slice(start, start + SAVE_CHUNK_ROWS);
      try {
        await inTransaction(db, (trx) => gameServersRepo.saveMany(trx, chunk));
      } catch {
        // One row can sink the chunk (its account was deleted meanwhile): save the rest one by one.
        for (const row of chunk) {
          await gameServersRepo
            .saveMany(db, [row])
            .catch((error: unknown) => logger.warn({ err: error, userId: row.userId }, 'game presence not saved'));
        }
      }
    }
  }

  async function status(userId: string): Promise<GameStatus> {
    const nowMs = Date.now();
    const known = await presence.list(userId);
    const refusedPings = await refusals.recent(userId, known, nowMs);
    const serverBudget = await refusals.budget(userId, nowMs);
    if (known.length > 0) return { ...toGameStatus(known, nowMs), refusedPings, serverBudget };
    // Nothing in memory (no ping since this server started): the last saved ping still tells when.
    const saved = await gameServersRepo.latestForUser(db, userId);
    return {
      connected: false,
      lastPing: saved?.lastPing ?? null,
      gameData: saved?.gameData ? (JSON.parse(saved.gameData) as PlayerData) : null,
      servers: [],
      refusedPings,
      serverBudget,
    };
  }

  return {
    status,
    recordRefusal: refusals.record,

    /** The key was checked by the caller (the route's gate): the request is the key owner's. */
    /** `keyMadeBy`: the team's member who made the key pinging (a held ping ends when they are removed). */
    async ping(userId: string, request: Omit<GamePingRequest, 'key'>, keyMadeBy?: string): Promise<GamePingResponse> {
      const serverId = request.serverId || DEFAULT_SERVER_ID;
      const nowMs = Date.now();
      if (!(await presence.get(userId, serverId))) {
        if (admission.busy) {
          throw new AppError(503, GAME_LINK_BUSY, {
            headers: { 'Retry-After': String(admission.retryAfterSeconds()) },
          });
        }
        // A server new to presence spends the key's budget of new servers, so one key cannot make up
        // ids by the thousand (each a live row, an event on every screen of its owner and the admins).
        const budget = await newServers.hit(userId);
        if (!budget.allowed) {
          refusals.recordBudget(userId, serverId, TOO_MANY_NEW_GAME_SERVERS, nowMs);
          const retryAfter = String(Math.max(1, Math.ceil(budget.resetMs / 1000)));
          throw new AppError(429, TOO_MANY_NEW_GAME_SERVERS, { headers: { 'Retry-After': retryAfter } });
        }
      }
      if (request.results?.length) await commands.recordResults(userId, request.results);
      const touch = await presence.touch(userId, serverId, request.playerData ?? null, nowMs);
      if (!touch) {
        refusals.recordBudget(userId, serverId, TOO_MANY_GAME_SERVERS, nowMs);
        // Known servers are forgotten 10 minutes after their last ping; a minute is a fair wait.
        throw new AppError(429, TOO_MANY_GAME_SERVERS, { headers: { 'Retry-After': '60' } });
      }
      const saveKey = `${userId}\n${serverId}`;
      const { connectedAtMs } = touch.presence;
      if (touch.connected || nowMs - (lastSaved.get(saveKey) ?? 0) >= GAME_PRESENCE_PERSIST_MS)
        save(touch.presence, null);
      changes.pinged(touch.presence);
      // Queued to be stored behind the ping (before the hold, like the results); never fails it.
      if (request.console) consoleLines.ingest(userId, serverId, request.console, nowMs);
      const { roster: report } = request;
      if (report && (report.players || report.joined?.length || report.left?.length)) {
        await roster.apply(userId, serverId, report, nowMs);
      }
      // A script that keeps a roster, new to presence (after a restart or a gap) with no whole
      // roster: what Moonrelay holds of its players may be stale, so it is asked for all of them.
      const rosterWanted = touch.connected && report && !report.players ? { rosterWanted: true } : {};

      if (!request.wait) {
        const taken = await commands.takeForServer(userId, serverId, connectedAtMs);
        return { success: true, command: taken[0] ?? null, commands: taken, ...rosterWanted };
      }
      // Long-poll: listen before looking, so a command queued between the look and the wait still wakes it.
      const stopWaiting = new AbortController();
      const queued = waits.commandQueued(userId, serverId, request.wait * 1000, stopWaiting.signal, keyMadeBy);
      const holding = held.get(saveKey) ?? { userId, serverId, gameData: request.playerData ?? null, count: 0 };
      holding.count += 1;
      held.set(saveKey, holding);
      try {
        // Asked at once, not after the hold: the roster should not wait for a command.
        if (rosterWanted.rosterWanted) {
          stopWaiting.abort();
          const taken = await commands.takeForServer(userId, serverId, connectedAtMs);
          return { success: true, command: taken[0] ?? null, commands: taken, ...rosterWanted };
        }
        let taken = await commands.takeForServer(userId, serverId, connectedAtMs);
        if (taken.length > 0) stopWaiting.abort();
        else if (await queued) taken = await commands.takeForServer(userId, serverId, connectedAtMs);
        return { success: true, command: taken[0] ?? null, commands: taken };
      } finally {
        holding.count -= 1;
        if (holding.count === 0) held.delete(saveKey);
      }
    },

    /**
     * Puts the servers whose pings this instance holds back into presence (after Redis restarted
     * and lost it). Each instance does it for its own held pings; the others' pings come back by
     * their own instance or their next ping.
     */
    async restoreHeldPresence(): Promise<number> {
      const nowMs = Date.now();
      let restored = 0;
      for (const { userId, serverId, gameData } of held.values()) {
        if (await presence.touch(userId, serverId, gameData, nowMs)) restored += 1;
      }
      if (restored > 0) logger.info({ restored }, 'game servers with held pings put back into presence');
      return restored;
    },

    /**
     * Queues a command. With a serverId: that server, which must be connected. Without: one
     * broadcast to every connected server of the user, or, with none connected, a command for
     * whichever server pings first. `id` names it (a mass execution derives it from its batch).
     */
    async send(
      userId: string,
      request: GameCommandRequest,
      source: CommandSource,
      executionId?: string,
      id?: string,
    ): Promise<SentCommand> {
      const nowMs = Date.now();
      const idFor = id === undefined ? undefined : () => id;
      if (request.serverId !== undefined) {
        const server = await presence.get(userId, request.serverId);
        if (!server || !isLive(server, nowMs)) throw new AppError(409, GAME_SERVER_NOT_CONNECTED);
        if ((await commands.openFor(userId, request.serverId, GAME_OPEN_COMMANDS_MAX)) >= GAME_OPEN_COMMANDS_MAX)
          throw new AppError(429, TOO_MANY_OPEN_COMMANDS, { headers: { 'Retry-After': '60' } });
        const [row] = await commands.enqueue(userId, request, {
          source,
          serverIds: [request.serverId],
          executionId,
          idFor,
        });
        return { id: row!.id, ids: [row!.id] };
      }
      const servers = await presence.liveCount(userId, nowMs, GAME_CONNECTED_WINDOW_MS);
      if (servers === 0) {
        const [row] = await commands.enqueue(userId, request, { source, serverIds: [null], executionId, idFor });
        return { id: row!.id, ids: [row!.id] };
      }
      if ((await commands.openBroadcasts(userId, GAME_OPEN_COMMANDS_MAX)) >= GAME_OPEN_COMMANDS_MAX)
        throw new AppError(429, TOO_MANY_OPEN_BROADCASTS, { headers: { 'Retry-After': '60' } });
      const broadcast = await commands.broadcast(userId, request, { source, servers, id });
      return { id: broadcast.id, ids: [broadcast.id], servers };
    },

    /** The user's connected game servers, most recently pinged first. */
    async liveServers(userId: string): Promise<string[]> {
      const nowMs = Date.now();
      return (await presence.list(userId)).filter((p) => isLive(p, nowMs)).map((p) => p.serverId);
    },

    /** The server an execution runs on: the given one if connected, else the most recently pinged. */
    async executionServer(userId: string, serverId: string | undefined): Promise<string | null> {
      const nowMs = Date.now();
      if (serverId !== undefined) {
        const server = await presence.get(userId, serverId);
        return server && isLive(server, nowMs) ? serverId : null;
      }
      const newest = (await presence.list(userId))[0];
      return newest && isLive(newest, nowMs) ? newest.serverId : null;
    },

    /** Writes the presence saves waiting (every second, and at shutdown). */
    flushSaves,

    /** Announces servers that stopped pinging, then writes the presence saves; runs every second. */
    async sweepDisconnected(): Promise<void> {
      const nowMs = Date.now();
      const gone = await presence.takeDisconnected(nowMs, GAME_CONNECTED_WINDOW_MS, FORGET_AFTER_MS);
      for (const entry of gone) {
        save(entry, nowMs);
        lastSaved.delete(`${entry.userId}\n${entry.serverId}`);
        changes.gone(entry);
      }
      await flushSaves();
      // Their players left with them, at each one's last ping.
      if (gone.length > 0) {
        await roster
          .serversGone(gone)
          .catch((error: unknown) => logger.warn({ err: error, servers: gone.length }, 'player sessions not ended'));
      }
    },
  };
}

export type GameLinkService = ReturnType<typeof createGameLinkService>;

/** A command sent: its id, and for a broadcast the number of live servers it is for. */
export interface SentCommand {
  id: string;
  ids: string[];
  servers?: number;
}
