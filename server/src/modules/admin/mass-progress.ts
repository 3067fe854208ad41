import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { MassProgress, MassProgressStatus } from '@moonrelay/contract/admin';
import type { CommandView } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import { writeInChunks } from '../../db/bulk-writes.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import type { MassExecutionItemsTable } from '../../db/schema.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { broadcastsRepo } from '../game/broadcasts.repo.ts';
import { toBroadcastView } from '../game/broadcasts.ts';
import { toCommandView } from '../game/commands.service.ts';

export type MassItemRow = Selectable<MassExecutionItemsTable>;

const FINAL: MassProgressStatus[] = ['succeeded', 'failed', 'expired', 'not_connected'];
/** The states a part may move to each state from: never back, never out of a final state. */
const ORDER: MassProgressStatus[] = ['queued', 'sending', 'sent', 'delivered'];
const before = (status: MassProgressStatus): MassProgressStatus[] =>
  FINAL.includes(status) ? ORDER : ORDER.slice(0, ORDER.indexOf(status));

const COMMAND_STATUS: Record<CommandView['status'], MassProgressStatus> = {
  queued: 'sent',
  delivered: 'delivered',
  succeeded: 'succeeded',
  failed: 'failed',
  expired: 'expired',
};

/** The part's error when its run's command expired untaken (as the run's record says). */
const NEVER_TAKEN = 'The game never took the command';

/**
 * An id derived from the batch and the user (a name-based UUID, RFC 4122 version 5 layout over
 * SHA-1): the same part always has the same command or run id, so a job the queue runs again
 * cannot create a second one (the insert collides).
 */
