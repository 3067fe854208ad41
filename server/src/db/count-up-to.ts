import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';
import type { Db } from './database.ts';

/**
 * How many rows `query` selects, counting no further than `cap`: a check against a limit ("at
 * most 1,000 waiting") reads at most that many index entries, however many rows there are.
 */
export async function countUpTo<T extends keyof Database>(
  db: Db,
  query: SelectQueryBuilder<Database, T, { id: string }>,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom(query.limit(sql.lit(Math.trunc(cap))).as('counted'))
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
