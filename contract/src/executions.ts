import { z } from 'zod';
import { ScriptCodeSchema, ScriptNameSchema } from './scripts.ts';
import { VALIDATION } from './messages.ts';
import { DeliveredCommandSchema, PlayerDataSchema, ServerIdSchema } from './game.ts';
import { CloudRunStateSchema, CloudTimeoutSchema } from './cloud-runs.ts';

/**
 * Where code runs: the user's connected game (default), Moonrelay's own Lua sandbox, a dry run
 * (the sandbox with an emulated Roblox game server: game, Instance, task.wait on a virtual clock),
 * or Roblox itself (`cloud`: Open Cloud's Luau Execution on a fresh copy of the place, contract/cloud-runs.ts).
 */
export const ExecutionTargetSchema = z.enum(['game', 'sandbox', 'dry-run', 'cloud']);
export type ExecutionTarget = z.infer<typeof ExecutionTargetSchema>;

/**
 * POST /api/scripts/execute, in the spec's variants (section 7):
 * - `code`, or `loadstring` (the catalogue's name for the same thing), run where `target` says. The
 *   catalogue screen also sends `key` (the user's token); the Authorization header decides then.
 * - The game client's documented call: `key` (the API key), `script` (the name of one of the key
 *   owner's scripts) and optional `gameData` (its player's data). The answer is the script's code
 *   for the game to run itself (ScriptForGame).
 */
export const ExecuteCodeRequestSchema = z
  .object({
    code: ScriptCodeSchema.optional(),
    loadstring: ScriptCodeSchema.optional(),
    target: ExecutionTargetSchema.optional(),
    /**
     * Game target: which of the user's game servers runs it (default: the most recently pinged). With
     * `script` and `gameData`: the game server that is asking (default "default", as the ping's).
     */
    serverId: ServerIdSchema.optional(),
    key: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Your API key, as the game client sends it (when no Authorization header is sent)' }),
    script: ScriptNameSchema.optional().meta({
      description:
        'The game client’s call: the name of one of your scripts, whose code is answered for the game to run',
    }),
    gameData: PlayerDataSchema.optional().meta({
      description:
        'With script: your game’s player data; the call then also counts as its ping and answers its commands',
    }),
    timeoutSeconds: CloudTimeoutSchema.optional().meta({
      description: 'Cloud target: how long Roblox may run the task, 1 to 300 seconds (default 300, Roblox’s limit)',
    }),
    scriptId: z.string().min(1).max(100).optional().meta({
      description:
        'With code: the saved script this code comes from (the editor sends it). When the code is exactly that script’s current code, the run counts as the script’s, whatever the target; otherwise, or for a script that is not yours, it is custom code (docs/decisions/046-one-count-of-runs.md).',
    }),
  })
  .superRefine((body, ctx) => {
    const hasCode = body.code !== undefined || body.loadstring !== undefined;
    if (!hasCode && body.script === undefined) {
      ctx.addIssue({ code: 'custom', message: VALIDATION.scriptCodeRequired, path: ['code'] });
    } else if (hasCode && body.script !== undefined) {
      ctx.addIssue({ code: 'custom', message: VALIDATION.executeCodeOrScript, path: ['script'] });
    } else if (body.script !== undefined && body.target !== undefined && body.target !== 'game') {
      ctx.addIssue({ code: 'custom', message: VALIDATION.executeScriptTarget, path: ['target'] });
    }
  })
  // What the refinement above checks, for readers of the JSON Schema: code (or loadstring), or a script by name.
  .meta({
    id: 'ExecuteCodeRequest',
    anyOf: [{ required: ['code'] }, { required: ['loadstring'] }, { required: ['script'] }],
  });
export type ExecuteCodeRequest = z.infer<typeof ExecuteCodeRequestSchema>;

export const ExecuteScriptRequestSchema = z
  .object({
    target: ExecutionTargetSchema.optional(),
    serverId: ServerIdSchema.optional(),
    /** Cloud target: how long Roblox may run the task (default 300 s). */
    timeoutSeconds: CloudTimeoutSchema.optional(),
  })
  .meta({ id: 'ExecuteScriptRequest' });
export type ExecuteScriptRequest = z.infer<typeof ExecuteScriptRequestSchema>;

const ClassCountSchema = z.object({ className: z.string(), count: z.number().int() });

