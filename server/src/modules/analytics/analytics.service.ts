import {
  ANALYTICS_PERIODS,
  BUSIEST_SCRIPTS_LIMIT,
  outcomeShares,
  UNSAVED_CODE_NAME,
  type AnalyticsPeriod,
  type ExecutionBucket,
  type RequestBucket,
  type ScriptAnalytics,
  type UsageAnalytics,
} from '@moonrelay/contract/analytics';
import type { Db } from '../../db/database.ts';
import { executionStatsRepo, requestMetricsRepo, type SlotLength } from './analytics.repo.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A period is a run of equal buckets (ANALYTICS_PERIODS) aligned to UTC, the last one holding
 * "now": the 24 h view is the current hour and the 23 before it. periodStart is the first bucket's
 * start, periodEnd is now.
 */
export function periodWindow(period: AnalyticsPeriod, now: number) {
  const { durationMs, bucketMs } = ANALYTICS_PERIODS[period];
  const buckets = durationMs / bucketMs;
  const start = now - (now % bucketMs) - (buckets - 1) * bucketMs;
  const slotLength: SlotLength = bucketMs < HOUR_MS ? 16 : bucketMs < DAY_MS ? 13 : 10;
  return { start, end: now, bucketMs, buckets, slotLength };
}

/** The time a text prefix of an ISO 8601 time stands for (see analytics.repo.ts). */
export function slotTime(slot: string): number {
  const rest = { 16: ':00.000Z', 13: ':00:00.000Z', 10: 'T00:00:00.000Z' }[slot.length];
  if (!rest) throw new Error(`not a time slot: ${slot}`);
  return Date.parse(slot + rest);
}

/** An empty series of the window's buckets, and where a time falls in it. */
function series<T>(window: ReturnType<typeof periodWindow>, empty: (start: string) => T) {
  const items = Array.from({ length: window.buckets }, (_, i) =>
    empty(new Date(window.start + i * window.bucketMs).toISOString()),
  );
  const at = (time: number): T | undefined => items[Math.floor((time - window.start) / window.bucketMs)];
  return { items, at };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export function createAnalyticsService(deps: { db: Db; flushMetrics: () => Promise<void>; now?: () => number }) {
  const { db, flushMetrics, now = Date.now } = deps;

  return {
    async usage(userId: string, period: AnalyticsPeriod): Promise<UsageAnalytics> {
      await flushMetrics();
      const window = periodWindow(period, now());
      const since = new Date(window.start).toISOString();
      const [byEndpoint, slots] = await Promise.all([
        requestMetricsRepo.totalsByEndpoint(db, userId, since),
        requestMetricsRepo.countsBySlot(db, userId, since, window.slotLength),
      ]);
      byEndpoint.sort((a, b) => b.requests - a.requests || a.endpoint.localeCompare(b.endpoint));
      const totalRequests = byEndpoint.reduce((sum, row) => sum + row.requests, 0);
      const totalMs = byEndpoint.reduce((sum, row) => sum + row.totalMs, 0);
      const overTime = series<RequestBucket>(window, (start) => ({ start, requests: 0, errors: 0 }));
      for (const slot of slots) {
        const bucket = overTime.at(slotTime(slot.slot));
        if (!bucket) continue;
        bucket.requests += slot.requests;
        bucket.errors += slot.errors;
      }
      return {
        totalRequests,
        requestsByEndpoint: Object.fromEntries(byEndpoint.map((row) => [row.endpoint, row.requests])),
        averageResponseTime: totalRequests ? round(totalMs / totalRequests, 2) : 0,
        totalErrors: byEndpoint.reduce((sum, row) => sum + row.errors, 0),
        periodStart: since,
        periodEnd: new Date(window.end).toISOString(),
        period,
        requestsOverTime: overTime.items,
      };
    },

    async scripts(userId: string, period: AnalyticsPeriod): Promise<ScriptAnalytics> {
      const window = periodWindow(period, now());
      const since = new Date(window.start).toISOString();
      const [statuses, busiest, slots] = await Promise.all([
        executionStatsRepo.totalsByStatus(db, userId, since),
        executionStatsRepo.busiestScripts(db, userId, since, BUSIEST_SCRIPTS_LIMIT),
        executionStatsRepo.runsBySlot(db, userId, since, window.slotLength),
      ]);
      const of = (status: string) => statuses.find((row) => row.status === status) ?? { runs: 0, totalMs: 0 };
      const succeeded = of('succeeded');
      const failed = of('failed');
      // Every run counts, whatever its outcome (docs/decisions/046-one-count-of-runs.md); only the
      // runs that ran to an end have a duration to average.
      const outcomes = {
        succeeded: succeeded.runs,
        failed: failed.runs,
        pending: of('queued').runs,
        notConnected: of('not_connected').runs,
      };
      const ran = succeeded.runs + failed.runs;
      const overTime = series<ExecutionBucket>(window, (start) => ({
        start,
        executions: 0,
        succeeded: 0,
        failed: 0,
        notConnected: 0,
      }));
      for (const slot of slots) {
        const bucket = overTime.at(slotTime(slot.slot));
        if (!bucket) continue;
        bucket.executions += slot.runs;
        if (slot.status === 'succeeded') bucket.succeeded += slot.runs;
        if (slot.status === 'failed') bucket.failed += slot.runs;
        if (slot.status === 'not_connected') bucket.notConnected += slot.runs;
      }
      return {
        totalExecutions: statuses.reduce((sum, row) => sum + row.runs, 0),
        executionsByScript: busiest.map((row) => ({
          scriptId: row.scriptId,
          name: row.scriptId === null ? UNSAVED_CODE_NAME : (row.name ?? UNSAVED_CODE_NAME),
          executions: row.runs,
          succeeded: row.succeeded,
          failed: row.failed,
        })),
        // The share of the ring the Analytics screen draws as succeeded, by the same rounding.
        successRate: outcomeShares(outcomes)?.succeeded ?? null,
        averageExecutionTime: ran ? round((succeeded.totalMs + failed.totalMs) / ran, 1) : null,
        outcomes,
        periodStart: since,
        periodEnd: new Date(window.end).toISOString(),
        period,
        executionsOverTime: overTime.items,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
