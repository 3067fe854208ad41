import { z } from 'zod';
import { ScriptCodeSchema } from './scripts.ts';
import { VALIDATION } from './messages.ts';
import { ServerIdSchema } from './game.ts';

/** Where code runs: the user's connected game (default), or Moonrelay's own Lua sandbox. */
export const ExecutionTargetSchema = z.enum(['game', 'sandbox']);
export type ExecutionTarget = z.infer<typeof ExecutionTargetSchema>;

/** `code`, or `loadstring` (the catalogue's name for the same thing). */
export const ExecuteCodeRequestSchema = z
  .object({
    code: ScriptCodeSchema.optional(),
    loadstring: ScriptCodeSchema.optional(),
    target: ExecutionTargetSchema.optional(),
    /** Game target: which of the user's game servers runs it (default: the most recently pinged). */
    serverId: ServerIdSchema.optional(),
  })
  .refine((body) => body.code !== undefined || body.loadstring !== undefined, {
    message: VALIDATION.scriptCodeRequired,
    path: ['code'],
  })
  .meta({ id: 'ExecuteCodeRequest' });
export type ExecuteCodeRequest = z.infer<typeof ExecuteCodeRequestSchema>;

export const ExecuteScriptRequestSchema = z
  .object({ target: ExecutionTargetSchema.optional(), serverId: ServerIdSchema.optional() })
  .meta({ id: 'ExecuteScriptRequest' });
export type ExecuteScriptRequest = z.infer<typeof ExecuteScriptRequestSchema>;

/**
 * The answer of both execute calls. A sandbox run answers success, output, error and its limit.
 * A game run answers queued true and gameConnected true; success, output and error are the game's
 * result when it came back within the wait, else success is false with no error and `pending` is
 * true (the result arrives later as an `execution:result` event and in the history). Without a
 * connected game the answer is the spec's not-connected shape (queued false, gameConnected false,
 * instructions, error 'Game not connected').
 */
export const ExecutionResponseSchema = z
  .object({
    success: z.boolean(),
    output: z.string(),
    error: z.string().nullable(),
    target: ExecutionTargetSchema,
    executionId: z.string(),
    durationMs: z.number().int(),
    /** The sandbox limit that ended the run, if any. */
    limit: z.enum(['memory', 'instructions', 'output', 'deadline']).nullable().optional(),
    queued: z.boolean().optional(),
    gameConnected: z.boolean().optional(),
    instructions: z.string().optional(),
    /** Game target: the result has not come back yet. */
    pending: z.boolean().optional(),
    /** Game target: the game server that runs it. */
    serverId: z.string().optional(),
  })
  .meta({ id: 'ExecutionResponse' });
export type ExecutionResponse = z.infer<typeof ExecutionResponseSchema>;

export const LuaCodeRequestSchema = z
  .object({ code: z.string({ error: VALIDATION.scriptCodeRequired }) })
  .meta({ id: 'LuaCodeRequest' });

export const LuaDiagnosticSchema = z.object({
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
  message: z.string(),
});
export type LuaDiagnostic = z.infer<typeof LuaDiagnosticSchema>;

export const LuaCheckResponseSchema = z
  .object({ ok: z.boolean(), diagnostics: z.array(LuaDiagnosticSchema) })
  .meta({ id: 'LuaCheckResponse' });
export type LuaCheckResponse = z.infer<typeof LuaCheckResponseSchema>;

export const LuaFormatResponseSchema = z.object({ code: z.string() }).meta({ id: 'LuaFormatResponse' });
