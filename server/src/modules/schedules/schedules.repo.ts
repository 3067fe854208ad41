import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SchedulesTable } from '../../db/schema.ts';

export type ScheduleRow = Selectable<SchedulesTable>;
export type SchedulePatch = Updateable<SchedulesTable>;
/** A schedule with the current status of its last run (null once that run left the history). */
export type ScheduleView = ScheduleRow & { lastRunStatus: string | null };

/** How a due time's claim went: this process runs it, another did, the last run still runs, or the schedule is gone or paused. */
export type Claim = 'claimed' | 'taken' | 'busy' | 'gone';

const withLastRun = (db: Db) =>
  db
    .selectFrom('schedules')
    .leftJoin('executions', 'executions.id', 'schedules.lastRunId')
    .selectAll('schedules')
    .select('executions.status as lastRunStatus');

export const schedulesRepo = {
  async insert(db: Db, row: ScheduleRow): Promise<void> {
    await db.insertInto('schedules').values(row).execute();
  },

  findForUser(db: Db, userId: string, id: string): Promise<ScheduleView | undefined> {
    return withLastRun(db).where('schedules.id', '=', id).where('schedules.userId', '=', userId).executeTakeFirst();
  },

  find(db: Db, id: string): Promise<ScheduleRow | undefined> {
    return db.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirst();
  },

  listForScript(db: Db, userId: string, scriptId: string): Promise<ScheduleView[]> {
    return withLastRun(db)
      .where('schedules.userId', '=', userId)
      .where('schedules.scriptId', '=', scriptId)
      .orderBy('schedules.createdAt')
      .orderBy('schedules.id')
      .execute();
  },

  /** Every running (not paused) schedule, to set their timers or job schedulers up at start-up. */
  listEnabled(db: Db): Promise<ScheduleRow[]> {
    return db.selectFrom('schedules').selectAll().where('enabled', '=', 1).execute();
  },

  async countForUser(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('schedules')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  async update(db: Db, userId: string, id: string, patch: SchedulePatch): Promise<boolean> {
    const result = await db
      .updateTable('schedules')
      .set(patch)
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async remove(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('schedules')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * Claims a due time for one process, in one statement so processes racing for it cannot both win:
   * only a due time later than the last one claimed, only while no claimed run still runs (its lease
   * holds, or the game has not answered its run yet), only while the schedule runs (not paused).
   * The claim names the run it will record, so the schedule points at it before anyone hears of it.
   */
  async claim(
    db: Db,
    id: string,
    run: { dueAt: string; now: string; leaseUntil: string; runId: string },
  ): Promise<Claim> {
    const result = await db
      .updateTable('schedules')
      .set({ lastDueAt: run.dueAt, runningUntil: run.leaseUntil, lastRunId: run.runId, lastRunAt: run.now })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('lastDueAt', 'is', null), eb('lastDueAt', '<', run.dueAt)]))
      .where((eb) => eb.or([eb('runningUntil', 'is', null), eb('runningUntil', '<', run.now)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('executions')
              .select(sql.lit(1).as('one'))
              .whereRef('executions.id', '=', 'schedules.lastRunId')
              .where('executions.status', '=', 'queued'),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return 'claimed';
    const row = await schedulesRepo.find(db, id);
    if (!row || !row.enabled) return 'gone';
    if (row.lastDueAt !== null && row.lastDueAt >= run.dueAt) return 'taken';
    return 'busy';
  },

  /** Counts a due time skipped because the last run still ran (once, however many processes saw it). */
  async skip(db: Db, id: string, dueAt: string, error: string | null = null): Promise<boolean> {
    const result = await db
      .updateTable('schedules')
      .set((eb) => ({
        skippedCount: eb('skippedCount', '+', 1),
        lastDueAt: dueAt,
        ...(error ? { lastError: error } : {}),
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastDueAt', 'is', null), eb('lastDueAt', '<', dueAt)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /**
   * A claimed run ended (or never started): its error, if any, and the claim's lease is let go.
   * Matched by the run the claim named (due times skipped meanwhile moved last_due_at on).
   */
  async finish(
    db: Db,
    id: string,
    runId: string,
    outcome: { lastError: string | null; lastRunId?: string | null; skipped?: boolean },
  ) {
    const { skipped, ...fields } = outcome;
    await db
      .updateTable('schedules')
      .set((eb) => ({
        runningUntil: null,
        ...fields,
        ...(skipped ? { skippedCount: eb('skippedCount', '+', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('lastRunId', '=', runId)
      .execute();
  },
};
