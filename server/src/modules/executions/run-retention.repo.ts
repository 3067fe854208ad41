import type { Db } from '../../db/database.ts';
import type { RunPosition } from './runs.repo.ts';

/** The retention sweep's queries (run-retention.ts); newest first means created_at, then id, descending. */
export const runRetentionRepo = {
  /** Users with a run older than `cutoff`. */
  async usersWithRunsBefore(db: Db, cutoff: string): Promise<string[]> {
    const rows = await db
      .selectFrom('executions')
      .select('userId')
      .distinct()
      .where('createdAt', '<', cutoff)
      .execute();
    return rows.map((row) => row.userId);
  },

  /** Users with a run created in [from, to) (it crossed the age limit), or at or after `recordedSince`. */
  async usersWithRunsBetween(
    db: Db,
    from: string,
    to: string,
    { recordedSince }: { recordedSince: string },
  ): Promise<string[]> {
    const rows = await db
      .selectFrom('executions')
      .select('userId')
      .distinct()
      .where((eb) =>
        eb.or([eb.and([eb('createdAt', '>=', from), eb('createdAt', '<', to)]), eb('createdAt', '>=', recordedSince)]),
      )
      .execute();
    return rows.map((row) => row.userId);
  },

  /** The user's n-th newest run (1: the newest), if they have that many. */
  nthNewest(db: Db, userId: string, n: number): Promise<RunPosition | undefined> {
    return db
      .selectFrom('executions')
      .select(['createdAt', 'id'])
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .offset(n - 1)
      .limit(1)
      .executeTakeFirst();
  },

  /** Deletes up to `limit` of the user's runs older than `cutoff` and after `kept` in newest-first order. */
  async deleteOlder(db: Db, userId: string, cutoff: string, kept: RunPosition, limit: number): Promise<number> {
    const result = await db
      .deleteFrom('executions')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('executions')
          .select('id')
          .where('userId', '=', userId)
          .where('createdAt', '<', cutoff)
          .where((inner) =>
            inner.or([
              inner('createdAt', '<', kept.createdAt),
              inner.and([inner('createdAt', '=', kept.createdAt), inner('id', '<', kept.id)]),
            ]),
          )
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Deletes up to `limit` of the user's kept code that no run of theirs refers to any more. */
  async deleteUnusedCode(db: Db, userId: string, limit: number): Promise<number> {
    const result = await db
      .deleteFrom('executionCode')
      .where('userId', '=', userId)
      .where('codeHash', 'in', (eb) =>
        eb
          .selectFrom('executionCode as kept')
          .select('kept.codeHash')
          .where('kept.userId', '=', userId)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('executions')
                  .select('executions.id')
                  .where('executions.userId', '=', userId)
                  .whereRef('executions.codeHash', '=', 'kept.codeHash'),
              ),
            ),
          )
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
