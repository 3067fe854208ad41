import { sql } from 'kysely';
import { whereInChunks, writeInChunks } from '../../db/bulk-writes.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import type { RequestMetricRow } from './request-rollup.ts';

/**
 * Times are ISO 8601 text (docs/decisions/002), so a time series groups by a prefix of the text:
 * 16 characters are the minute (2026-11-22T00:26), 13 the hour, 10 the day. Both engines have
 * substr(); the length is inlined so the SELECT and the GROUP BY are the same expression.
 */
export type SlotLength = 10 | 13 | 16;

/** PostgreSQL answers SUM and COUNT of integers as bigint, which node-postgres hands over as text. */
const num = (value: unknown): number => Number(value ?? 0);

export interface EndpointTotals {
  endpoint: string;
  requests: number;
  errors: number;
  totalMs: number;
}

export interface CountSlot {
  slot: string;
  requests: number;
  errors: number;
}

export interface ExecutionStatusTotals {
  status: string;
  runs: number;
  totalMs: number;
}

export interface ScriptRunTotals {
  scriptId: string | null;
  name: string | null;
  runs: number;
  succeeded: number;
  failed: number;
}

export interface ExecutionSlot {
  slot: string;
  status: string;
  runs: number;
}

export const requestMetricsRepo = {
  /**
   * Adds a flush's rows to the stored minutes (a minute may be flushed in several parts). Rows of
   * accounts deleted since the request are dropped, rather than failing the whole batch on the
   * foreign key; the account's own deletion request is always one of them.
   */
  async add(db: Db, rows: RequestMetricRow[]): Promise<void> {
    if (!rows.length) return;
    await inTransaction(db, async (trx) => {
      const userIds = [...new Set(rows.map((row) => row.userId))];
      const found = await whereInChunks(trx, userIds, (ids) =>
        trx.selectFrom('users').select('id').where('id', 'in', ids).execute(),
      );
      const existing = new Set(found.map(({ id }) => id));
      const kept = rows.filter((row) => existing.has(row.userId));
      await writeInChunks(trx, kept, (chunk) =>
        trx
          .insertInto('requestMetrics')
          .values(chunk)
          .onConflict((conflict) =>
            conflict.columns(['userId', 'minute', 'endpoint']).doUpdateSet({
              requestCount: sql`request_metrics.request_count + excluded.request_count`,
              errorCount: sql`request_metrics.error_count + excluded.error_count`,
              totalDurationMs: sql`request_metrics.total_duration_ms + excluded.total_duration_ms`,
              maxDurationMs: sql`case when excluded.max_duration_ms > request_metrics.max_duration_ms
                then excluded.max_duration_ms else request_metrics.max_duration_ms end`,
            }),
          )
          .execute(),
      );
    });
  },

  /**
   * Folds the minute rows before `cutoff` (an hour boundary) into their hour's row (minute :00),
   * which is where hourly and daily series look anyway.
   */
  async compactBefore(db: Db, cutoff: string): Promise<void> {
    await inTransaction(db, async (trx) => {
      await sql`
        insert into request_metrics
          (user_id, minute, endpoint, request_count, error_count, total_duration_ms, max_duration_ms)
        select user_id, substr(minute, 1, 13) || ':00:00.000Z', endpoint, sum(request_count), sum(error_count),
          sum(total_duration_ms), max(max_duration_ms)
        from request_metrics
        where minute < ${cutoff} and substr(minute, 15, 2) <> '00'
        group by user_id, substr(minute, 1, 13), endpoint
        on conflict (user_id, minute, endpoint) do update set
          request_count = request_metrics.request_count + excluded.request_count,
          error_count = request_metrics.error_count + excluded.error_count,
          total_duration_ms = request_metrics.total_duration_ms + excluded.total_duration_ms,
          max_duration_ms = case when excluded.max_duration_ms > request_metrics.max_duration_ms
            then excluded.max_duration_ms else request_metrics.max_duration_ms end
      `.execute(trx);
      await trx
        .deleteFrom('requestMetrics')
        .where('minute', '<', cutoff)
        .where(sql<string>`substr(minute, 15, 2)`, '<>', '00')
        .execute();
    });
  },

  async deleteBefore(db: Db, cutoff: string): Promise<void> {
    await db.deleteFrom('requestMetrics').where('minute', '<', cutoff).execute();
  },

  async countRows(db: Db): Promise<number> {
    const row = await db
      .selectFrom('requestMetrics')
      .select(sql`count(*)`.as('rows'))
      .executeTakeFirst();
    return num(row?.rows);
  },

  async totalsByEndpoint(db: Db, userId: string, since: string): Promise<EndpointTotals[]> {
    const rows = await db
      .selectFrom('requestMetrics')
      .select([
        'endpoint',
        sql`sum(request_count)`.as('requests'),
        sql`sum(error_count)`.as('errors'),
        sql`sum(total_duration_ms)`.as('totalMs'),
      ])
      .where('userId', '=', userId)
      .where('minute', '>=', since)
      .groupBy('endpoint')
      .execute();
    return rows.map((row) => ({
      endpoint: row.endpoint,
      requests: num(row.requests),
      errors: num(row.errors),
      totalMs: num(row.totalMs),
    }));
  },

  async countsBySlot(db: Db, userId: string, since: string, length: SlotLength): Promise<CountSlot[]> {
    const slot = sql<string>`substr(minute, 1, ${sql.lit(length)})`;
    const rows = await db
      .selectFrom('requestMetrics')
      .select([slot.as('slot'), sql`sum(request_count)`.as('requests'), sql`sum(error_count)`.as('errors')])
      .where('userId', '=', userId)
      .where('minute', '>=', since)
      .groupBy(slot)
      .execute();
    return rows.map((row) => ({ slot: row.slot, requests: num(row.requests), errors: num(row.errors) }));
  },
};

