import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { ExecutionTargetSchema } from './executions.ts';
import { GameCommandRequestSchema, PlayerDataSchema } from './game.ts';
import { ScriptCodeSchema } from './scripts.ts';
import { VALIDATION } from './messages.ts';
import { ADMIN_PAGE_SIZE_DEFAULT } from './constants.ts';

/**
 * The admin panel (spec sections 2 Admin, 6, 7 Admin). Every /api/admin route is for admins only
 * (403 otherwise) and every admin action is written to the append-only audit log.
 */

export { ADMIN_PAGE_SIZE_DEFAULT };
export const ADMIN_PAGE_SIZE_MAX = 200;
export const MASS_EXECUTION_MAX_USERS = 500;

/** `?page=1&pageSize=50`: pages count from 1. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

const page = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
    .meta({ id });

export const AdminUserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    isAdmin: z.boolean(),
    apiKey: z.string().nullable(),
    scriptCount: z.number().int(),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const AdminUserPageSchema = page(AdminUserSchema, 'AdminUserPage');
export type AdminUserPage = z.infer<typeof AdminUserPageSchema>;

/** One game server of one user (or team), as the Connections tab shows it (spec section 3). */
export const AdminConnectionSchema = z
  .object({
    userId: z.string(),
    userName: z.string(),
    /** Null for a team's server: a team has no address of its own (its members do). */
    userEmail: z.string().nullable(),
    /** The account is a team (docs/decisions/049), named by `userName`. */
    isTeam: z.boolean(),
    serverId: z.string(),
    isConnected: z.boolean(),
    lastPing: z.string(),
    gameData: PlayerDataSchema.nullable(),
  })
  .meta({ id: 'AdminConnection' });
export type AdminConnection = z.infer<typeof AdminConnectionSchema>;
export const AdminConnectionListSchema = z
  .object({ items: z.array(AdminConnectionSchema), connected: z.number().int(), total: z.number().int() })
  .meta({ id: 'AdminConnectionList' });
export type AdminConnectionList = z.infer<typeof AdminConnectionListSchema>;

export const AuditEntrySchema = z
  .object({
    id: z.string(),
    /** Null for the command line and for events without a signed-in actor (a throttled login). */
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = page(AuditEntrySchema, 'AuditPage');
export type AuditPage = z.infer<typeof AuditPageSchema>;

/**
 * What the admin ran, as the Recent Executions list shows it after the target (spec sections 2
 * and 3, `details`): the saved script's name when it was one, an excerpt of the code (as the audit
 * entry keeps it) and the game server it went to when one was named. Keys that do not apply are
 * left out, as in an audit entry's details.
 */
export const RecentExecutionDetailsSchema = z
  .object({
    script: z.string().optional(),
    code: z.string(),
    serverId: z.string().optional(),
  })
  .meta({ id: 'RecentExecutionDetails' });
export type RecentExecutionDetails = z.infer<typeof RecentExecutionDetailsSchema>;

/** Spec section 3's recent execution (id, createdAt, adminName, targetId, details), with the run's own fields. */
export const RecentExecutionSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    userName: z.string(),
    /** The user whose game (or sandbox) it ran on: the spec's name for userId. */
    targetId: z.string(),
    /** The admin who ran it; the name is null once that account is gone ('Unknown Admin'). */
    adminId: z.string().nullable(),
    adminName: z.string().nullable(),
    details: RecentExecutionDetailsSchema,
    scriptId: z.string().nullable(),
    scriptName: z.string().nullable(),
    target: ExecutionTargetSchema,
    status: z.string(),
    codeExcerpt: z.string(),
    output: z.string(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'RecentExecution' });
export type RecentExecution = z.infer<typeof RecentExecutionSchema>;
export const RecentExecutionPageSchema = page(RecentExecutionSchema, 'RecentExecutionPage');
export type RecentExecutionPage = z.infer<typeof RecentExecutionPageSchema>;

export const AdminRegenerateKeyResponseSchema = z
  .object({ newApiKey: z.string() })
  .meta({ id: 'AdminRegenerateKeyResponse' });

export const AdminCommandRequestSchema = GameCommandRequestSchema;

/**
 * The spec's admin panel sends the code as `script`; `code` (the name the other execute calls use)
 * is taken too. With both, `script` is run.
 */
export const AdminExecuteScriptRequestSchema = z
  .object({
    script: ScriptCodeSchema.optional().meta({ description: 'The Lua code to run on the user’s game' }),
    code: ScriptCodeSchema.optional().meta({ description: 'Another name for script' }),
    serverId: z.string().max(100).optional(),
  })
  .refine((body) => body.script !== undefined || body.code !== undefined, {
    message: VALIDATION.scriptCodeRequired,
    path: ['script'],
  })
  .meta({ id: 'AdminExecuteScriptRequest' });
export type AdminExecuteScriptRequest = z.infer<typeof AdminExecuteScriptRequestSchema>;

export const SetRoleRequestSchema = z.object({ isAdmin: z.boolean() }).meta({ id: 'SetRoleRequest' });

/** Mass execution: one command, or one script, for each selected user; a job per user. */
export const MassExecutionRequestSchema = z
  .object({
    userIds: z.array(z.string().min(1).max(100)).min(1).max(MASS_EXECUTION_MAX_USERS),
    command: GameCommandRequestSchema.optional(),
    code: ScriptCodeSchema.optional(),
  })
  .refine((body) => (body.command === undefined) !== (body.code === undefined), {
    message: 'Send either a command or code',
    path: ['command'],
  })
  // The refinement, for readers of the JSON Schema: exactly one of the two.
  .meta({ id: 'MassExecutionRequest', oneOf: [{ required: ['command'] }, { required: ['code'] }] });
export type MassExecutionRequest = z.infer<typeof MassExecutionRequestSchema>;

/** Where one user's part of a mass execution stands. */
export const MassProgressStatusSchema = z.enum([
  'queued',
  // Taken by a job, which is creating the command (or run) now; a part is taken once.
  'sending',
  'sent',
  'delivered',
  'succeeded',
  'failed',
  'not_connected',
  'expired',
]);
export type MassProgressStatus = z.infer<typeof MassProgressStatusSchema>;

export const MassProgressSchema = z
  .object({
    batchId: z.string(),
    userId: z.string(),
    status: MassProgressStatusSchema,
    commandId: z.string().nullable(),
    output: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'MassProgress' });
export type MassProgress = z.infer<typeof MassProgressSchema>;

export const MassExecutionResponseSchema = z
  .object({ batchId: z.string(), items: z.array(MassProgressSchema) })
  .meta({ id: 'MassExecutionResponse' });
export type MassExecutionResponse = z.infer<typeof MassExecutionResponseSchema>;

export const MassExecutionParamsSchema = z.object({ batchId: z.string().min(1).max(100) });

export const AdminUserIdParamsSchema = z.object({ id: z.string().min(1) });
