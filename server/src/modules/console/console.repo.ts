import { sql, type Selectable } from 'kysely';
import type { ConsoleLevel } from '@moonrelay/contract/console';
import { whereInChunks, writeInChunks } from '../../db/bulk-writes.ts';
import type { Db } from '../../db/database.ts';
import { containsIgnoringCase } from '../../db/like.ts';
import type { ConsoleLinesTable } from '../../db/schema.ts';

export type ConsoleLineRow = Selectable<ConsoleLinesTable>;
/** A line as written: every column but the id, which the database hands out. */
export type ConsoleLineFields = Omit<ConsoleLineRow, 'id'>;

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
  /** Only lines newer than this id (the end of a filtered page's window). */
  afterId?: number;
  limit: number;
}

/** Rows per insert statement (12 parameters a row, far inside both engines' limits). */
const INSERT_SIZES = [500, 256, 128, 64, 32, 16, 8, 4, 2, 1];

export const consoleRepo = {
  /**
   * Multi-row inserts of the sizes in INSERT_SIZES (the largest that fits, then smaller ones), so
   * that whatever the number of rows only a few statement shapes exist: each is prepared once and
   * kept (db/database.ts), where a statement for every count would fill that cache with large
   * programs and push out the pings' own. Answers the ids handed out, in the order of `rows` (each
   * engine numbers the rows of one statement in the order they are listed, and the statements run
   * in order). Call it inside a transaction to commit them together.
   */
  async insert(db: Db, rows: ConsoleLineFields[]): Promise<string[]> {
    const chunks = await writeInChunks(
      db,
      rows,
      (chunk) => db.insertInto('consoleLines').values(chunk).returning('id').execute(),
      { sizes: INSERT_SIZES },
    );
    return chunks.flatMap((inserted) =>
      inserted
        .map((row) => Number(row.id))
        .sort((a, b) => a - b)
        .map(String),
    );
  },

  /** Newest first; `limit` rows at most. */
  page(db: Db, filter: ConsolePageFilter): Promise<ConsoleLineRow[]> {
    let query = db.selectFrom('consoleLines').selectAll().where('userId', '=', filter.userId);
    if (filter.serverId !== undefined) query = query.where('serverId', '=', filter.serverId);
    if (filter.since !== undefined) query = query.where('time', '>=', filter.since);
    if (filter.levels?.length) query = query.where('level', 'in', filter.levels);
    if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
    if (filter.afterId !== undefined) query = query.where('id', '>', filter.afterId);
    if (filter.search) {
      const search = filter.search;
      query = query.where((eb) =>
        eb.or([containsIgnoringCase(eb.ref('text'), search), containsIgnoringCase(eb.ref('stack'), search)]),
      );
    }
    return query
      .orderBy('id', 'desc')
      .limit(sql.lit(Math.trunc(filter.limit)))
      .execute();
  },

  /**
   * The id just past the newest `scan` lines (of a server, or all the user's) below `beforeId`:
   * a filtered page looks at the lines newer than it. Undefined when there are no more than `scan`.
   * An index walk of `scan` entries, no row read.
   */
  async scanBoundary(
    db: Db,
    where: { userId: string; serverId?: string; beforeId?: number },
    scan: number,
  ): Promise<number | undefined> {
    let query = db.selectFrom('consoleLines').select('id').where('userId', '=', where.userId);
    if (where.serverId !== undefined) query = query.where('serverId', '=', where.serverId);
    if (where.beforeId !== undefined) query = query.where('id', '<', where.beforeId);
    const row = await query
      .orderBy('id', 'desc')
      .limit(sql.lit(1))
      .offset(sql.lit(Math.trunc(scan)))
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  },

  /** Error lines per game server received at or after `since`. */
  async errorCounts(db: Db, userId: string, since: string): Promise<{ serverId: string; count: number }[]> {
    const rows = await db
      .selectFrom('consoleLines')
      .select((eb) => ['serverId', eb.fn.countAll<string | number>().as('count')])
      .where('userId', '=', userId)
      // A literal, not a parameter: only then may either engine use the partial index of errors.
      .where('level', '=', sql.lit('error'))
      .where('receivedAt', '>=', since)
      .groupBy('serverId')
      .orderBy('serverId')
      .execute();
    return rows.map((row) => ({ serverId: row.serverId, count: Number(row.count) }));
  },

  /**
   * The runs of the given commands of the user (command id -> execution id), for those that have
   * one. The commands are those of a write's lines, as many as a game logged in the meantime.
   */
  async executionsOfCommands(db: Db, userId: string, commandIds: string[]): Promise<Map<string, string>> {
    const rows = await whereInChunks(db, commandIds, (ids) =>
      db
        .selectFrom('gameCommands')
        .select(['id', 'executionId'])
        .where('userId', '=', userId)
        .where('id', 'in', ids)
        .where('executionId', 'is not', null)
        .execute(),
    );
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