export function derivedId(...parts: string[]): string {
  const hash = crypto.createHash('sha1').update(parts.join('\n')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const toMassProgress = (row: MassItemRow): MassProgress => ({
  batchId: row.batchId,
  userId: row.userId,
  status: row.status as MassProgressStatus,
  commandId: row.commandId,
  output: row.output,
  error: row.error,
});

type Outcome = { status: MassProgressStatus; output?: string | null; error?: string | null };

/**
 * Mass-execution progress, kept in the database (mass_execution_items): every step is a guarded
 * UPDATE that only moves a part forward, then published (`mass:progress`). Whatever process records
 * a command's or a run's outcome moves its part on, so progress never depends on the worker that
 * started the part being alive; and any instance (a reloaded screen) reads the truth back.
 */
export function createMassProgress(deps: {
  db: Db;
  bus: EventBus;
  /** How long a claimed part may stay without its command or run before it is settled as not sent. */
  claimExpiryMs: number;
}) {
  const { db, bus } = deps;

  const publish = (rows: MassItemRow[]) => {
    for (const row of rows) bus.publish({ type: 'mass:progress', progress: toMassProgress(row) });
  };

  /** Moves the parts `where` picks to `outcome`, if that is forward for them; publishes what moved. */
  async function advance(
    where:
      { batchId: string; userId: string } | { commandId: string } | { executionId: string } | { queuedBefore: string },
    outcome: Outcome,
  ): Promise<MassItemRow[]> {
    let query = db
      .updateTable('massExecutionItems')
      .set({
        status: outcome.status,
        ...(outcome.output !== undefined ? { output: outcome.output } : {}),
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
        updatedAt: nowIso(),
      })
      .where('status', 'in', before(outcome.status));
    if ('batchId' in where) query = query.where('batchId', '=', where.batchId).where('userId', '=', where.userId);
    else if ('commandId' in where) query = query.where('commandId', '=', where.commandId);
    else if ('queuedBefore' in where)
      query = query.where('status', '=', 'queued').where('updatedAt', '<=', where.queuedBefore);
    else query = query.where('executionId', '=', where.executionId);
    const rows = await query.returningAll().execute();
    publish(rows);
    if (FINAL.includes(outcome.status)) {
      for (const batchId of new Set(rows.map((row) => row.batchId))) await finishIfDone(batchId);
    }
    return rows;
  }

  /**
   * Marks the batch finished once no part of it is open, and tells (`mass:finished`). The guarded
   * UPDATE lets one caller win: two processes ending the last two parts at once both look, and the
   * later look sees both parts ended; should both see it, the row's `finished_at IS NULL` lets only
   * the first through.
   */
  async function finishIfDone(batchId: string): Promise<void> {
    const finishedAt = nowIso();
    const batch = await db
      .updateTable('massExecutionBatches')
      .set({ finishedAt })
      .where('batchId', '=', batchId)
      .where('finishedAt', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('massExecutionItems')
              .select('batchId')
              .where('massExecutionItems.batchId', '=', batchId)
              .where('massExecutionItems.status', 'not in', FINAL),
          ),
        ),
      )
      .returningAll()
      .executeTakeFirst();
    if (!batch) return;
    const counts = await db
      .selectFrom('massExecutionItems')
      .select(['status', db.fn.countAll<number>().as('count')])
      .where('batchId', '=', batchId)
      .groupBy('status')
      .execute();
    bus.publish({
      type: 'mass:finished',
      batch: {
        batchId,
        initiatedBy: batch.initiatedBy,
        kind: batch.kind === 'code' ? 'code' : 'command',
        startedAt: batch.createdAt,
        finishedAt,
        counts: Object.fromEntries(counts.map((row) => [row.status, Number(row.count)])),
      },
    });
  }

  /** What a command's state means (queued: sent) for the part that sent it (a command batch) or ran through it (a code batch). */
  async function commandChanged(command: CommandView): Promise<void> {
    if (command.source === 'admin') {
      await advance(
        { commandId: command.id },
        command.status === 'queued' || command.status === 'delivered'
          ? { status: COMMAND_STATUS[command.status] }
          : { status: COMMAND_STATUS[command.status], output: command.output, error: command.error },
      );
    } else if (command.executionId) {
      if (command.status === 'queued' || command.status === 'delivered') {
        await advance({ executionId: command.executionId }, { status: COMMAND_STATUS[command.status] });
        return;
      }
      const success = command.status === 'succeeded';
      await advance(
        { executionId: command.executionId },
        {
          status: success ? 'succeeded' : 'failed',
          output: command.output ?? '',
          error: success ? null : (command.error ?? (command.status === 'expired' ? NEVER_TAKEN : null)),
        },
      );
    }
  }

  /** Catches a part up with its command's or run's recorded state (outcomes this process did not hear). */
  async function reconcile(items: MassItemRow[]): Promise<void> {
    const open = items.filter((item) => !FINAL.includes(item.status as MassProgressStatus));
    const commandIds = open.flatMap((item) => (item.commandId ? [item.commandId] : []));
    const executionIds = open.flatMap((item) => (item.executionId ? [item.executionId] : []));
    if (commandIds.length) {
      const commands = await db.selectFrom('gameCommands').selectAll().where('id', 'in', commandIds).execute();
      for (const command of commands) {
        await commandChanged(toCommandView(command));
      }
      // A part's command to a user with live servers is a broadcast: its totals say how it stands.
      for (const broadcast of await broadcastsRepo.find(db, commandIds)) {
        await commandChanged(toBroadcastView(broadcast));
      }
    }
    if (executionIds.length) {
      const runs = await db
        .selectFrom('executions')
        .select(['id', 'status', 'output', 'error'])
        .where('id', 'in', executionIds)
        .where('status', '!=', 'queued')
        .execute();
      for (const run of runs) {
        const status = (['succeeded', 'failed', 'not_connected'] as const).find((s) => s === run.status) ?? 'failed';
        await advance({ executionId: run.id }, { status, output: run.output, error: run.error });
      }
      // The run's command, finished or not: a result recorded while the step after it failed (the
      // database cut between the two) left the run queued, and only the command holds the outcome.
      const commands = await db
        .selectFrom('gameCommands')
        .selectAll()
        .where('executionId', 'in', executionIds)
        .execute();
      for (const command of commands) await commandChanged(toCommandView(command));
    }
  }

  /**
   * Whether the part reached the game's queue: its command exists, or its run's command does, or
   * its run ended without one (not connected). A run recorded whose command was never queued (Redis
   * or the database went away in between) was not sent: its part would otherwise wait for good.
   */
  async function wasSent(item: MassItemRow): Promise<boolean> {
    if (item.commandId) {
      const command = await db
        .selectFrom('gameCommands')
        .select('id')
        .where('id', '=', item.commandId)
        .executeTakeFirst();
      if (command) return true;
      if ((await broadcastsRepo.find(db, [item.commandId])).length > 0) return true;
    }
    if (item.executionId) {
      const command = await db
        .selectFrom('gameCommands')
        .select('id')
        .where('executionId', '=', item.executionId)
        .executeTakeFirst();
      if (command) return true;
      const run = await db
        .selectFrom('executions')
        .select('status')
        .where('id', '=', item.executionId)
        .executeTakeFirst();
      if (run && run.status !== 'queued' && run.status !== 'failed') return true;
    }
    return false;
  }

  const find = (batchId: string, userId: string) =>
    db
      .selectFrom('massExecutionItems')
      .selectAll()
      .where('batchId', '=', batchId)
      .where('userId', '=', userId)
      .executeTakeFirst();

  return {
    advance,

    /** Records a new batch and its parts (queued, or already ended: an unknown user). */
    async createBatch(
      items: MassProgress[],
      started: { initiatedBy: string | null; kind: 'command' | 'code' } = { initiatedBy: null, kind: 'command' },
    ): Promise<void> {
      if (items.length === 0) return;
      const now = nowIso();
      // One transaction: a batch row is never seen without its parts (it would look finished).
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('massExecutionBatches')
          .values({ batchId: items[0]!.batchId, ...started, createdAt: now, finishedAt: null })
          .execute();
        await writeInChunks(
          trx,
          items.map((item) => ({
            batchId: item.batchId,
            userId: item.userId,
            status: item.status,
            commandId: null,
            executionId: null,
            output: item.output,
            error: item.error,
            createdAt: now,
            updatedAt: now,
          })),
          (chunk) => trx.insertInto('massExecutionItems').values(chunk).execute(),
        );
      });
      // Every part may have ended already (no such users): then it is finished now.
      await finishIfDone(items[0]!.batchId);
    },

    /**
     * Takes a queued part for sending, naming the command or run it is about to create. Only one
     * job ever gets it: a job run again (its worker died) finds it taken and answers undefined.
     */
    async claim(
      batchId: string,
      userId: string,
      ids: { commandId: string } | { executionId: string },
    ): Promise<MassItemRow | undefined> {
      const rows = await db
        .updateTable('massExecutionItems')
        .set({ status: 'sending', ...ids, updatedAt: nowIso() })
        .where('batchId', '=', batchId)
        .where('userId', '=', userId)
        .where('status', '=', 'queued')
        .returningAll()
        .execute();
      publish(rows);
      return rows[0];
    },

    find,
    wasSent,

    /** Pushes a part as it stands (a job that found its part already taken says where it is). */
    republish: (item: MassItemRow) => publish([item]),

    /**
     * A job that failed: a part it claimed but never sent ends failed with the job's error; one
     * whose command or run exists is left to that command's or run's outcome.
     */
    async jobFailed(batchId: string, userId: string, error: string): Promise<void> {
      const item = await find(batchId, userId);
      if (!item || (item.status !== 'queued' && item.status !== 'sending')) return;
      if (item.status === 'sending' && (await wasSent(item))) return;
      await advance({ batchId, userId }, { status: 'failed', output: null, error });
    },

    /** Game commands that moved on (taken by a game, answered, or out of time), wherever that was recorded. */
    async commandsChanged(commands: CommandView[]): Promise<void> {
      for (const command of commands) {
        if (command.source === 'admin' || command.executionId) await commandChanged(command);
      }
    },

    /** The batch's parts as the database has them, caught up with their commands and runs first. */
    async batch(batchId: string): Promise<MassProgress[]> {
      const read = () =>
        db.selectFrom('massExecutionItems').selectAll().where('batchId', '=', batchId).orderBy('createdAt').execute();
      const items = await read();
      if (items.length === 0) return [];
      await reconcile(items);
      return (await read()).map(toMassProgress);
    },

    /**
     * Runs with the command sweep: open parts are caught up with their commands and runs, and a
     * part claimed longer than a command lives without its command or run ever being created (the
     * job's worker died in between) ends failed: it was not sent, and it will not be. So does a part
     * no job claimed in that time: its job was lost with the queue (Redis restarted empty).
     */
    async sweep(): Promise<void> {
      const now = nowIso();
      const claimedBefore = isoPlus(now, -deps.claimExpiryMs);
      await advance(
        { queuedBefore: claimedBefore },
        { status: 'failed', output: null, error: ERRORS.massPartNeverTaken },
      );
      const stale = await db
        .selectFrom('massExecutionItems')
        .selectAll()
        .where('status', 'in', ['sending', 'sent', 'delivered'])
        .where('updatedAt', '<=', isoPlus(now, -5_000))
        .orderBy('updatedAt')
        .limit(500)
        .execute();
      await reconcile(stale);
      for (const item of stale) {
        if (item.status !== 'sending' || item.updatedAt > claimedBefore || (await wasSent(item))) continue;
        await advance(
          { batchId: item.batchId, userId: item.userId },
          { status: 'failed', output: null, error: ERRORS.massPartNeverSent },
        );
      }
      // A process that ended the last part and stopped before looking at its batch: look now.
      const unfinished = await db
        .selectFrom('massExecutionBatches')
        .select('batchId')
        .where('finishedAt', 'is', null)
        .where('createdAt', '<=', isoPlus(now, -5_000))
        .orderBy('createdAt')
        .limit(100)
        .execute();
      for (const { batchId } of unfinished) await finishIfDone(batchId);
    },
  };
}

export type MassProgressStore = ReturnType<typeof createMassProgress>;
