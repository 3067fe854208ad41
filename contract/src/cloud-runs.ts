import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Cloud runs (docs/decisions/050-cloud-runs.md): code run by Roblox itself, through Open Cloud's Luau
 * Execution API, on a fresh copy of the owner's place in the real engine, with its real DataStores
 * and no players. Moonrelay queues the run, creates the task within Roblox's limits (read from its
 * answers), follows it to its end and keeps its logs, return values and error.
 */

/** The Open Cloud scope a key needs to create tasks (`:read` only reads them). */
export const LUAU_EXECUTION_SCOPE = 'universe.place.luau-execution-session';
export const LUAU_EXECUTION_WRITE = `${LUAU_EXECUTION_SCOPE}:write`;

/** Roblox runs a task at most 5 minutes, its default; Moonrelay's default too. */
export const CLOUD_TIMEOUT_MIN_SECONDS = 1;
export const CLOUD_TIMEOUT_MAX_SECONDS = 300;
export const CLOUD_TIMEOUT_DEFAULT_SECONDS = 300;
/** Roblox takes scripts up to 4 MB. */
export const CLOUD_SCRIPT_MAX_BYTES = 4 * 1024 * 1024;
/** Roblox keeps at most 450 KB of a task's logs; Moonrelay keeps at most this many lines of one run. */
export const CLOUD_LOG_LINES_MAX = 5_000;

export const CLOUD_RUN_ERRORS = {
  noKey:
    'No Open Cloud key is saved. Save one in Settings → Roblox Open Cloud with the universe.place.luau-execution-session:write scope to run code in Roblox.',
  noPlace:
    "No place is set for cloud runs. Set your game's place id in Settings → Roblox Open Cloud (Creator Hub → the experience → Places).",
  missingScope: (scope: string) =>
    `The saved Open Cloud key lacks the scope ${scope}. Add it to the key in Creator Hub → Open Cloud → API Keys (Luau Execution API), then save the key again.`,
  scriptTooLarge: `The script is over Roblox's limit of ${CLOUD_SCRIPT_MAX_BYTES / 1024 / 1024} MB for a cloud run; nothing was sent.`,
  timeoutRange: `timeoutSeconds: must be a whole number of seconds from ${CLOUD_TIMEOUT_MIN_SECONDS} to ${CLOUD_TIMEOUT_MAX_SECONDS} (Roblox runs a task at most 5 minutes)`,
  placeIdInvalid: 'placeId: must be the digits of a place id of your universe (Creator Hub → the experience → Places)',
  placeVersionInvalid:
    'placeVersion: must be the digits of a version number of the place, or null for its newest version',
  notCancellable: 'Only a cloud run still waiting in Moonrelay (not yet sent to Roblox) can be cancelled',
  didNotFinish: 'Roblox did not finish the task within its timeout and margin; it was given up on.',
  createUnknown:
    'Moonrelay stopped while asking Roblox to start this task, so whether Roblox started it is unknown. It was not sent again, so that it cannot run twice; run it again if it did not run.',
  keyRemoved: 'The Open Cloud key was removed before Roblox finished the task; its outcome is unknown.',
  lost: 'Roblox no longer knows this task',
  cancelled: 'Cancelled before it was sent to Roblox',
} as const;

/**
 * Where a cloud run is. waiting: in Moonrelay's queue (Roblox's limits, the place's unfinished
 * tasks); creating: the create call is out; queued and running: Roblox's QUEUED and PROCESSING; then
 * how it ended.
 */
export const CloudRunStateSchema = z.enum([
  'waiting',
  'creating',
  'queued',
  'running',
  'succeeded',
  'failed',
  'timed_out',
  'cancelled',
]);
export type CloudRunState = z.infer<typeof CloudRunStateSchema>;

export const CLOUD_RUN_ENDED: readonly CloudRunState[] = ['succeeded', 'failed', 'timed_out', 'cancelled'];

