import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Usage and script analytics (spec sections 3 and 7, Analytics) for the signed-in user, over a
 * period ending now. Each answer carries the spec's fields plus a time series for the charts, in
 * buckets whose size depends on the period (ANALYTICS_PERIODS).
 */

export const ANALYTICS_PERIODS = {
  '1h': { label: 'Last hour', durationMs: 60 * 60 * 1000, bucketMs: 5 * 60 * 1000 },
  '24h': { label: 'Last 24 hours', durationMs: 24 * 60 * 60 * 1000, bucketMs: 60 * 60 * 1000 },
  '7d': { label: 'Last 7 days', durationMs: 7 * 24 * 60 * 60 * 1000, bucketMs: 6 * 60 * 60 * 1000 },
  '30d': { label: 'Last 30 days', durationMs: 30 * 24 * 60 * 60 * 1000, bucketMs: 24 * 60 * 60 * 1000 },
} as const;
export type AnalyticsPeriod = keyof typeof ANALYTICS_PERIODS;
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '24h';

export const AnalyticsPeriodSchema = z.enum(Object.keys(ANALYTICS_PERIODS) as [AnalyticsPeriod, ...AnalyticsPeriod[]]);

export const AnalyticsQuerySchema = z.object({
  period: AnalyticsPeriodSchema.default(DEFAULT_ANALYTICS_PERIOD).meta({
    description: 'How far back to look: 1h (5-minute buckets), 24h (hourly), 7d (6-hourly) or 30d (daily)',
  }),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

export const RequestBucketSchema = z.object({
  /** Start of the bucket (UTC). */
  start: IsoDateTimeSchema,
  requests: z.number().int(),
  errors: z.number().int(),
});
export type RequestBucket = z.infer<typeof RequestBucketSchema>;

export const UsageAnalyticsSchema = z
  .object({
    totalRequests: z.number().int(),
    /** Requests by route pattern ("GET /api/scripts/:id"), busiest first. */
    requestsByEndpoint: z.record(z.string(), z.number().int()),
    /** Mean time to answer, in milliseconds (0 when there were no requests). */
    averageResponseTime: z.number(),
    /** Answers with a 4xx or 5xx status. */
    totalErrors: z.number().int(),
    periodStart: IsoDateTimeSchema,
    periodEnd: IsoDateTimeSchema,
    period: AnalyticsPeriodSchema,
    requestsOverTime: z.array(RequestBucketSchema),
  })
  .meta({ id: 'UsageAnalytics' });
export type UsageAnalytics = z.infer<typeof UsageAnalyticsSchema>;

export const ScriptExecutionsSchema = z.object({
  /** Null for code run without a saved script (and for runs of scripts deleted since). */
  scriptId: z.string().nullable(),
  name: z.string(),
  executions: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type ScriptExecutions = z.infer<typeof ScriptExecutionsSchema>;

export const ExecutionBucketSchema = z.object({
  start: IsoDateTimeSchema,
  /** Every run of the bucket: succeeded, failed, notConnected, and the rest still waiting for the game. */
  executions: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  notConnected: z.number().int(),
});
export type ExecutionBucket = z.infer<typeof ExecutionBucketSchema>;

export const ScriptAnalyticsSchema = z
  .object({
    /**
     * Every run of the period, as the Runs page lists them: in the sandbox, dry runs, runs sent to a
     * game and runs that found no game connected (as a script's executionCount counts them; see
     * docs/decisions/046-one-count-of-runs.md).
     */
    totalExecutions: z.number().int(),
    /** The busiest scripts (at most 20), most runs first; runs without a saved script are one row, Custom code. */
    executionsByScript: z.array(ScriptExecutionsSchema),
    /**
     * Percentage (0-100, one decimal) of the period's runs that succeeded: outcomeShares(outcomes).succeeded,
     * the share the Analytics ring draws. A run that failed, found no game or still waits is not a
     * success. Null when there were no runs.
     */
    successRate: z.number().nullable(),
    /** Mean duration of the runs that ran to an end (succeeded or failed), in milliseconds; null when none did. */
    averageExecutionTime: z.number().nullable(),
    /** How the runs ended; they add up to totalExecutions. */
    outcomes: z.object({
      succeeded: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
      notConnected: z.number().int(),
    }),
    periodStart: IsoDateTimeSchema,
    periodEnd: IsoDateTimeSchema,
    period: AnalyticsPeriodSchema,
    executionsOverTime: z.array(ExecutionBucketSchema),
  })
  .meta({ id: 'ScriptAnalytics' });
export type ScriptAnalytics = z.infer<typeof ScriptAnalyticsSchema>;

/** The name executionsByScript gives runs that have no saved script. */
export const UNSAVED_CODE_NAME = 'Custom code';
export const BUSIEST_SCRIPTS_LIMIT = 20;

export type RunOutcomes = ScriptAnalytics['outcomes'];
/** The outcomes in the order the Analytics screen lists them. */
export const OUTCOME_KEYS = [
  'succeeded',
  'failed',
  'pending',
  'notConnected',
] as const satisfies readonly (keyof RunOutcomes)[];

/**
 * Each outcome's share of all runs, in percent with one decimal, adding up to exactly 100: each
 * share is rounded down to a tenth, and the tenths left over go to the largest remainders (a tie
 * to the outcome listed first). The server's successRate and the screen's ring and legend all take
 * their numbers from here, so they never disagree. Null when there were no runs.
 */
export function outcomeShares(outcomes: RunOutcomes): Record<keyof RunOutcomes, number> | null {
  const total = OUTCOME_KEYS.reduce((sum, key) => sum + outcomes[key], 0);
  if (total === 0) return null;
  const parts = OUTCOME_KEYS.map((key, order) => {
    const exact = (outcomes[key] * 1000) / total;
    return { key, order, tenths: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = 1000 - parts.reduce((sum, part) => sum + part.tenths, 0);
  for (const part of [...parts].sort((a, b) => b.remainder - a.remainder || a.order - b.order)) {
    if (left === 0) break;
    if (part.remainder === 0) continue;
    part.tenths += 1;
    left -= 1;
  }
  return Object.fromEntries(parts.map((part) => [part.key, part.tenths / 10])) as Record<keyof RunOutcomes, number>;
}
