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
  executions: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type ExecutionBucket = z.infer<typeof ExecutionBucketSchema>;

export const ScriptAnalyticsSchema = z
  .object({
    /** Runs in the sandbox, dry runs, and runs sent to a game (as a script's executionCount counts them). */
    totalExecutions: z.number().int(),
    /** The busiest scripts (at most 20), most runs first. */
    executionsByScript: z.array(ScriptExecutionsSchema),
    /** Percentage (0-100) of finished runs that succeeded; null when none finished. */
    successRate: z.number().nullable(),
    /** Mean duration of finished runs, in milliseconds; null when none finished. */
    averageExecutionTime: z.number().nullable(),
    /** How the runs ended; notConnected counts attempts that found no game (not in totalExecutions). */
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