/** One line the task logged (Roblox's structured messages: OUTPUT, INFO, WARNING, ERROR). */
export const CloudLogLineSchema = z
  .object({
    message: z.string(),
    type: z.enum(['output', 'info', 'warning', 'error']),
    /** When the task logged it, as Roblox says. */
    time: IsoDateTimeSchema.nullable(),
  })
  .meta({ id: 'CloudLogLine' });
export type CloudLogLine = z.infer<typeof CloudLogLineSchema>;

/** A cloud run's part of a run's detail (GET /api/executions/{id}). */
export const CloudRunSchema = z
  .object({
    state: CloudRunStateSchema,
    universeId: z.string(),
    placeId: z.string(),
    /** The pinned place version; null runs the place's newest version. */
    placeVersion: z.string().nullable(),
    timeoutSeconds: z.number().int(),
    /** Roblox's task path (universes/…/tasks/…) once Roblox took it. */
    taskPath: z.string().nullable(),
    /** Why it waits in Moonrelay's queue ("Waiting for Roblox: …"), while it does. */
    waitingReason: z.string().nullable(),
    /** Roblox's error code: SCRIPT_ERROR, DEADLINE_EXCEEDED, OUTPUT_SIZE_LIMIT_EXCEEDED, INTERNAL_ERROR (or Moonrelay's own when it gave up). */
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    /** What the script returned, as Roblox gives it (JSON; an Instance comes back as null). */
    returnValues: z.array(z.unknown()).nullable(),
    logs: z.array(CloudLogLineSchema),
    /** When Roblox took the task, and when the run ended. */
    startedAt: IsoDateTimeSchema.nullable(),
    finishedAt: IsoDateTimeSchema.nullable(),
  })
  .meta({ id: 'CloudRun' });
export type CloudRun = z.infer<typeof CloudRunSchema>;

/** The socket event `execution:logs`: new lines of a cloud run, and where it is now. */
export const CloudRunLogsEventSchema = z.object({
  executionId: z.string(),
  state: CloudRunStateSchema,
  lines: z.array(CloudLogLineSchema),
});
export type CloudRunLogsEvent = z.infer<typeof CloudRunLogsEventSchema>;

export const CloudTimeoutSchema = z
  .number({ error: CLOUD_RUN_ERRORS.timeoutRange })
  .int(CLOUD_RUN_ERRORS.timeoutRange)
  .min(CLOUD_TIMEOUT_MIN_SECONDS, CLOUD_RUN_ERRORS.timeoutRange)
  .max(CLOUD_TIMEOUT_MAX_SECONDS, CLOUD_RUN_ERRORS.timeoutRange);

export const PlaceIdSchema = z.string().regex(/^[1-9]\d{0,18}$/, CLOUD_RUN_ERRORS.placeIdInvalid);
export const PlaceVersionSchema = z.string().regex(/^[1-9]\d{0,18}$/, CLOUD_RUN_ERRORS.placeVersionInvalid);

/** PUT /api/open-cloud/place: the place cloud runs use, and optionally a pinned version. */
export const SaveCloudPlaceRequestSchema = z
  .object({ placeId: PlaceIdSchema, placeVersion: PlaceVersionSchema.nullable().optional() })
  .meta({ id: 'SaveCloudPlaceRequest' });
export type SaveCloudPlaceRequest = z.infer<typeof SaveCloudPlaceRequestSchema>;

/**
 * GET /api/open-cloud/place: where a cloud run of the account would run, and whether it can, for
 * whoever may start one (the Open Cloud key itself is the key's managers' to see).
 */
export const CloudPlaceStatusSchema = z
  .object({
    universeId: z.string().nullable(),
    placeId: z.string().nullable(),
    placeVersion: z.string().nullable(),
    /** Whether a cloud run can be started now (key, scope, place). */
    ready: z.boolean(),
    /** What is missing when it cannot: the refusal a run would get. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'CloudPlaceStatus' });
export type CloudPlaceStatus = z.infer<typeof CloudPlaceStatusSchema>;
