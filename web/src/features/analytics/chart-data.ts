import {
  ANALYTICS_PERIODS,
  OUTCOME_KEYS,
  outcomeShares,
  type AnalyticsPeriod,
  type ExecutionBucket,
  type RequestBucket,
  type RunOutcomes,
} from '@moonrelay/contract/analytics';

/**
 * The analytics answers, shaped for the charts: bucket labels in the reader's time zone, a
 * "pending" share for runs still waiting on a game, unique bar names, and the outcome slices with
 * their shares of all runs.
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
    notConnected: bucket.notConnected,
    pending: bucket.executions - bucket.succeeded - bucket.failed - bucket.notConnected,
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

export const OUTCOME_SLICES = {
  succeeded: { label: 'Succeeded', color: 'green.solid' },
  failed: { label: 'Failed', color: 'red.solid' },
  pending: { label: 'Waiting for the game', color: 'yellow.solid' },
  notConnected: { label: 'No game connected', color: 'gray.emphasized' },
} as const satisfies Record<keyof RunOutcomes, { label: string; color: string }>;

/**
 * The ring's slices, each with its share of all runs (outcomeShares: they add up to exactly 100,
 * and the succeeded share is the server's successRate), leaving out outcomes with no runs.
 */
export function outcomeSlices(outcomes: RunOutcomes) {
  const shares = outcomeShares(outcomes);
  return OUTCOME_KEYS.filter((key) => outcomes[key] > 0).map((key) => ({
    key,
    name: OUTCOME_SLICES[key].label,
    value: outcomes[key],
    share: shares?.[key] ?? 0,
    color: OUTCOME_SLICES[key].color,
  }));
}
