import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../../db/database.ts';
import {
  CONSOLE_EVENT_INTERVAL_MS,
  CONSOLE_EVENT_MAX_LINES,
  CONSOLE_PAGE_DEFAULT_LINES,
  CONSOLE_SEARCH_SCAN_LINES,
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
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { createCoalescer } from '../../realtime/coalescer.ts';
import { emptyConsole, mergeConsole, toConsoleEvent, type MergedConsole } from '../../realtime/console-merge.ts';
import { usersRepo } from '../users/users.repo.ts';
import { createConsoleBudget } from './console-budget.ts';
import { consoleText } from './console-text.ts';
import { createConsoleWriter, type QueuedLines } from './console-writer.ts';
import { consoleRepo, type ConsoleLineFields as LineFields, type ConsoleLineRow } from './console.repo.ts';

/**
 * The live game console (docs/decisions/023): lines that game servers send with their pings are
 * made safe, counted against the account's budget, queued for the writer (console-writer.ts: many
 * pings' lines to one multi-row insert, behind the pings), and once stored passed on to the owner's
 * screens; each game server keeps its newest `keepPerServer` lines, the older ones pruned by a
 * background sweep (never on a ping's path).
 *
 * Lines that never reach the table are not lost silently: the game's own drops (it logged faster
 * than its pings could carry), lines over the budget and lines the writer had no room for become a
 * marker line each, stored where they were lost, and a drop in the live event.
 */

export const CONSOLE_CURSOR_INVALID = 'cursor is not valid: pass the nextCursor of the previous page';
const ERRORS_WINDOW_MS = 60 * 60 * 1000;
/** The writer's least time between two writes, and the most rows it holds (5 s of the benchmark's busy game). */
const WRITE_INTERVAL_MS = 100;
const WRITE_QUEUE_MAX_ROWS = 50_000;
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
const droppedUnstored = (count: number) =>
  `${count} ${count === 1 ? 'line' : 'lines'} dropped: Moonrelay could not store them as fast as they came`;

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
  /** Least time between two writes of queued lines. */
  writeIntervalMs?: number;
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

  const writer = createConsoleWriter({
    db,
    logger,
    intervalMs: deps.writeIntervalMs ?? WRITE_INTERVAL_MS,
    maxQueuedRows: WRITE_QUEUE_MAX_ROWS,
    onWritten: (entry, ids) => {
      const drops: ConsoleDrop[] = [];
      const lines: ConsoleLine[] = [];
      entry.rows.forEach((row, index) => {
        if (row.dropped) drops.push({ serverId: row.serverId, count: row.dropped, time: row.time, reason: 'game' });
        else lines.push(toConsoleLine({ ...row, id: ids[index]! }));
      });
      notePruning(entry.userId, entry.serverId, lines.length, Date.now());
      live.add(entry.userId, (merged) => mergeConsole(merged, lines, drops, CONSOLE_EVENT_MAX_LINES));
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

  /**
   * A page of the user's console, newest first. What this instance has queued is stored first, so
   * a page holds every line of the pings this instance has answered.
   */
  async function page(userId: string, query: ConsoleQuery): Promise<ConsolePage> {
    let beforeId: number | undefined;
    if (query.cursor !== undefined) {
      if (!/^[1-9]\d{0,15}$/.test(query.cursor)) throw new AppError(400, CONSOLE_CURSOR_INVALID);
      beforeId = Number(query.cursor);
    }
    const limit = query.limit ?? CONSOLE_PAGE_DEFAULT_LINES;
    await writer.flush();
    // A filter may match few lines or none: it looks through a window of the newest lines only,
    // and the cursor goes on below the window (a search of a million lines would otherwise read
    // them all in one request, and on SQLite hold every other request up meanwhile).
    const filtered = Boolean(query.q || query.level?.length || query.since);
    const boundary = filtered
      ? await consoleRepo.scanBoundary(db, { userId, serverId: query.serverId, beforeId }, CONSOLE_SEARCH_SCAN_LINES)
      : undefined;
    const rows = await consoleRepo.page(db, {
      userId,
      serverId: query.serverId,
      since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
      levels: query.level,
      search: query.q,
      beforeId,
      afterId: boundary,
      limit: limit + 1,
    });
    const lines = rows.slice(0, limit).map(toConsoleLine);
    let nextCursor: string | null = null;
    if (rows.length > limit) nextCursor = lines[lines.length - 1]!.id;
    else if (boundary !== undefined) nextCursor = String(boundary + 1);
    return { lines, nextCursor };
  }

  return {
    /**
     * Queues the lines a ping carried (and markers for what was lost) to be stored and then passed
     * on to the owner's screens; answers at once. The batch was validated and its text cut to
     * length by the contract.
     */
    ingest(userId: string, serverId: string, batch: ConsoleBatch, nowMs = Date.now()): void {
      const gameDropped = batch.dropped ?? 0;
      if (batch.lines.length === 0 && gameDropped === 0) return;
      const granted = budget.take(userId, batch.lines.length);
      const overBudget = batch.lines.length - granted;
      // Over the budget, the oldest go: as when the game itself cannot keep up.
      let kept = overBudget > 0 ? batch.lines.slice(overBudget) : batch.lines;
      const receivedAt = iso(nowMs);
      const firstTime = batch.lines[0] ? iso(batch.lines[0].time) : receivedAt;
      const marker = (text: string, count: number) => markerRow(userId, serverId, text, count, firstTime, receivedAt);

      const entry: QueuedLines = { userId, serverId, rows: [], commandIds: [] };
      const add = (row: LineFields, commandId?: string) => {
        entry.rows.push(row);
        entry.commandIds.push(commandId);
      };
      if (gameDropped > 0) add(marker(droppedByGame(gameDropped), gameDropped));
      if (overBudget > 0) add(marker(droppedOverBudget(overBudget, userLinesPerMinute), overBudget));
      // The writer cannot keep up: one marker row for this ping's lines instead of the lines.
      if (kept.length > 0 && writer.room() < kept.length) {
        add(marker(droppedUnstored(kept.length), kept.length));
        kept = [];
      }
      for (const line of kept) add(lineRow(userId, serverId, line, receivedAt), line.commandId);
      writer.queue(entry);
    },

    /**
     * Queues one line of Moonrelay's own (a warning, `own`) in a game server's console: something
     * Moonrelay refused of the server's pings, said where its developer looks. Outside the account's
     * budget, as the markers of lines lost are; callers keep such lines rare.
     */
    notice(userId: string, serverId: string, text: string, nowMs = Date.now()): void {
      const at = iso(nowMs);
      const row: LineFields = {
        userId,
        serverId,
        time: at,
        level: 'warning',
        text: consoleText(text),
        stack: null,
        script: null,
        own: 1,
        executionId: null,
        dropped: null,
        receivedAt: at,
      };
      writer.queue({ userId, serverId, rows: [row], commandIds: [undefined] });
    },

    /** Stores every line queued so far (tests wait on it; shutdown too). */
    flush: () => writer.flush(),

    page,

    /** The same page of any user's console (the admin view); 404 for an unknown user. */
    async pageOfUser(userId: string, query: ConsoleQuery): Promise<ConsolePage> {
      if (!(await usersRepo.findById(db, userId))) throw new AppError(404, ERRORS.userNotFound);
      return page(userId, query);
    },

    async errorCounts(userId: string, nowMs = Date.now()): Promise<ConsoleErrorCounts> {
      await writer.flush();
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

    /** Stores what is queued, then stops the live feed. */
    async close(): Promise<void> {
      await writer.flush();
      live.close();
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
