import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { ExecutionTargetSchema } from './executions.ts';
import { ServerIdSchema } from './game.ts';
import { CUSTOM_CODE_NAME } from './constants.ts';
import { CloudRunSchema, CloudRunStateSchema } from './cloud-runs.ts';

/**
 * The run history (the Runs page; GET /api/executions and /api/executions/{id}). Every execution of
 * a user is a run: where it ran, how it ended, what it printed, and who started it. A user sees only
 * their own runs. Newest first, paged by an opaque cursor, so a page never repeats or skips a run
 * while new ones arrive. Kept per user: the newest RUN_HISTORY_KEEP_RUNS runs, or every run of the
 * last RUN_HISTORY_KEEP_DAYS days, whichever keeps more (docs/decisions/022-run-history.md).
 */
export const RUN_HISTORY_KEEP_RUNS = 10_000;
export const RUN_HISTORY_KEEP_DAYS = 30;
export const RUNS_PAGE_SIZE_DEFAULT = 50;
export const RUNS_PAGE_SIZE_MAX = 100;
export { CUSTOM_CODE_NAME };

export const RUN_ERRORS = {
  /** Also the answer for another user's run: whether it exists is not the caller's to know. */
  notFound: 'Execution not found',
  invalidCursor: 'cursor: not a cursor this list answered',
} as const;

/** pending: a game run whose result has not come back (yet); not_connected: no game was connected. */
export const RunStatusSchema = z.enum(['pending', 'succeeded', 'failed', 'not_connected']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** A run's status, or 'limit': runs a sandbox limit ended (they are also 'failed'). */
export const RunStatusFilterSchema = z.enum(['pending', 'succeeded', 'failed', 'limit', 'not_connected']);
export type RunStatusFilter = z.infer<typeof RunStatusFilterSchema>;

/** Who started a run: the user, an admin (on the user's game), a schedule, or the game's auto-execute. */
export const RunInitiatorSchema = z.enum(['user', 'admin', 'schedule', 'auto-execute']);
export type RunInitiator = z.infer<typeof RunInitiatorSchema>;

export const RunLimitSchema = z.enum(['memory', 'instructions', 'output', 'deadline']);

/** A time in a query: ISO 8601 with or without an offset; compared as the instant it names. */
const queryTime = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name}: must be an ISO 8601 date and time, e.g. 2026-11-22T00:00:00Z` })
    .transform((value) => new Date(value).toISOString());

export const RunListQuerySchema = z
  .object({
    scriptId: z.string().min(1).max(100).optional(),
    target: ExecutionTargetSchema.optional(),
    serverId: ServerIdSchema.min(1).optional(),
    status: RunStatusFilterSchema.optional(),
    /** Runs one person started (a member's user id). */
    actorId: z.string().min(1).max(100).optional(),
    /** Runs at or after this time. */
    from: queryTime('from').optional(),
    /** Runs before this time. */
    to: queryTime('to').optional(),
    /** The nextCursor of the previous page. */
    cursor: z.string().min(1).max(300).optional(),
    limit: z.coerce.number().int().min(1).max(RUNS_PAGE_SIZE_MAX).default(RUNS_PAGE_SIZE_DEFAULT),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type RunListQuery = z.input<typeof RunListQuerySchema>;

/** One run as the Runs table lists it, and as the `execution:updated` event carries it. */
export const RunSummarySchema = z
  .object({
    id: z.string(),
    /** The saved script that ran; null for custom code (or a script deleted since). */
    scriptId: z.string().nullable(),
    /** The script's name (its current one while it exists); null for custom code. */
    scriptName: z.string().nullable(),
    /** The version of the saved script that ran (null: custom code, or a run from before versions were kept). */
    scriptVersion: z.number().int().nullable(),
    target: ExecutionTargetSchema,
    /** Game runs: the game server it went to. */
    serverId: z.string().nullable(),
    status: RunStatusSchema,
    /** The sandbox limit that ended the run, if any. */
    limitHit: RunLimitSchema.nullable(),
    durationMs: z.number().int(),
    startedBy: RunInitiatorSchema,
    /**
     * The person who started it (a team's member, the account's owner, the maker of the schedule
     * that ran it), by the name they had then; null when no person did (the game's auto-execute),
     * for an admin's run (see startedBy), and for runs recorded before people were kept.
     */
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    /** The name of the API key they started it with; null in the dashboard. */
    keyName: z.string().nullable(),
    /** Cloud runs: where the run is in Roblox (waiting, queued, running, or how it ended). */
    cloudState: CloudRunStateSchema.nullable().optional(),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'RunSummary' });
export type RunSummary = z.infer<typeof RunSummarySchema>;

export const RunPageSchema = z
  .object({
    runs: z.array(RunSummarySchema),
    /** Pass as `cursor` for the next (older) page; null on the last page. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'RunPage' });
export type RunPage = z.infer<typeof RunPageSchema>;

export const RunSchema = RunSummarySchema.extend({
  /** The code that ran. */
  code: z.string(),
  /** False for runs recorded before full code was kept: `code` is then its first 500 characters. */
  codeComplete: z.boolean(),
  output: z.string(),
  error: z.string().nullable(),
  /** Cloud runs: the task in Roblox, its logs and return values. */
  cloud: CloudRunSchema.nullable().optional(),
}).meta({ id: 'Run' });
export type Run = z.infer<typeof RunSchema>;
