import { sql, type Insertable, type Selectable } from 'kysely';
import { powersOfTwoUpTo, writeInChunks } from '../../db/bulk-writes.ts';
import { countUpTo } from '../../db/count-up-to.ts';
import type { Db } from '../../db/database.ts';
import type { GameBroadcastsTable, GameCommandsTable } from '../../db/schema.ts';
import type { CommandRow } from './commands.repo.ts';

export type BroadcastRow = Selectable<GameBroadcastsTable>;

/** Rows to a statement of copies: 1,024 rows of 18 columns is within SQLite's 32,766 parameters. */
const COPY_STATEMENT_SIZES = powersOfTwoUpTo(1_024);

export interface BroadcastCounts {
  taken?: number;
  succeeded?: number;
  failed?: number;
  /** An error among the failures counted now: kept if it is the first. */
  error?: string | null;
}

export const broadcastsRepo = {
  async insert(db: Db, row: Insertable<GameBroadcastsTable>): Promise<void> {
    await db.insertInto('gameBroadcasts').values(row).execute();
  },

  /** Those that servers may still take: not ended, not expired. */
  open(db: Db, now: string): Promise<BroadcastRow[]> {
    return db
      .selectFrom('gameBroadcasts')
      .selectAll()
      .where('endedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** How many of the user's are open, counted up to `cap` (no more rows are read than that). */
  countOpen(db: Db, userId: string, now: string, cap: number): Promise<number> {
    const open = db
      .selectFrom('gameBroadcasts')
      .select('id')
      .where('userId', '=', userId)
      .where('endedAt', 'is', null)
      .where('expiresAt', '>', now);
    return countUpTo(db, open, cap);
  },

  find(db: Db, ids: string[]): Promise<BroadcastRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db.selectFrom('gameBroadcasts').selectAll().where('id', 'in', ids).execute();
  },

  findForUser(db: Db, userId: string, id: string): Promise<BroadcastRow | undefined> {
    return db
      .selectFrom('gameBroadcasts')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  },

  /**
   * Servers' copies, each at most once: a copy some ping already made (here or on another instance)
   * is skipped by the unique (broadcast_id, server_id), and only the ones made now come back.
   */
  async insertCopies(db: Db, rows: Insertable<GameCommandsTable>[]): Promise<CommandRow[]> {
    const made = await writeInChunks(
      db,
      rows,
      (chunk) =>
        db
          .insertInto('gameCommands')
          .values(chunk)
          .onConflict((conflict) => conflict.columns(['broadcastId', 'serverId']).doNothing())
          .returningAll()
          .execute(),
      { sizes: COPY_STATEMENT_SIZES },
    );
    return made.flat();
  },

  /** Adds to the totals, in the transaction that wrote the copies or their results. */
  async count(db: Db, id: string, counts: BroadcastCounts): Promise<void> {
    await db
      .updateTable('gameBroadcasts')
      .set((eb) => ({
        taken: eb('taken', '+', counts.taken ?? 0),
        succeeded: eb('succeeded', '+', counts.succeeded ?? 0),
        failed: eb('failed', '+', counts.failed ?? 0),
        ...(counts.error ? { firstError: eb.fn.coalesce('firstError', eb.val(counts.error)) } : {}),
      }))
      .where('id', '=', id)
      .execute();
  },

  /** Ended before `cutoff`, oldest first: what the retention removes next. */
  async endedBefore(db: Db, cutoff: string, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('gameBroadcasts')
      .select('id')
      .where('endedAt', '<', cutoff)
      .orderBy('endedAt')
      .limit(sql.lit(Math.trunc(limit)))
      .execute();
    return rows.map((row) => row.id);
  },

  /** Removes a broadcast, and with it (the foreign key cascades) every server's copy. */
  async remove(db: Db, id: string): Promise<void> {
    await db.deleteFrom('gameBroadcasts').where('id', '=', id).execute();
  },

  /**
   * Ends what can no longer change: past its time, or answered by every server it was for. The
   * guard lets one process end each (the others find ended_at set and get nothing back).
   */
  end(db: Db, now: string, ids?: string[]): Promise<BroadcastRow[]> {
    let query = db
      .updateTable('gameBroadcasts')
      .set({ endedAt: now })
      .where('endedAt', 'is', null)
      .where((eb) => eb.or([eb('expiresAt', '<=', now), eb(sql<number>`succeeded + failed`, '>=', eb.ref('servers'))]));
    if (ids) query = query.where('id', 'in', ids);
    return query.returningAll().execute();
  },
};