export const executionStatsRepo = {
  async totalsByStatus(db: Db, userId: string, since: string): Promise<ExecutionStatusTotals[]> {
    const rows = await db
      .selectFrom('executions')
      .select(['status', sql`count(*)`.as('runs'), sql`sum(duration_ms)`.as('totalMs')])
      .where('userId', '=', userId)
      .where('createdAt', '>=', since)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, runs: num(row.runs), totalMs: num(row.totalMs) }));
  },

  /**
   * Runs per saved script (null: code run without one), busiest first. Every run counts, one that
   * found no game connected too, as the Runs page lists it (docs/decisions/046-one-count-of-runs.md).
   */
  async busiestScripts(db: Db, userId: string, since: string, limit: number): Promise<ScriptRunTotals[]> {
    const runs = sql`count(*)`;
    const rows = await db
      .selectFrom('executions as e')
      .leftJoin('scripts as s', 's.id', 'e.scriptId')
      .select([
        'e.scriptId',
        's.name',
        runs.as('runs'),
        sql`sum(case when e.status = 'succeeded' then 1 else 0 end)`.as('succeeded'),
        sql`sum(case when e.status = 'failed' then 1 else 0 end)`.as('failed'),
      ])
      .where('e.userId', '=', userId)
      .where('e.createdAt', '>=', since)
      .groupBy(['e.scriptId', 's.name'])
      .orderBy(runs, 'desc')
      // On a tie, saved scripts by name, then Custom code (the engines sort a null name apart).
      .orderBy(sql`case when s.name is null then 1 else 0 end`)
      .orderBy('s.name')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      scriptId: row.scriptId,
      name: row.name,
      runs: num(row.runs),
      succeeded: num(row.succeeded),
      failed: num(row.failed),
    }));
  },

  async runsBySlot(db: Db, userId: string, since: string, length: SlotLength): Promise<ExecutionSlot[]> {
    const slot = sql<string>`substr(created_at, 1, ${sql.lit(length)})`;
    const rows = await db
      .selectFrom('executions')
      .select([slot.as('slot'), 'status', sql`count(*)`.as('runs')])
      .where('userId', '=', userId)
      .where('createdAt', '>=', since)
      .groupBy([slot, 'status'])
      .execute();
    return rows.map((row) => ({ slot: row.slot, status: row.status, runs: num(row.runs) }));
  },
};
