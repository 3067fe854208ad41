import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  CONSOLE_EVENT_INTERVAL_MS,
  CONSOLE_EVENT_MAX_LINES,
  CONSOLE_PAGE_DEFAULT_LINES,
} from '@moonrelay/contract/constants';
import type {
  ConsoleBatch,
  ConsoleDrop,
  ConsoleErrorCounts,
  ConsoleLine,
  ConsoleLineIn,
  ConsolePage,
  ConsoleQuery,
} from '@moonrelay/contract/console';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { createCoalescer } from '../../realtime/coalescer.ts';
import { emptyConsole, mergeConsole, toConsoleEvent, type MergedConsole } from '../../realtime/console-merge.ts';
import { usersRepo } from '../users/users.repo.ts';
import { createConsoleBudget } from './console-budget.ts';
import { consoleText } from './console-text.ts';
import { consoleRepo, type ConsoleLineRow } from './console.repo.ts';

/** A line as written: every column but the id, which the database hands out. */
type LineFields = Omit<ConsoleLineRow, 'id'>;

/**
 * The live game console (docs/decisions/021): lines that game servers send with their pings are
 * made safe, counted against the account's budget, written in one multi-row insert per ping and
 * passed on to the owner's screens; each game server keeps its newest `keepPerServer` lines, the
 * older ones pruned by a background sweep (never on a ping's path).
 *
 * Lines that never reach the table are not lost silently: the game's own drops (it logged faster
 * than its pings could carry) and lines over the budget become one marker line each, stored where
 * they were lost, and a drop in the live event.
 */

export const CONSOLE_CURSOR_INVALID = 'cursor is not valid: pass the nextCursor of the previous page';
const ERRORS_WINDOW_MS = 60 * 60 * 1000;
/** Rows one prune statement deletes; the event loop is free between two. */
const PRUNE_CHUNK_ROWS = 1_000;
/** A server whose lines went quiet this long is forgotten by the pruning (its lines stay, pruned). */
const PRUNE_FORGET_MS = 10 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

export function toConsoleLine(row: ConsoleLineRow): ConsoleLine {
  return {
    id: String(row.id),
    serverId: row.serverId,
    time: row.time,
    level: row.level as ConsoleLine['level'],
    text: row.text,
    stack: row.stack,
    script: row.script,
    own: row.own === 1,
    executionId: row.executionId,
    ...(row.dropped ? { dropped: row.dropped } : {}),
  };
}

const droppedByGame = (count: number) =>
  `${count} ${count === 1 ? 'line' : 'lines'} dropped by the game server: it logged faster than its pings could carry`;
const droppedOverBudget = (count: number, budget: number) =>
  `${count} ${count === 1 ? 'line' : 'lines'} dropped: over this account's console budget of ${budget} lines a minute`;

