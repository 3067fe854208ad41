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

/**
 * The durable command queue (docs/protocol.md): rows in the database, leased on delivery and
 * delivered again when the lease runs out, so delivery is at least once and survives a restart.
 * Every step is published on the bus, which wakes long-polls and waiting execute calls and feeds
 * the screens.
 */
export function createCommandsService(deps: {
  db: Db;
  bus: EventBus;
  /**
   * Called with commands that just finished (a result, or their time ran out), before anyone is
   * told, so what they carried (an execution record) is final when a waiting caller wakes.
   */
  onFinished: (commands: CommandView[]) => Promise<void>;
  /** Called with commands that moved on (queued, taken by a game, or finished; after onFinished): mass-execution progress. */
  onMoved?: (commands: CommandView[]) => Promise<void>;
}) {
  const { db, bus } = deps;
  const openHint = openCommandsHint(db);
  bus.subscribe((event) => {
    if (event.type === 'command:queued') openHint.mark(event.userId, event.serverIds);
  });
  const finish = async (rows: CommandRow[]) => {
    if (rows.length) {
      await deps.onFinished(rows.map(toCommandView));
      await deps.onMoved?.(rows.map(toCommandView));
    }
    publish(rows);
  };
  const publish = (rows: CommandRow[]) => {
    for (const row of rows) bus.publish({ type: 'command:update', command: toCommandView(row) });
  };

  return {
    /** Queues a command: a request from the dashboard or API, or one of moderation's (ban, unban, kick, warn). */
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
      }));
      await commandsRepo.insert(db, rows);
      await deps.onMoved?.(rows.map(toCommandView));
      openHint.mark(userId, options.serverIds);
      publish(rows);
      bus.publish({ type: 'command:queued', userId, serverIds: options.serverIds });
      return rows;
    },

    /** Leases what this server may take now, oldest first. Most pings find nothing: one indexed read. */
    async takeForServer(userId: string, serverId: string): Promise<DeliveredCommand[]> {
      if (!openHint.mayHave(userId, serverId)) return [];
      const version = openHint.version(userId);
      const now = nowIso();
      const candidates = await commandsRepo.findDeliverable(db, userId, serverId, now, GAME_PING_MAX_COMMANDS);
      if (candidates.length === 0) {
        await openHint.settle(userId, serverId, version);
        return [];
      }
      const leased = await commandsRepo.lease(
        db,
        candidates.map((row) => row.id),
        serverId,
        now,
        isoPlus(now, GAME_COMMAND_LEASE_MS),
      );
      leased.sort((a, b) =>
        a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1,
      );
      if (leased.length) await deps.onMoved?.(leased.map(toCommandView));
      publish(leased);
      return leased.map(toDelivered);
    },

    /**
     * Records results a game reported. Only the user's own commands can be completed, and only once:
     * a repeated or unknown id changes nothing. Answers the rows that completed now.
     */
    async recordResults(userId: string, results: CommandResult[]): Promise<CommandRow[]> {
      const now = nowIso();
      const completed: CommandRow[] = [];
      for (const result of results) {
        const row = await commandsRepo.complete(
          db,
          userId,
          result.id,
          {
            status: result.success ? 'succeeded' : 'failed',
            output: result.output ?? '',
            error: result.success ? null : (result.error ?? 'The command failed'),
            durationMs: result.durationMs === undefined ? null : Math.round(result.durationMs),
          },
          now,
        );
        if (row) completed.push(row);
      }
      await finish(completed);
      return completed;
    },

    /** Rebuilds the open-commands hint from the database (at start, then with every sweep). */
    refreshHint: () => openHint.refresh(),

    /** Ends what ran out of time: undelivered commands expire, unanswered ones fail. */
    async sweep(): Promise<CommandRow[]> {
      const now = nowIso();
      const ended = [
        ...(await commandsRepo.expireUndelivered(db, now)),
        ...(await commandsRepo.failUnanswered(db, now, NO_RESULT_ERROR)),
      ];
      await finish(ended);
      return ended;
    },
  };
}

export type CommandsService = ReturnType<typeof createCommandsService>;

/** The hint's name for "whichever server pings first" (a command with no serverId); no serverId has a newline. */
const ANY_SERVER = '\n';
const hintKey = (serverId: string | null) => serverId ?? ANY_SERVER;

/**
 * Which game servers may have open commands, so the ping of a server with none (nearly every ping)
 * asks the database nothing. Kept per user and server: a user with thousands of servers and one
 * command for one of them sends that one server's pings to the database, not all of them. A server
 * is marked when a command is queued for it, or for the user's first ping (here, or on another
 * instance through the bus), and unmarked once the database says it has none open. Until the first
 * refresh, and for anything a lost bus message hides, the periodic refresh from the database puts
 * it right within one sweep.
 */
function openCommandsHint(db: Db) {
  let loaded = false;
  const servers = new Map<string, Set<string>>();
  // Bumped on every mark of the user, so an unmark that raced with a new command does not lose it.
  const versions = new Map<string, number>();
  const forget = (userId: string) => {
    servers.delete(userId);
    versions.delete(userId);
  };
  return {
    mark(userId: string, serverIds: (string | null)[]): void {
      let marked = servers.get(userId);
      if (!marked) servers.set(userId, (marked = new Set()));
      for (const serverId of serverIds) marked.add(hintKey(serverId));
      versions.set(userId, (versions.get(userId) ?? 0) + 1);
    },
    mayHave(userId: string, serverId: string): boolean {
      if (!loaded) return true;
      const marked = servers.get(userId);
      return marked !== undefined && (marked.has(serverId) || marked.has(ANY_SERVER));
    },
    version(userId: string): number {
      return versions.get(userId) ?? 0;
    },
    /**
     * Nothing deliverable was found for this server: unmark it (and "any server") if nothing is
     * open for it at all (leased ones stay until their result or lease ends).
     */
    async settle(userId: string, serverId: string, version: number): Promise<void> {
      if (!loaded || (await commandsRepo.hasOpenCommandsFor(db, userId, serverId))) return;
      if ((versions.get(userId) ?? 0) !== version) return;
      const marked = servers.get(userId);
      marked?.delete(serverId);
      marked?.delete(ANY_SERVER);
      if (marked?.size === 0) forget(userId);
    },
    async refresh(): Promise<void> {
      const before = new Map(versions);
      const open = new Map<string, Set<string>>();
      for (const { userId, serverId } of await commandsRepo.serversWithOpenCommands(db)) {
        let keys = open.get(userId);
        if (!keys) open.set(userId, (keys = new Set()));
        keys.add(hintKey(serverId));
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
        else for (const key of keys) marked.add(key);
      }
      loaded = true;
    },
  };
}
