import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { SCHEDULE_ERRORS } from './messages.ts';
import { ServerIdSchema } from './game.ts';
import { RunStatusSchema } from './runs.ts';

/**
 * Scheduled runs of a saved script (docs/decisions/025-scheduled-runs.md). A schedule runs its
 * script on a cron expression (read in a time zone, daylight saving included) or every so many
 * seconds, on one target, and records each run like any other (started by: schedule).
 */
/** How many coming run times a schedule (and its preview) shows. */
export const SCHEDULE_PREVIEW_COUNT = 5;
/** The shortest interval a schedule may have unless the server is configured otherwise. */
export const SCHEDULE_MIN_INTERVAL_SECONDS_DEFAULT = 60;
/** The longest interval: 31 days. */
export const SCHEDULE_MAX_INTERVAL_SECONDS = 31 * 24 * 3600;

export const ScheduleKindSchema = z.enum(['cron', 'interval']);
export type ScheduleKind = z.infer<typeof ScheduleKindSchema>;

/**
 * Where a schedule runs its script: the sandbox, a dry run, every live game server, one server, or
 * Roblox itself (`cloud`: Open Cloud Luau Execution on the account's place, contract/cloud-runs.ts).
 */
export const ScheduleTargetSchema = z.enum(['sandbox', 'dry-run', 'all-servers', 'server', 'cloud']);

/**
 * What a team's member must hold to set a schedule on a target, and what its maker must still hold
 * for it to run (docs/decisions/049): code in the sandbox, or code in the live game.
 */
export const scheduleRunPermission = (target: string): 'runs.sandbox' | 'runs.game' =>
  target === 'sandbox' || target === 'dry-run' ? 'runs.sandbox' : 'runs.game';
export type ScheduleTarget = z.infer<typeof ScheduleTargetSchema>;

const CronSchema = z
  .string()
  .trim()
  .min(1, SCHEDULE_ERRORS.cronRequired)
  .max(200, 'cron must be at most 200 characters');
const TimeZoneSchema = z.string().trim().min(1).max(100);
const IntervalSchema = z.number().int().positive().max(SCHEDULE_MAX_INTERVAL_SECONDS);

/** When a schedule runs: `cron` with `timeZone` (default UTC), or `intervalSeconds`. */
export const ScheduleTimingSchema = z
  .object({
    kind: ScheduleKindSchema,
    cron: CronSchema.optional(),
    timeZone: TimeZoneSchema.optional(),
    intervalSeconds: IntervalSchema.optional(),
  })
  .meta({ id: 'ScheduleTiming' });
export type ScheduleTiming = z.infer<typeof ScheduleTimingSchema>;

export const CreateScheduleRequestSchema = ScheduleTimingSchema.extend({
  target: ScheduleTargetSchema,
  serverId: ServerIdSchema.min(1).nullable().optional(),
  /** false: created paused. */
  enabled: z.boolean().default(true),
}).meta({ id: 'CreateScheduleRequest' });
export type CreateScheduleRequest = z.input<typeof CreateScheduleRequestSchema>;

/** Any part of a schedule; what is not sent stays as it is. */
export const UpdateScheduleRequestSchema = z
  .object({
    kind: ScheduleKindSchema.optional(),
    cron: CronSchema.optional(),
    timeZone: TimeZoneSchema.optional(),
    intervalSeconds: IntervalSchema.optional(),
    target: ScheduleTargetSchema.optional(),
    serverId: ServerIdSchema.min(1).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), SCHEDULE_ERRORS.updateEmpty)
  .meta({ id: 'UpdateScheduleRequest' });
export type UpdateScheduleRequest = z.infer<typeof UpdateScheduleRequestSchema>;

export const ScheduleParamsSchema = z.object({ id: z.string().min(1) });

export const ScheduleSchema = z
  .object({
    id: z.string(),
    scriptId: z.string(),
    kind: ScheduleKindSchema,
    /** Cron schedules: the expression and the time zone it is read in. */
    cron: z.string().nullable(),
    timeZone: z.string().nullable(),
    /** Interval schedules: seconds between runs. */
    intervalSeconds: z.number().int().nullable(),
    target: ScheduleTargetSchema,
    /** Target "server": the game server's id. */
    serverId: z.string().nullable(),
    /** false: paused. */
    enabled: z.boolean(),
    /** The next run times (none while paused). */
    nextRuns: z.array(IsoDateTimeSchema),
    /** The last run it started, and how that run ended (null once the run left the history). */
    lastRun: z.object({ id: z.string(), at: IsoDateTimeSchema, status: RunStatusSchema.nullable() }).nullable(),
    /** Why the last due run failed or was not started; null after a run that went well. */
    lastError: z.string().nullable(),
    /** Due runs skipped because the previous run was still running (or the budget was used up). */
    skippedCount: z.number().int(),
    createdAt: IsoDateTimeSchema,
    updatedAt: IsoDateTimeSchema,
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) }).meta({ id: 'ScheduleList' });
export type ScheduleList = z.infer<typeof ScheduleListSchema>;

export const SchedulePreviewSchema = z.object({ nextRuns: z.array(IsoDateTimeSchema) }).meta({ id: 'SchedulePreview' });
export type SchedulePreview = z.infer<typeof SchedulePreviewSchema>;
