import {
  ANALYTICS_PERIODS,
  type AnalyticsPeriod,
  type ExecutionBucket,
  type RequestBucket,
  type ScriptAnalytics,
} from '@moonrelay/contract/analytics';

/**
 * The analytics answers, shaped for the charts: bucket labels in the reader's time zone, a
 * "pending" share for runs still waiting on a game, unique bar names, and the outcome slices.
 */

/** A bucket's label: the time of day for the hourly views, the date for the daily one. */
export function bucketLabel(start: string, period: AnalyticsPeriod, locale?: string): string {
  const date = new Date(start);
  if (ANALYTICS_PERIODS[period].bucketMs >= 24 * 60 * 60 * 1000) {
    return date.toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  }
  if (period === '7d') {
    return date.toLocaleString(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
  }
  return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

export const executionSeries = (buckets: ExecutionBucket[], period: AnalyticsPeriod, locale?: string) =>
  buckets.map((bucket) => ({
    label: bucketLabel(bucket.start, period, locale),
    succeeded: bucket.succeeded,
    failed: bucket.failed,
    pending: bucket.executions - bucket.succeeded - bucket.failed,
  }));

export const requestSeries = (buckets: RequestBucket[], period: AnalyticsPeriod, locale?: string) =>
  buckets.map((bucket) => ({
    label: bucketLabel(bucket.start, period, locale),
    requests: bucket.requests,
    errors: bucket.errors,
  }));

/** Bars are keyed by name: two scripts with one name get "(2)" after the second. */
export function uniqueNames<T extends { name: string; value: number }>(items: T[]): T[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const count = (seen.get(item.name) ?? 0) + 1;
    seen.set(item.name, count);
    return count === 1 ? item : { ...item, name: `${item.name} (${count})` };
  });
}

export const OUTCOME_SLICES = [
  { key: 'succeeded', label: 'Succeeded', color: 'green.solid' },
  { key: 'failed', label: 'Failed', color: 'red.solid' },
  { key: 'pending', label: 'Waiting for the game', color: 'yellow.solid' },
  { key: 'notConnected', label: 'No game connected', color: 'gray.emphasized' },
] as const;

export const outcomeSlices = (outcomes: ScriptAnalytics['outcomes']) =>
  OUTCOME_SLICES.map((slice) => ({ name: slice.label, value: outcomes[slice.key], color: slice.color })).filter(
    (slice) => slice.value > 0,
  );
