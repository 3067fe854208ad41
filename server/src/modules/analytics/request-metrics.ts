import { ANALYTICS_PERIODS } from '@moonrelay/contract/analytics';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { requestMetricsRepo } from './analytics.repo.ts';
import { createRequestRollup } from './request-rollup.ts';

/**
 * Request metrics (docs/decisions/013-request-metrics-rollup.md). A request costs an in-memory
 * increment (request-rollup.ts); every 5 s the counts are added to request_metrics, one row per
 * user, endpoint and minute, and a last time when the app closes, before the database does.
 * Readers flush first, so an analytics answer includes every request this process has answered.
 *
 * Upkeep, on the first flush and then hourly: minute rows older than 2 days fold into hourly rows
 * (only the 1-hour view needs minutes), and rows older than the longest analytics period (30 days)
 * plus a day go. A flush that fails is kept for the next one, up to 100,000 buckets.
 */

export const REQUEST_METRICS_FLUSH_MS = 5_000;
const UPKEEP_EVERY_MS = 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const MINUTE_ROWS_KEPT_MS = 2 * DAY_MS;
export const REQUEST_METRICS_RETENTION_MS =
  Math.max(...Object.values(ANALYTICS_PERIODS).map((period) => period.durationMs)) + DAY_MS;
const MAX_BUFFERED_BUCKETS = 100_000;

export interface RequestMetricsRecorder {
  record(userId: string, endpoint: string, at: number, durationMs: number, isError: boolean): void;
}

export function createRequestMetrics(deps: { db: Db; logger: Logger; flushIntervalMs?: number; now?: () => number }) {
  const { db, logger, flushIntervalMs = REQUEST_METRICS_FLUSH_MS, now = Date.now } = deps;
  const rollup = createRequestRollup();
  let chain: Promise<void> = Promise.resolve();
  let lastUpkeep = -Infinity;

  async function write(): Promise<void> {
    const rows = rollup.drain();
    if (!rows.length) return;
    try {
      await requestMetricsRepo.add(db, rows);
    } catch (error) {
      const kept = rollup.size + rows.length <= MAX_BUFFERED_BUCKETS;
      if (kept) rollup.restore(rows);
      logger.error({ err: error, buckets: rows.length, kept }, 'request metrics flush failed');
    }
  }

  async function upkeep(at: number): Promise<void> {
    try {
      const compactBefore = at - MINUTE_ROWS_KEPT_MS;
      await requestMetricsRepo.compactBefore(db, new Date(compactBefore - (compactBefore % HOUR_MS)).toISOString());
      await requestMetricsRepo.deleteBefore(db, new Date(at - REQUEST_METRICS_RETENTION_MS).toISOString());
    } catch (error) {
      logger.error({ err: error }, 'request metrics upkeep failed');
    }
  }

  /** Writes what has been counted; flushes run one after another, never side by side. */
  const flush = (): Promise<void> => (chain = chain.then(write));

  const tick = () => {
    void flush();
    const at = now();
    if (at - lastUpkeep >= UPKEEP_EVERY_MS) {
      lastUpkeep = at;
      chain = chain.then(() => upkeep(at));
    }
  };
  const timer = setInterval(tick, flushIntervalMs);
  timer.unref();

  return {
    record: rollup.record,
    flush,
    /** Compaction and retention now (the timer runs them hourly). */
    upkeep: (at: number = now()) => (chain = chain.then(() => upkeep(at))),
    /** Stops the timer and writes what is left. Call before the database closes. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type RequestMetrics = ReturnType<typeof createRequestMetrics>;
