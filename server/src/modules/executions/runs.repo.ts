import type { ExecutionTarget } from '@moonrelay/contract/executions';
import type { RunStatusFilter } from '@moonrelay/contract/runs';
import type { Db } from '../../db/database.ts';

/** Where a page of runs starts: after this run, in newest-first order. */
export interface RunPosition {
  createdAt: string;
  id: string;
}

export interface RunFilters {
  scriptId?: string;
  target?: ExecutionTarget;
  serverId?: string;
  status?: RunStatusFilter;
  actorId?: string;
  /** ISO 8601 UTC: at or after. */
  from?: string;
  /** ISO 8601 UTC: before. */
  to?: string;
}

/** How each status the API speaks is stored (executions.status; 'limit' is a failed run with limitHit). */
const STORED_STATUS: Record<Exclude<RunStatusFilter, 'limit'>, string> = {
  pending: 'queued',
  succeeded: 'succeeded',
  failed: 'failed',
  not_connected: 'not_connected',
};

/** The columns of a run's summary, with the script's current name while it exists. */
const summaryColumns = [
  'executions.id',
  'executions.userId',
  'executions.scriptId',
  'executions.scriptVersion',
  'executions.target',
  'executions.serverId',
  'executions.status',
  'executions.limitHit',
  'executions.durationMs',
  'executions.initiator',
  'executions.actorId',
  'executions.actorName',
  'executions.keyName',
  'executions.createdAt',
] as const;

const runsOf = (db: Db) =>
  db
    .selectFrom('executions')
    .leftJoin('scripts', 'scripts.id', 'executions.scriptId')
    // A cloud run's phase (its task's row, by the run's own id: one row at most).
    .leftJoin('cloudTasks', 'cloudTasks.executionId', 'executions.id')
    .select(summaryColumns)
    .select('cloudTasks.phase as cloudPhase')
    .select((eb) => eb.fn.coalesce('scripts.name', 'executions.scriptName').as('scriptName'));

/** Every query is scoped by owner: a run id alone never reaches another user's run. */
export const runsRepo = {
  /** One page of the user's runs, newest first; `limit` rows at most. */
  list(db: Db, userId: string, filters: RunFilters, start: RunPosition | undefined, limit: number) {
    let query = runsOf(db).where('executions.userId', '=', userId);
    if (filters.scriptId !== undefined) query = query.where('executions.scriptId', '=', filters.scriptId);
    if (filters.target !== undefined) query = query.where('executions.target', '=', filters.target);
    if (filters.serverId !== undefined) query = query.where('executions.serverId', '=', filters.serverId);
    if (filters.actorId !== undefined) query = query.where('executions.actorId', '=', filters.actorId);
    if (filters.status === 'limit') query = query.where('executions.limitHit', 'is not', null);
    else if (filters.status !== undefined) query = query.where('executions.status', '=', STORED_STATUS[filters.status]);
    if (filters.from !== undefined) query = query.where('executions.createdAt', '>=', filters.from);
    if (filters.to !== undefined) query = query.where('executions.createdAt', '<', filters.to);
    // Strictly after the previous page's last run in newest-first order (created_at, then id, descending).
    if (start) {
      query = query.where((eb) =>
        eb.or([
          eb('executions.createdAt', '<', start.createdAt),
          eb.and([eb('executions.createdAt', '=', start.createdAt), eb('executions.id', '<', start.id)]),
        ]),
      );
    }
    return query.orderBy('executions.createdAt', 'desc').orderBy('executions.id', 'desc').limit(limit).execute();
  },

  /** One run's summary, whoever owns it (for the live event, which goes to its owner only). */
  summary(db: Db, id: string) {
    return runsOf(db).where('executions.id', '=', id).executeTakeFirst();
  },

  /** One of the user's runs in full: its code (kept whole, or else the excerpt), output and error. */
  findForUser(db: Db, userId: string, id: string) {
    return runsOf(db)
      .leftJoin('executionCode', (join) =>
        join
          .onRef('executionCode.userId', '=', 'executions.userId')
          .onRef('executionCode.codeHash', '=', 'executions.codeHash'),
      )
      .select(['executions.codeExcerpt', 'executions.output', 'executions.error', 'executionCode.code'])
      .where('executions.userId', '=', userId)
      .where('executions.id', '=', id)
      .executeTakeFirst();
  },

  /** Keeps a run's full code, once per user and distinct code. */
  async keepCode(db: Db, row: { userId: string; codeHash: string; code: string; createdAt: string }): Promise<void> {
    await db
      .insertInto('executionCode')
      .values(row)
      .onConflict((conflict) => conflict.columns(['userId', 'codeHash']).doNothing())
      .execute();
  },
};

export type RunRow = NonNullable<Awaited<ReturnType<typeof runsRepo.summary>>>;
