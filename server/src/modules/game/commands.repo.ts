import { sql, type Insertable, type Selectable } from 'kysely';
import { engineOf, powersOfTwoUpTo, writeInChunks } from '../../db/bulk-writes.ts';
import { countUpTo } from '../../db/count-up-to.ts';
import type { Db } from '../../db/database.ts';
import type { GameCommandsTable } from '../../db/schema.ts';

export type CommandRow = Selectable<GameCommandsTable>;

/** A result to record: the command, its owner and its outcome. */
export interface CompletedResult {
  id: string;
  userId: string;
  status: 'succeeded' | 'failed';
  output: string;
  error: string | null;
  durationMs: number | null;
}

/** Results to a statement of `completeMany` (six parameters each). */
const RESULT_STATEMENT_SIZES = powersOfTwoUpTo(1_024);

const OPEN = ['queued', 'delivered'] as const;

/**
 * When a server may next take something: '' for a queued command (now), a command's lease's end
 * (taken and not answered: delivered again then), or for a broadcast's copy its lease's end only
 * once that has passed. A fleet waiting on a broadcast's answers so is not looked at again at each
 * lease's end: the periodic refresh finds the copies whose leases ran out.
 */
const dueExpression = (now: string) =>
  sql<
    string | null
  >`min(case when status = 'queued' then '' when broadcast_id is null or lease_until <= ${now} then lease_until end)`;

export const commandsRepo = {
  async insert(db: Db, rows: Insertable<GameCommandsTable>[]): Promise<void> {
    await writeInChunks(db, rows, (chunk) => db.insertInto('gameCommands').values(chunk).execute());
  },

  /**
   * Commands this game server may take now: addressed to it (or to whichever server pings first),
   * not expired, and either never delivered or delivered with a lease that has run out.
   */
  findDeliverable(db: Db, userId: string, serverId: string, now: string, limit: number): Promise<CommandRow[]> {
    return (
      db
        .selectFrom('gameCommands')
        .selectAll()
        .where('userId', '=', userId)
        .where('status', 'in', OPEN)
        .where('expiresAt', '>', now)
        .where((eb) => eb.or([eb('serverId', '=', serverId), eb('serverId', 'is', null)]))
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb('leaseUntil', '<=', now)]))
        .orderBy('createdAt')
        .orderBy('id')
        // A literal, not a bound parameter: SQLite re-plans a statement whose LIMIT is bound on every
        // run, and this one runs on every ping that may have commands (bench/game.ts found it).
        .limit(sql.lit(Math.trunc(limit)))
        .execute()
    );
  },

  /**
   * Game servers with an open command (null: whichever server pings first), each with when it may
   * next have something to take: '' for a queued command (now), else the earliest lease's end (a
   * command taken and not answered is delivered again then). The ping's hint is rebuilt from this.
   */
  serversWithOpenCommands(
    db: Db,
    now: string,
  ): Promise<{ userId: string; serverId: string | null; due: string | null }[]> {
    return db
      .selectFrom('gameCommands')
      .select(['userId', 'serverId', dueExpression(now).as('due')])
      .where('status', 'in', OPEN)
      .groupBy(['userId', 'serverId'])
      .execute();
  },

  /**
   * When this server may next have something to take ('' now, else a lease's end), or undefined
   * when nothing is open for it: addressed to it, or to whichever server pings first.
   */
  async nextDueFor(db: Db, userId: string, serverId: string, now: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('gameCommands')
      .select(dueExpression(now).as('due'))
      .where('userId', '=', userId)
      .where('status', 'in', OPEN)
      .where((eb) => eb.or([eb('serverId', '=', serverId), eb('serverId', 'is', null)]))
      .executeTakeFirst();
    return row?.due ?? undefined;
  },

  /**
   * Leases the given commands to a server. The conditions are repeated in the UPDATE so that two
   * servers racing for the same unaddressed command cannot both take it: the row lock (PostgreSQL)
   * or the single writer (SQLite) lets one update win, and the other finds the condition false.
   */
  lease(db: Db, ids: string[], serverId: string, now: string, leaseUntil: string): Promise<CommandRow[]> {
    return db
      .updateTable('gameCommands')
      .set((eb) => ({
        status: 'delivered',
        serverId,
        leaseUntil,
        deliveredAt: eb.fn.coalesce('deliveredAt', eb.val(now)),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', ids)
      .where('status', 'in', OPEN)
      .where((eb) => eb.or([eb('serverId', '=', serverId), eb('serverId', 'is', null)]))
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb('leaseUntil', '<=', now)]))
      .returningAll()
      .execute();
  },

  /**
   * Records many results in one statement per chunk (an UPDATE from a list of values): a fleet
   * answering a broadcast reports thousands a second, and one UPDATE each was a round trip each on
   * PostgreSQL. The same guards as `complete`: only the user's own, only while open, so a repeated
   * or unknown id completes nothing. Answers the rows completed.
   */
  async completeMany(db: Db, results: CompletedResult[], now: string): Promise<CommandRow[]> {
    // SQLite's RETURNING names only the updated table's columns (and refuses `table.*`);
    // PostgreSQL's `*` would add the list's.
    const returned = engineOf(db) === 'postgres' ? sql`game_commands.*` : sql`*`;
    const completed = await writeInChunks(
      db,
      results,
      async (chunk) => {
        const values = sql.join(
          chunk.map(
            (result) =>
              sql`(${result.id}, ${result.userId}, ${result.status}, ${result.output}, ${result.error}, cast(${result.durationMs} as integer))`,
          ),
        );
        const { rows } = await sql<CommandRow>`
          with reported (id, user_id, status, output, error, duration_ms) as (values ${values})
          update game_commands
          set status = reported.status, output = reported.output, error = reported.error,
            duration_ms = reported.duration_ms, completed_at = ${now}, lease_until = null
          from reported
          where game_commands.id = reported.id and game_commands.user_id = reported.user_id
            and game_commands.status in ('queued', 'delivered')
          returning ${returned}`.execute(db);
        return rows;
      },
      { sizes: RESULT_STATEMENT_SIZES },
    );
    return completed.flat();
  },

  /** Never delivered in time: expired. */
  expireUndelivered(db: Db, now: string): Promise<CommandRow[]> {
    return db
      .updateTable('gameCommands')
      .set({ status: 'expired', completedAt: now, leaseUntil: null })
      .where('status', '=', 'queued')
      .where('expiresAt', '<=', now)
      .returningAll()
      .execute();
  },

  /** Delivered but never answered in time: failed. */
  failUnanswered(db: Db, now: string, error: string): Promise<CommandRow[]> {
    return db
      .updateTable('gameCommands')
      .set({ status: 'failed', error, output: '', completedAt: now, leaseUntil: null })
      .where('status', '=', 'delivered')
      .where('expiresAt', '<=', now)
      .returningAll()
      .execute();
  },

  /** Commands open for this server (queued or leased), counted up to `cap`. */
  countOpenFor(db: Db, userId: string, serverId: string, cap: number): Promise<number> {
    const open = db
      .selectFrom('gameCommands')
      .select('id')
      .where('userId', '=', userId)
      .where('status', 'in', OPEN)
      .where('serverId', '=', serverId);
    return countUpTo(db, open, cap);
  },

  findForUser(db: Db, userId: string, id: string): Promise<CommandRow | undefined> {
    return db
      .selectFrom('gameCommands')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  },
};
