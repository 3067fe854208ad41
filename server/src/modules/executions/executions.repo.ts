import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ExecutionsTable } from '../../db/schema.ts';

export type ExecutionRow = Selectable<ExecutionsTable>;

export const executionsRepo = {
  async insert(db: Db, row: ExecutionRow): Promise<void> {
    await db.insertInto('executions').values(row).execute();
  },

  /** A game run's result came back (or never will): the record says how it ended. False if it already had. */
  async complete(
    db: Db,
    id: string,
    result: { status: 'succeeded' | 'failed'; output: string; error: string | null; durationMs: number },
  ): Promise<boolean> {
    const updated = await db
      .updateTable('executions')
      .set(result)
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  /** One more run of a saved script, counted in the database so concurrent runs all count. */
  async countRun(db: Db, userId: string, scriptId: string): Promise<void> {
    await db
      .updateTable('scripts')
      .set({ executionCount: sql<number>`execution_count + 1` })
      .where('id', '=', scriptId)
      .where('userId', '=', userId)
      .execute();
  },

  listForUser(db: Db, userId: string, limit: number): Promise<ExecutionRow[]> {
    return db
      .selectFrom('executions')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .limit(limit)
      .execute();
  },
};