export function createConsoleService(deps: {
  db: Db;
  bus: EventBus;
  logger: Logger;
  /** Lines kept per game server (CONSOLE_LINES_PER_SERVER). */
  keepPerServer: number;
  /** Lines one account may store a minute, per instance (CONSOLE_LINES_PER_USER_PER_MINUTE). */
  userLinesPerMinute: number;
  /** Least time between two `console:lines` bus events of one user from this instance. */
  eventIntervalMs?: number;
}) {
  const { db, bus, logger, keepPerServer, userLinesPerMinute } = deps;
  const budget = createConsoleBudget(userLinesPerMinute);
  // A server is pruned once this many lines arrived since its last pruning (or on its first lines
  // since this instance started, which also applies a lowered CONSOLE_LINES_PER_SERVER), so a sweep
  // costs a walk of `keepPerServer` index entries per busy server, not per ping.
  const pruneEvery = Math.max(100, Math.floor(keepPerServer / 10));
  const pruning = new Map<string, { userId: string; serverId: string; pending: number; lastLineMs: number }>();

  // Each instance gathers its new lines per user and publishes them a few times a second at most,
  // newest CONSOLE_EVENT_MAX_LINES only, so the bus (Redis in the scale-out mode) carries a bounded
  // stream per user however fast the games print. The socket hub merges every instance's.
  const live = createCoalescer<string, MergedConsole>({
    intervalMs: deps.eventIntervalMs ?? CONSOLE_EVENT_INTERVAL_MS,
    create: emptyConsole,
    onError: (error) => logger.error({ err: error }, 'console lines not published'),
    emit: (userId, merged) => {
      const event = toConsoleEvent(userId, merged, CONSOLE_EVENT_MAX_LINES);
      bus.publish({ type: 'console:lines', ...event });
    },
  });

  function notePruning(userId: string, serverId: string, count: number, nowMs: number): void {
    const key = `${userId}\n${serverId}`;
    const entry = pruning.get(key);
    if (entry) {
      entry.pending += count;
      entry.lastLineMs = nowMs;
    } else {
      pruning.set(key, { userId, serverId, pending: pruneEvery, lastLineMs: nowMs });
    }
  }

  function lineRow(userId: string, serverId: string, line: ConsoleLineIn, receivedAt: string): LineFields {
    return {
      userId,
      serverId,
      time: iso(line.time),
      level: line.level,
      text: consoleText(line.text),
      stack: line.stack === undefined ? null : consoleText(line.stack),
      script: line.script === undefined ? null : consoleText(line.script),
      own: line.own ? 1 : 0,
      executionId: null,
      dropped: null,
      receivedAt,
    };
  }

  function markerRow(
    userId: string,
    serverId: string,
    text: string,
    dropped: number,
    time: string,
    receivedAt: string,
  ): LineFields {
    return {
      userId,
      serverId,
      time,
      level: 'warning',
      text,
      stack: null,
      script: null,
      own: 1,
      executionId: null,
      dropped,
      receivedAt,
    };
  }

  async function pruneServer(userId: string, serverId: string): Promise<number> {
    const cutoff = await consoleRepo.pruneCutoff(db, userId, serverId, keepPerServer);
    if (cutoff === undefined) return 0;
    let deleted = 0;
    for (;;) {
      const count = await consoleRepo.deleteOlder(db, userId, serverId, cutoff, PRUNE_CHUNK_ROWS);
      deleted += count;
      if (count < PRUNE_CHUNK_ROWS) return deleted;
      await yieldToEventLoop();
    }
  }

  /** A page of the user's console, newest first. */
  async function page(userId: string, query: ConsoleQuery): Promise<ConsolePage> {
    let beforeId: number | undefined;
    if (query.cursor !== undefined) {
      if (!/^[1-9]\d{0,15}$/.test(query.cursor)) throw new AppError(400, CONSOLE_CURSOR_INVALID);
      beforeId = Number(query.cursor);
    }
    const limit = query.limit ?? CONSOLE_PAGE_DEFAULT_LINES;
    const rows = await consoleRepo.page(db, {
      userId,
      serverId: query.serverId,
      since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
      levels: query.level,
      search: query.q,
      beforeId,
      limit: limit + 1,
    });
    const lines = rows.slice(0, limit).map(toConsoleLine);
    return { lines, nextCursor: rows.length > limit ? lines[lines.length - 1]!.id : null };
  }

  return {
    /**
     * Stores the lines a ping carried (and markers for what was lost) and passes them on to the
     * owner's screens. The batch was validated and its text cut to length by the contract.
     */
    async ingest(userId: string, serverId: string, batch: ConsoleBatch, nowMs = Date.now()): Promise<void> {
      const gameDropped = batch.dropped ?? 0;
      if (batch.lines.length === 0 && gameDropped === 0) return;
      const granted = budget.take(userId, batch.lines.length);
      const overBudget = batch.lines.length - granted;
      // Over the budget, the oldest go: as when the game itself cannot keep up.
      const kept = overBudget > 0 ? batch.lines.slice(overBudget) : batch.lines;
      const receivedAt = iso(nowMs);
      const firstTime = batch.lines[0] ? iso(batch.lines[0].time) : receivedAt;

      const rows: LineFields[] = [];
      if (gameDropped > 0)
        rows.push(markerRow(userId, serverId, droppedByGame(gameDropped), gameDropped, firstTime, receivedAt));
      if (overBudget > 0) {
        rows.push(
          markerRow(
            userId,
            serverId,
            droppedOverBudget(overBudget, userLinesPerMinute),
            overBudget,
            firstTime,
            receivedAt,
          ),
        );
      }
      const markers = rows.length;
      for (const line of kept) rows.push(lineRow(userId, serverId, line, receivedAt));

      const commandIds = [...new Set(kept.flatMap((line) => (line.commandId ? [line.commandId] : [])))];
      if (commandIds.length > 0) {
        const runs = await consoleRepo.executionsOfCommands(db, userId, commandIds);
        kept.forEach((line, index) => {
          if (line.commandId) rows[markers + index]!.executionId = runs.get(line.commandId) ?? null;
        });
      }

      const ids = await consoleRepo.insert(db, rows);
      notePruning(userId, serverId, kept.length, nowMs);

      const drops: ConsoleDrop[] = rows
        .slice(0, markers)
        .map((row) => ({ serverId, count: row.dropped!, time: row.time, reason: 'game' }));
      const lines = rows.slice(markers).map((row, index) => toConsoleLine({ ...row, id: ids[markers + index]! }));
      live.add(userId, (merged) => mergeConsole(merged, lines, drops, CONSOLE_EVENT_MAX_LINES));
    },

    page,

    /** The same page of any user's console (the admin view); 404 for an unknown user. */
    async pageOfUser(userId: string, query: ConsoleQuery): Promise<ConsolePage> {
      if (!(await usersRepo.findById(db, userId))) throw new AppError(404, ERRORS.userNotFound);
      return page(userId, query);
    },

    async errorCounts(userId: string, nowMs = Date.now()): Promise<ConsoleErrorCounts> {
      const counts = await consoleRepo.errorCounts(db, userId, iso(nowMs - ERRORS_WINDOW_MS));
      return { servers: counts.map(({ serverId, count }) => ({ serverId, errorsLastHour: count })) };
    },

    /**
     * Deletes the lines beyond the newest `keepPerServer` of each server that received enough lines
     * since its last pruning, a chunk at a time; runs every few seconds. Answers how many went.
     */
    async prune(nowMs = Date.now()): Promise<number> {
      let deleted = 0;
      for (const [key, entry] of [...pruning]) {
        if (entry.pending < pruneEvery) {
          if (nowMs - entry.lastLineMs > PRUNE_FORGET_MS) pruning.delete(key);
          continue;
        }
        entry.pending = 0;
        try {
          deleted += await pruneServer(entry.userId, entry.serverId);
        } catch (error) {
          logger.warn({ err: error, userId: entry.userId, serverId: entry.serverId }, 'console lines not pruned');
        }
        await yieldToEventLoop();
      }
      return deleted;
    },

    close(): void {
      live.close();
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
