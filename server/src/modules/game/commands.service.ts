import crypto from 'node:crypto';
import { GAME_COMMAND_EXPIRY_MS, GAME_COMMAND_LEASE_MS, GAME_PING_MAX_COMMANDS } from '@moonrelay/contract/constants';
import type {
  CommandResult,
  CommandView,
  DeliveredCommand,
  GameCommandRequest,
  GameCommandType,
} from '@moonrelay/contract/game';
import type { Db } from '../../db/database.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { commandsRepo, type CommandRow } from './commands.repo.ts';
import { broadcastsRepo } from './broadcasts.repo.ts';
import { createBroadcasts } from './broadcasts.ts';
import { createResultWriter } from './result-writer.ts';

export type CommandSource = CommandView['source'];

/** The answer's message when a command is queued (the documented text). */
export const COMMAND_QUEUED = 'Command queued';

/** What the game is told when a command it took never reported back. */
export const NO_RESULT_ERROR = 'No result from the game';

export function toCommandView(row: CommandRow): CommandView {
  return {
    id: row.id,
    userId: row.userId,
    serverId: row.serverId,
    type: row.type as GameCommandType,
    status: row.status as CommandView['status'],
    source: row.source as CommandSource,
    executionId: row.executionId,
    attempts: row.attempts,
    output: row.output,
    error: row.error,
    durationMs: row.durationMs,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
    completedAt: row.completedAt,
    ...(row.broadcastId ? { broadcastId: row.broadcastId } : {}),
  };
}