/**
 * What a dry run's script did to the emulated game. `changed` lists the properties it set on the
 * game's own instances (the player's character, Workspace, Lighting, ...), each once with its last
 * value, at most 50 (`changedOmitted` counts the rest); what it created itself is counted by class.
 */
export const DryRunSummarySchema = z
  .object({
    /** Instances the script created, by class, most first. */
    created: z.array(ClassCountSchema),
    /** Instances the script destroyed (with their descendants), by class, most first. */
    destroyed: z.array(ClassCountSchema),
    changed: z.array(z.object({ instance: z.string(), property: z.string(), value: z.string() })),
    changedOmitted: z.number().int(),
    /** Property assignments in all, on any instance. */
    propertiesSet: z.number().int(),
    /** Game seconds the run covered on its virtual clock. */
    gameSeconds: z.number(),
    /** Threads still waiting (on the clock, a signal, a child) when the run ended. */
    waitingThreads: z.number().int(),
    /** 'idle': nothing was left to run; 'game-time-limit': the run stopped at its last game second. */
    endedBy: z.enum(['idle', 'game-time-limit']),
  })
  .meta({ id: 'DryRunSummary' });
export type DryRunSummary = z.infer<typeof DryRunSummarySchema>;

/**
 * A next step the run's result points to. `dry-run`: a plain sandbox run failed on a Roblox global
 * (Instance, game, Vector3, ...) that a dry run emulates; running the same code as a dry run gets
 * further.
 */
export const RunHintSchema = z
  .object({
    kind: z.literal('dry-run'),
    /** The Roblox global the error names, e.g. `Instance` or `task.delay`. */
    global: z.string(),
    /** What the output pane says, e.g. "Instance is part of Roblox, not plain Lua: ...". */
    message: z.string(),
  })
  .meta({ id: 'RunHint' });
export type RunHint = z.infer<typeof RunHintSchema>;

/**
 * The answer of both execute calls. A sandbox run answers success, output, error and its limit; a
 * dry run also answers `dryRun`, its summary (null when a sandbox limit ended the run).
 * A game run answers queued true and gameConnected true; success, output and error are the game's
 * result when it came back within the wait (8 s by default). Otherwise it is the spec's queued
 * shape: success true (the game has the script; that is no failure), `pending` true, no output and
 * no error yet; the result arrives later as an `execution:result` event and in the history. Without a
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
    /** Dry-run target: what the script did to the emulated game; null when a limit ended the run. */
    dryRun: DryRunSummarySchema.nullable().optional(),
    /** Sandbox target: present when the run failed on a Roblox API that a dry run has. */
    hint: RunHintSchema.optional(),
    queued: z.boolean().optional(),
    gameConnected: z.boolean().optional(),
    instructions: z.string().optional(),
    /** Game target: the result has not come back within the wait; it arrives later (success is true). */
    pending: z.boolean().optional(),
    /** Game target: the game server that runs it. */
    serverId: z.string().optional(),
    /** Cloud target: where the run is (it is answered waiting; its logs and result follow as events). */
    cloudState: CloudRunStateSchema.optional(),
  })
  .meta({ id: 'ExecutionResponse' });
export type ExecutionResponse = z.infer<typeof ExecutionResponseSchema>;

/**
 * The game client's call (`script` by name): the script's code for the game to run itself. Moonrelay
 * never sees that run's output, so `output` is empty. `commands` (only when the call sent
 * `gameData`, which makes it the game's ping too) are the commands waiting for that game server,
 * such as a teleport with x, y, z, delivered as a ping delivers them: run them in order and report
 * their results on the next ping.
 */
export const ScriptForGameSchema = z
  .object({
    success: z.literal(true),
    code: z.string(),
    name: z.string(),
    output: z.string(),
    commands: z.array(DeliveredCommandSchema).optional(),
  })
  .meta({ id: 'ScriptForGame' });
export type ScriptForGame = z.infer<typeof ScriptForGameSchema>;

/** What POST /api/scripts/execute answers: a run (code), or the game client's script by name. */
export const ExecuteCodeResponseSchema = z
  .union([ExecutionResponseSchema, ScriptForGameSchema])
  .meta({ id: 'ExecuteCodeResponse' });
export type ExecuteCodeResponse = z.infer<typeof ExecuteCodeResponseSchema>;

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
