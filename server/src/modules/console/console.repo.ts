import { sql, type Insertable, type Selectable } from 'kysely';
import type { ConsoleLevel } from '@moonrelay/contract/console';
import type { Db } from '../../db/database.ts';
import type { ConsoleLinesTable } from '../../db/schema.ts';

export type ConsoleLineRow = Selectable<ConsoleLinesTable>;
export type NewConsoleLine = Insertable<ConsoleLinesTable>;

export interface ConsolePageFilter {
  userId: string;
  serverId?: string;
  /** ISO 8601 UTC: lines the game logged at or after it. */
  since?: string;
  levels?: ConsoleLevel[];
  /** Found in the text or the stack, case-insensitively, taken literally (no wildcards). */
  search?: string;
  /** Only lines older than this id (the previous page's last). */
  beforeId?: number;
  limit: number;
}

/** `%`, `_` and the escape character itself, taken literally by LIKE ... ESCAPE '\'. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export const consoleRepo = {
  /**
   * One multi-row insert; answers the ids handed out, in the order of `rows` (each engine numbers
   * the rows of one statement in the order they are listed, so the ids sorted are that order).
   */
  async insert(db: Db, rows: NewConsoleLine[]): Promise<string[]> {
    if (rows.length === 0) return [];
    const inserted = await db.insertInto('consoleLines').values(rows).returning('id').execute();
    return inserted
      .map((row) => Number(row.id))
      .sort((a, b) => a - b)
      .map(String);
  },

  /** Newest first; `limit` rows at most. */
  page(db: Db, filter: ConsolePageFilter): Promise<ConsoleLineRow[]> {
    let query = db.selectFrom('consoleLines').selectAll().where('userId', '=', filter.userId);
    if (filter.serverId !== undefined) query = query.where('serverId', '=', filter.serverId);
    if (filter.since !== undefined) query = query.where('time', '>=', filter.since);
    if (filter.levels?.length) query = query.where('level', 'in', filter.levels);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    if (filter.search) {
      // lower() on both sides: the same folding for the text and the pattern on each engine
      // (PostgreSQL folds all of Unicode; SQLite, like its LIKE, only ASCII).
      const pattern = `%${escapeLike(filter.search)}%`;
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref('text')}) like lower(${pattern}) escape '\\'`,
          sql<boolean>`lower(${eb.ref('stack')}) like lower(${pattern}) escape '\\'`,
        ]),
      );
    }
    return query
      .orderBy('id', 'desc')
      .limit(sql.lit(Math.trunc(filter.limit)))
      .execute();
  },

  /** Error lines per game server received at or after `since`. */
  async errorCounts(db: Db, userId: string, since: string): Promise<{ serverId: string; count: number }[]> {
    const rows = await db
      .selectFrom('consoleLines')
      .select((eb) => ['serverId', eb.fn.countAll<string | number>().as('count')])
      .where('userId', '=', userId)
      .where('level', '=', 'error')
      .where('receivedAt', '>=', since)
      .groupBy('serverId')
      .orderBy('serverId')
      .execute();
    return rows.map((row) => ({ serverId: row.serverId, count: Number(row.count) }));
  },

  /** The runs of the given commands of the user (command id -> execution id), for those that have one. */
  async executionsOfCommands(db: Db, userId: string, commandIds: string[]): Promise<Map<string, string>> {
    if (commandIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('gameCommands')
      .select(['id', 'executionId'])
      .where('userId', '=', userId)
      .where('id', 'in', commandIds)
      .where('executionId', 'is not', null)
      .execute();
    return new Map(rows.map((row) => [row.id, row.executionId!]));
  },

  /**
   * The id below which a server's lines are beyond the newest `keep`, or undefined when it has no
   * more than that. One walk of `keep` entries of the server's index.
   */
  async pruneCutoff(db: Db, userId: string, serverId: string, keep: number): Promise<number | undefined> {
    const row = await db
      .selectFrom('consoleLines')
      .select('id')
      .where('userId', '=', userId)
      .where('serverId', '=', serverId)
      .orderBy('id', 'desc')
      .limit(sql.lit(1))
      .offset(sql.lit(Math.trunc(keep) - 1))
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  },

  /** Deletes up to `limit` of the server's lines older than `cutoff`, the oldest first; answers how many. */
  async deleteOlder(db: Db, userId: string, serverId: string, cutoff: number, limit: number): Promise<number> {
    const result = await db
      .deleteFrom('consoleLines')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('consoleLines')
          .select('id')
          .where('userId', '=', userId)
          .where('serverId', '=', serverId)
          .where('id', '<', cutoff)
          .orderBy('id')
          .limit(sql.lit(Math.trunc(limit))),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