const toDelivered = (row: CommandRow): DeliveredCommand => ({
  id: row.id,
  type: row.type as GameCommandType,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

export interface EnqueueOptions {
  source: CommandSource;
  /** The game servers to address; `[null]` means whichever of the user's servers pings first. */
  serverIds: (string | null)[];
  executionId?: string | null;
  /**
   * The command's id for each addressed server (default: a random one). A mass execution derives
   * them from its batch and user, so a job run again cannot queue the same command twice.
   */
  idFor?: (serverId: string | null, index: number) => string;
}

/** What a command sent to every live server of a user (a broadcast) needs beside the command. */
export interface BroadcastOptions {
  source: CommandSource;
  /** The live servers it is for (they were connected when it was sent). */
  servers: number;
  /** Its id (default: a random one); a mass execution derives it, so a job run again collides. */
  id?: string;
}

/**
 * The durable command queue (docs/protocol.md): rows in the database, leased on delivery and
 * delivered again when the lease runs out, so delivery is at least once and survives a restart.
 * A command to every live server of a user is one broadcast (./broadcasts.ts), each server's copy
 * a row made when that server takes it. Every step is published on the bus, which wakes
 * long-polls and waiting execute calls and feeds the screens.
 */
export function createCommandsService(deps: {
  db: Db;
  bus: EventBus;
  /**
   * Called with commands that just finished (a result, or their time ran out), before anyone is
   * told, so what they carried (an execution record) is final when a waiting caller wakes.
   */
  onFinished: (commands: CommandView[]) => Promise<void>;
  /**
   * Called with commands that moved on (queued, taken by a game, or finished; after onFinished):
   * mass-execution progress. A broadcast moves on as a whole, with its totals (at most a few times a second).
   */
  onMoved?: (commands: CommandView[]) => Promise<void>;
}) {
  const { db, bus } = deps;
  const openHint = openCommandsHint(db);
  const broadcasts = createBroadcasts({ db, bus, onMoved: deps.onMoved, leaseMs: GAME_COMMAND_LEASE_MS });
  const results = createResultWriter(db);
  bus.subscribe((event) => {
    if (event.type === 'command:queued') openHint.mark(event.userId, event.serverIds);
  });
  /** Tells about commands of their own; servers' copies of a broadcast are told as the broadcast's totals. */
  const told = async (rows: CommandRow[], finished: boolean) => {
    const own = rows.filter((row) => row.broadcastId === null);
    broadcasts.changed(rows.flatMap((row) => (row.broadcastId ? [row.broadcastId] : [])));
    if (own.length === 0) return;
    if (finished) await deps.onFinished(own.map(toCommandView));
    await deps.onMoved?.(own.map(toCommandView));
    for (const row of own) bus.publish({ type: 'command:update', command: toCommandView(row) });
  };

  return {
    /**
     * Queues a command for the given servers (one row each; `[null]`: whichever pings first): a
     * request from the dashboard or API for one server, a run, or one of moderation's (ban, unban,
     * kick, warn). A command for every live server is a broadcast instead (`broadcast`).
     */
    async enqueue(
      userId: string,
      request: GameCommandRequest | { type: GameCommandType; data?: Record<string, unknown> },
      options: EnqueueOptions,
    ): Promise<CommandRow[]> {
      const createdAt = nowIso();
      const rows: CommandRow[] = options.serverIds.map((serverId, index) => ({
        id: options.idFor?.(serverId, index) ?? crypto.randomUUID(),
        userId,
        serverId,
        type: request.type,
        data: JSON.stringify(request.data ?? {}),
        status: 'queued',
        source: options.source,
        executionId: options.executionId ?? null,
        attempts: 0,
        leaseUntil: null,
        output: null,
        error: null,
        durationMs: null,
        createdAt,
        expiresAt: isoPlus(createdAt, GAME_COMMAND_EXPIRY_MS),
        deliveredAt: null,
        completedAt: null,
        broadcastId: null,
      }));
      await commandsRepo.insert(db, rows);
      await deps.onMoved?.(rows.map(toCommandView));
      openHint.mark(userId, options.serverIds);
      for (const row of rows) bus.publish({ type: 'command:update', command: toCommandView(row) });
      bus.publish({ type: 'command:queued', userId, serverIds: options.serverIds });
      return rows;
    },

    /** Sends a command to every live server of the user: one row, whatever the number of servers. */
    broadcast: (
      userId: string,
      request: GameCommandRequest | { type: GameCommandType; data?: Record<string, unknown> },
      options: BroadcastOptions,
    ) => broadcasts.send(userId, request.type, request.data ?? {}, options),

    /**
     * Leases what this server may take now, oldest first: its own commands (most pings find
     * nothing: no read at all, see the hint below) and the broadcasts it has yet to take (from
     * memory; the copies it takes are written with the other pings' of the same moment).
     */
    async takeForServer(userId: string, serverId: string, connectedAtMs: number): Promise<DeliveredCommand[]> {
      const nowMs = Date.now();
      let own: CommandRow[] = [];
      if (openHint.mayHave(userId, serverId, nowMs)) {
        const version = openHint.version(userId);
        const now = new Date(nowMs).toISOString();
        const candidates = await commandsRepo.findDeliverable(db, userId, serverId, now, GAME_PING_MAX_COMMANDS);
        if (candidates.length === 0) await openHint.settle(userId, serverId, version);
        else {
          const leaseUntil = isoPlus(now, GAME_COMMAND_LEASE_MS);
          own = await commandsRepo.lease(
            db,
            candidates.map((row) => row.id),
            serverId,
            now,
            leaseUntil,
          );
          await told(own, false);
        }
      }
      const copies = await broadcasts.take(userId, serverId, connectedAtMs, GAME_PING_MAX_COMMANDS - own.length);
      const taken = [...own, ...copies];
      taken.sort((a, b) =>
        a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1,
      );
      return taken.map(toDelivered);
    },

    /**
     * Records results a game reported. Only the user's own commands can be completed, and only once:
     * a repeated or unknown id changes nothing. Answers the rows that completed now. Written with
     * the other pings' results of the same moment, in one transaction.
     */
    async recordResults(userId: string, reported: CommandResult[]): Promise<CommandRow[]> {
      const completed = await results.record(
        userId,
        reported.map((result) => ({
          id: result.id,
          status: result.success ? 'succeeded' : 'failed',
          output: result.output ?? '',
          error: result.success ? null : (result.error ?? 'The command failed'),
          durationMs: result.durationMs === undefined ? null : Math.round(result.durationMs),
        })),
      );
      await told(completed, true);
      return completed;
    },

    /** Rebuilds the open-commands hint and the open broadcasts from the database (at start, then with every sweep). */
    async refreshHint(): Promise<void> {
      await openHint.refresh();
      await broadcasts.refresh();
    },

    /**
     * Ends what ran out of time: undelivered commands expire, unanswered ones fail (a broadcast's
     * copies count as failed in its totals), broadcasts past their time or answered by every
     * server end, and those ended over an hour ago are removed with their copies.
     */
    async sweep(): Promise<CommandRow[]> {
      const now = nowIso();
      const expired = await commandsRepo.expireUndelivered(db, now);
      const unanswered = await broadcasts.failUnanswered(now, NO_RESULT_ERROR);
      const ended = [...expired, ...unanswered];
      await told(ended, true);
      await broadcasts.endDue(now);
      await broadcasts.prune();
      return ended;
    },

    /** Commands open for this server, counted up to `cap`. */
    openFor: (userId: string, serverId: string, cap: number) => commandsRepo.countOpenFor(db, userId, serverId, cap),

    /** The user's open broadcasts, counted up to `cap`. */
    openBroadcasts: (userId: string, cap: number) => broadcastsRepo.countOpen(db, userId, nowIso(), cap),

    /** A broadcast as its totals stand (for a caller that has its id), or undefined. */
    findBroadcast: broadcasts.find,

    /** Pushes what changed in the broadcasts now, not at the next tick (shutdown, tests). */
    flushBroadcastProgress: broadcasts.flush,

    /** Broadcasts and server marks held in memory. */
    broadcastMemory: () => broadcasts.memory,

    close: () => broadcasts.close(),
  };
}

export type CommandsService = ReturnType<typeof createCommandsService>;

/** The hint's name for "whichever server pings first" (a command with no serverId); no serverId has a newline. */
const ANY_SERVER = '\n';
const hintKey = (serverId: string | null) => serverId ?? ANY_SERVER;

/**
 * Which game servers may have open commands, and from when, so the ping of a server with none
 * (nearly every ping) asks the database nothing. Kept per user and server: a user with thousands of
 * servers and one command for one of them sends that one server's pings to the database, not all
 * of them. A server is due at once when a command is queued for it (here, or on another instance
 * through the bus), or for the user's first ping; a server whose commands are taken and not yet
 * answered is due when the first lease ends (it takes again what was not answered). Once the
 * database says nothing is open for it, it is forgotten. A broadcast's copies are not looked at
 * again at each lease's end (a fleet answering a broadcast every second would read at every one):
 * the periodic refresh from the database (every 5 s) marks the servers whose copies' leases ran
 * out, and puts right whatever a lost bus message hid.
 */
function openCommandsHint(db: Db) {
  let loaded = false;
  // Per user, per server (ANY_SERVER: whichever pings first): the time from which it may have something.
  const servers = new Map<string, Map<string, number>>();
  // Bumped on every mark of the user, so a settle that raced with a new command does not lose it.
  const versions = new Map<string, number>();
  const forget = (userId: string) => {
    servers.delete(userId);
    versions.delete(userId);
  };
  const dueMs = (due: string) => (due === '' ? 0 : Date.parse(due));
  return {
    mark(userId: string, serverIds: (string | null)[]): void {
      let marked = servers.get(userId);
      if (!marked) servers.set(userId, (marked = new Map()));
      for (const serverId of serverIds) marked.set(hintKey(serverId), 0);
      versions.set(userId, (versions.get(userId) ?? 0) + 1);
    },
    mayHave(userId: string, serverId: string, nowMs: number): boolean {
      if (!loaded) return true;
      const marked = servers.get(userId);
      if (!marked) return false;
      const own = marked.get(serverId);
      const any = marked.get(ANY_SERVER);
      return (own !== undefined && own <= nowMs) || (any !== undefined && any <= nowMs);
    },
    version(userId: string): number {
      return versions.get(userId) ?? 0;
    },
    /**
     * Nothing deliverable was found for this server: it is due again when the database says (a
     * lease's end), or forgotten with "any server" when nothing is open for it.
     */
    async settle(userId: string, serverId: string, version: number): Promise<void> {
      if (!loaded) return;
      const due = await commandsRepo.nextDueFor(db, userId, serverId, nowIso());
      if ((versions.get(userId) ?? 0) !== version) return;
      const marked = servers.get(userId);
      if (!marked) return;
      marked.delete(ANY_SERVER);
      if (due === undefined) marked.delete(serverId);
      else marked.set(serverId, dueMs(due));
      if (marked.size === 0) forget(userId);
    },
    async refresh(): Promise<void> {
      const before = new Map(versions);
      const open = new Map<string, Map<string, number>>();
      for (const { userId, serverId, due } of await commandsRepo.serversWithOpenCommands(db, nowIso())) {
        if (due === null) continue;
        let keys = open.get(userId);
        if (!keys) open.set(userId, (keys = new Map()));
        keys.set(hintKey(serverId), dueMs(due));
      }
      for (const userId of [...servers.keys()]) {
        // Keep a user marked while the read ran as they are; the rest become what the database lists.
        if ((versions.get(userId) ?? 0) !== (before.get(userId) ?? 0)) continue;
        const keys = open.get(userId);
        if (keys) servers.set(userId, keys);
        else forget(userId);
      }
      for (const [userId, keys] of open) {
        const marked = servers.get(userId);
        if (!marked) servers.set(userId, keys);
        else for (const [key, atMs] of keys) marked.set(key, Math.min(atMs, marked.get(key) ?? Infinity));
      }
      loaded = true;
    },
  };
}
