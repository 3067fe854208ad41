import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { inTransaction, type Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { consoleRepo, type ConsoleLineFields } from './console.repo.ts';

/** The lines one ping brought, waiting to be written. */
export interface QueuedLines {
  userId: string;
  serverId: string;
  rows: ConsoleLineFields[];
  /** The command each row was logged under (or undefined), linked to its run when written. */
  commandIds: (string | undefined)[];
}

/**
 * Rows one transaction writes at most. A commit is the dearest part of a write on SQLite
 * (synchronous=FULL syncs the file), so one transaction takes what a write cycle gathered, up to a
 * size that keeps the event loop blocked for some milliseconds only; a backlog goes in several,
 * the loop free between them.
 */
const TRANSACTION_MAX_ROWS = 2_000;

/**
 * Writes console lines behind the pings that brought them: a ping only queues its lines and is
 * answered at once; the queue is written in transactions of up to TRANSACTION_MAX_ROWS rows, each
 * a few multi-row inserts and one commit (one fsync on SQLite for the lines of many pings), the
 * event loop free between them (SQLite's writes block it while they run). The first lines after a quiet
 * spell go on the next turn of the event loop; then at most one write every `intervalMs`, so under
 * load each write gathers what came meanwhile. The game benchmark's console shape measured the
 * commits as the largest cost of a line (docs/decisions/023).
 *
 * The queue holds at most `maxQueuedRows`: past it (the database cannot keep up) the service
 * stores a marker instead of a ping's lines (`room()`). A chunk that fails is written again ping by
 * ping (one ping's rows can sink it: its account was deleted meanwhile); what still fails is
 * logged and lost, never retried for ever.
 */
export function createConsoleWriter(deps: {
  db: Db;
  logger: Logger;
  intervalMs: number;
  maxQueuedRows: number;
  /** Called for each entry once written, with the ids its rows got (in order). */
  onWritten: (entry: QueuedLines, ids: string[]) => void;
}) {
  const { db, logger, intervalMs, maxQueuedRows, onWritten } = deps;
  let queue: QueuedLines[] = [];
  let queuedRows = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let lastWriteMs = -Infinity;

  /** Links rows logged under a command to that command's run (one query per user in the batch). */
  async function linkRuns(batch: QueuedLines[]): Promise<void> {
    const byUser = new Map<string, Set<string>>();
    for (const entry of batch) {
      for (const id of entry.commandIds) {
        if (id === undefined) continue;
        let ids = byUser.get(entry.userId);
        if (!ids) byUser.set(entry.userId, (ids = new Set()));
        ids.add(id);
      }
    }
    for (const [userId, ids] of byUser) {
      const runs = await consoleRepo.executionsOfCommands(db, userId, [...ids]);
      for (const entry of batch) {
        if (entry.userId !== userId) continue;
        entry.commandIds.forEach((id, index) => {
          if (id !== undefined) entry.rows[index]!.executionId = runs.get(id) ?? null;
        });
      }
    }
  }

  /** Hands written lines on; a failure there is logged and never taken for a failed write. */
  function written(entry: QueuedLines, ids: string[]): void {
    try {
      onWritten(entry, ids);
    } catch (error) {
      logger.error({ err: error }, 'written console lines not passed on');
    }
  }

  async function writeChunk(chunk: QueuedLines[]): Promise<void> {
    const rows = chunk.flatMap((entry) => entry.rows);
    const ids = await inTransaction(db, (trx) => consoleRepo.insert(trx, rows)).catch(() => undefined);
    if (ids) {
      let at = 0;
      for (const entry of chunk) {
        written(entry, ids.slice(at, at + entry.rows.length));
        at += entry.rows.length;
      }
      return;
    }
    for (const entry of chunk) {
      await inTransaction(db, (trx) => consoleRepo.insert(trx, entry.rows)).then(
        (entryIds) => written(entry, entryIds),
        (error: unknown) =>
          logger.warn({ err: error, userId: entry.userId, serverId: entry.serverId }, 'console lines not stored'),
      );
    }
  }

  async function writeQueued(): Promise<void> {
    lastWriteMs = Date.now();
    const batch = queue;
    queue = [];
    queuedRows = 0;
    try {
      await linkRuns(batch);
    } catch (error) {
      logger.warn({ err: error }, 'console lines not linked to their runs');
    }
    let chunk: QueuedLines[] = [];
    let rows = 0;
    for (const entry of batch) {
      if (rows > 0 && rows + entry.rows.length > TRANSACTION_MAX_ROWS) {
        await writeChunk(chunk);
        await yieldToEventLoop();
        chunk = [];
        rows = 0;
      }
      chunk.push(entry);
      rows += entry.rows.length;
    }
    if (chunk.length > 0) await writeChunk(chunk);
  }

  function start(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    running = writeQueued()
      .catch((error: unknown) => logger.error({ err: error }, 'console write failed'))
      .finally(() => {
        running = undefined;
        schedule();
      });
    return running;
  }

  function schedule(): void {
    if (timer !== undefined || running !== undefined || queue.length === 0) return;
    timer = setTimeout(start, Math.max(0, lastWriteMs + intervalMs - Date.now()));
    timer.unref?.();
  }

  return {
    /** Rows the queue still takes. */
    room(): number {
      return Math.max(0, maxQueuedRows - queuedRows);
    },

    queue(entry: QueuedLines): void {
      queue.push(entry);
      queuedRows += entry.rows.length;
      schedule();
    },

    /** Writes everything queued so far, now (tests, and shutdown). */
    async flush(): Promise<void> {
      for (;;) {
        if (running !== undefined) await running;
        else if (queue.length > 0) await start();
        else return;
      }
    },
  };
}

export type ConsoleWriter = ReturnType<typeof createConsoleWriter>;
