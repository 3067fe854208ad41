import crypto from 'node:crypto';
import { printableText } from '@moonrelay/contract/common';
import type { DryRunSummary, ExecutionResponse, ExecutionTarget, ScriptForGame } from '@moonrelay/contract/executions';
import type { CommandView, DeliveredCommand, PlayerData } from '@moonrelay/contract/game';
import type { AutoExecuteGames } from '@moonrelay/contract/scripts';
import type { RunInitiator } from '@moonrelay/contract/runs';
import { ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { CloudTarget } from '../cloud-runs/cloud-runs.ts';
import { scriptsRepo, type ScriptRow } from '../scripts/scripts.repo.ts';
import { sha256Hex } from '../../security/digest.ts';
import { dryRunHint } from './dry-run-hint.ts';
import { executionsRepo } from './executions.repo.ts';
import { runsRepo } from './runs.repo.ts';
import { toRunSummary } from './runs.service.ts';

/** What the sandbox answers for one run (see sandbox/src/sandbox/run-lua.ts). */
export interface SandboxOutcome {
  success: boolean;
  output: string;
  error: string | null;
  limit: null | 'memory' | 'instructions' | 'output' | 'deadline';
  durationMs: number;
  /** Dry runs: what the script did to the emulated game (null when a limit ended the run). */
  dryRun?: DryRunSummary | null;
}

/** The sandbox's state for a run: plain Lua, or an emulated Roblox game server (a dry run). */
export type SandboxEnvironment = 'plain' | 'dry-run';

export interface SandboxRunner {
  /** Runs code for a user; rejects with a busy error when the sandbox is at capacity. */
  run(userId: string, code: string, environment?: SandboxEnvironment): Promise<SandboxOutcome>;
}

export interface SyntaxChecker {
  assertValidSyntax(code: string): Promise<void>;
}

/** What the execution service needs of the game link: where to run, and a way to queue and wait. */
export interface GameRunner {
  /** The connected game server to run on (the given one, or the most recently pinged), or null. */
  executionServer(userId: string, serverId: string | undefined): Promise<string | null>;
  /** Queues an execute command for that server tied to the execution; answers the command id. */
  queueExecution(userId: string, serverId: string, code: string, executionId: string): Promise<string>;
  /** The command's final state, or null if it did not finish in time. */
  waitForResult(commandId: string, timeoutMs: number): Promise<CommandView | null>;
  /** A game server's ping (its player's data); answers the commands waiting for it, taken as a ping takes them. */
  ping(userId: string, serverId: string | undefined, playerData: PlayerData): Promise<DeliveredCommand[]>;
}

const EXCERPT_LENGTH = 500;

/**
 * Why a key that may not read every script (no `scripts:read`: the integration key) is refused a
 * script by name: it fetches only what its game is meant to run (docs/decisions/029, section of 2026-11-29).
 */
export const GAME_FETCH_ERRORS = {
  manualScript:
    'This script is manual: a game key fetches only auto-execute scripts by name (reading any script needs the scripts:read scope)',
  otherGame:
    "This script does not auto-execute in this game: a game key fetches only the auto-execute scripts of the game asking (gameData's gameId or placeId)",
} as const;

/**
 * Whether the shipped integration script auto-executes this script in the game described by
 * `gameData`: its rule (lua/integration/game-integration.lua, shouldAutoExecute), so that a game
 * key fetches by name exactly what its game runs. An empty or missing autoExecuteGames map means
 * every game; otherwise `all` or one of the game's ids must be enabled. Without gameData the game
 * is unknown, and only scripts for every game qualify. The script's own `gameId` is the game it was
 * saved for (the editor writes it into the map too); the shipped script never narrows by it alone.
 */
export function autoExecutesIn(script: ScriptRow, gameData: PlayerData | undefined): boolean {
  if (script.isAutoExecute !== 1) return false;
  const games = script.autoExecuteGames ? (JSON.parse(script.autoExecuteGames) as AutoExecuteGames) : null;
  if (!games || Object.keys(games).length === 0) return true;
  const enabled = (id: string) => Object.hasOwn(games, id) && games[id]?.enabled === true;
  const ids = [gameData?.gameId, gameData?.universeId, gameData?.placeId].filter((id) => id !== undefined);
  return enabled('all') || ids.some((id) => enabled(String(id)));
}

/** Whose run it is, of which saved script, and who started it if not the user (an admin). */
interface RunContext {
  userId: string;
  scriptId: string | null;
  /** The script's name as it runs, kept with the run (the script may be renamed or deleted later). */
  scriptName: string | null;
  /** The script's version that runs (null for custom code). */
  scriptVersion?: number | null;
  initiatedBy: string | null;
  /** The run's id when the caller derives it (a mass execution's part); else a random one. */
  executionId?: string;
  /** Who started it, when neither the user nor an admin did (a schedule). */
  initiator?: RunInitiator;
  /** The person who started it, and with which API key (docs/decisions/049, "Who did it"). */
  actor?: RunActor;
}

/** What target "cloud" needs of the cloud runs: the checks, the task written with the run, the follow-up. */
export interface CloudRunner {
  target(ownerId: string, code: string): Promise<CloudTarget>;
  queue(
    trx: Db,
    run: { executionId: string; ownerId: string; code: string; timeoutSeconds?: number },
    target: CloudTarget,
  ): Promise<void>;
  follow(ownerId: string): Promise<void>;
  answer(executionId: string): ExecutionResponse;
}

/** The person who starts a run, as the run keeps them: id, their name then, the key they used. */
export interface RunActor {
  id: string;
  name: string | null;
  keyName: string | null;
}

/**
 * Execution: syntax first (a syntax error is answered before anything runs), then the target.
 * Target "sandbox" runs in a fresh locked-down Lua state on the worker pool; target "dry-run" runs
 * there too, in an emulated Roblox game server, and answers a summary of what the script changed
 * (docs/decisions/019-dry-runs.md; the summary is answered, not stored). Target "game" (the
 * default) becomes an execute command for a connected game server and waits for its result (8 s by
 * default, GAME_EXECUTION_WAIT_MS), else answers it queued; a later result completes the record and
 * is pushed (`execution:result`). Without a
 * connected game the answer is the spec's not-connected shape. Every run is recorded, and a saved
 * script's executionCount counts it with the record, whatever its target and outcome
 * (docs/decisions/046-one-count-of-runs.md).
 */
export function createExecutionsService(deps: {
  db: Db;
  sandbox: SandboxRunner;
  syntax: SyntaxChecker;
  game: GameRunner;
  bus: EventBus;
  /** How long a game run waits for its result before it is answered queued (GAME_EXECUTION_WAIT_MS). */
  gameWaitMs: number;
  /** Target "cloud": Roblox runs it (modules/cloud-runs); absent where no cloud runs are started. */
  cloud?: CloudRunner;
}) {
  const { db, sandbox, syntax, game, bus, gameWaitMs } = deps;

  /**
   * Records a run, its full code (kept once per distinct code, after the run that needs it: see
   * docs/decisions/022-run-history.md) and its count, then tells the user's screens. The record and
   * the script's count are written together: every screen counts runs from these records, and the
   * script's executionCount is their all-time tally, so neither may exist without the other. Every
   * run of a saved script counts, a game run that found no game connected included: the Runs page
   * lists it, so every count does (docs/decisions/046-one-count-of-runs.md).
   */
  async function record(
    run: RunContext,
    code: string,
    target: ExecutionTarget,
    outcome: Omit<SandboxOutcome, 'limit'> & { limit?: SandboxOutcome['limit']; status: string },
    serverId: string | null = null,
    /** Written in the record's own transaction (a cloud run's task), so neither exists without the other. */
    alsoWrite?: (trx: Db, executionId: string) => Promise<void>,
  ): Promise<string> {
    const { userId, scriptId } = run;
    // A derived id is recorded once: a second run of the same part collides here, before any command.
    const id = run.executionId ?? crypto.randomUUID();
    const createdAt = nowIso();
    const codeHash = sha256Hex(code);
    const row = {
      id,
      userId,
      scriptId,
      scriptVersion: run.scriptVersion ?? null,
      target,
      status: outcome.status,
      codeExcerpt: code.slice(0, EXCERPT_LENGTH),
      output: outcome.output,
      error: outcome.error,
      limitHit: outcome.limit ?? null,
      durationMs: Math.round(outcome.durationMs),
      createdAt,
      initiatedBy: run.initiatedBy,
      serverId,
      scriptName: run.scriptName,
      initiator: run.initiator ?? (run.initiatedBy ? 'admin' : 'user'),
      codeHash,
      actorId: run.actor?.id ?? null,
      actorName: run.actor?.name ?? null,
      keyName: run.actor?.keyName ?? null,
    };
    await inTransaction(db, async (trx) => {
      await executionsRepo.insert(trx, row);
      if (scriptId) await executionsRepo.countRun(trx, userId, scriptId);
      await alsoWrite?.(trx, id);
    });
    await runsRepo.keepCode(db, { userId, codeHash, code, createdAt });
    bus.publish({ type: 'execution:updated', userId, run: toRunSummary(row) });
    return id;
  }

  /**
   * A game run's answer. Its result, when the game sent it in time; otherwise the spec's queued
   * shape: the game has the script, which is no failure, so success is true and `pending` says the
   * result (output, error) is still to come, as an `execution:result` event and in the history.
   */
  function gameAnswer(executionId: string, serverId: string, command: CommandView | null): ExecutionResponse {
    const base = { queued: true, gameConnected: true, target: 'game', executionId, serverId } as const;
    if (!command) return { ...base, success: true, pending: true, output: '', error: null, durationMs: 0 };
    return {
      ...base,
      success: command.status === 'succeeded',
      output: command.output ?? '',
      error: command.error ?? null,
      durationMs: command.durationMs ?? 0,
    };
  }

  async function runOnGame(run: RunContext, code: string, serverId: string | undefined) {
    const { userId } = run;
    const server = await game.executionServer(userId, serverId);
    if (!server) {
      const executionId = await record(
        run,
        code,
        'game',
        { success: false, output: '', error: ERRORS.gameNotConnected, durationMs: 0, status: 'not_connected' },
        serverId ?? null,
      );
      return {
        success: false,
        queued: false,
        gameConnected: false,
        output: '',
        error: ERRORS.gameNotConnected,
        instructions: ERRORS.gameNotConnectedInstructions,
        target: 'game',
        executionId,
        durationMs: 0,
      } satisfies ExecutionResponse;
    }
    const executionId = await record(
      run,
      code,
      'game',
      { success: false, output: '', error: null, durationMs: 0, status: 'queued' },
      server,
    );
    let commandId: string;
    try {
      commandId = await game.queueExecution(userId, server, code, executionId);
    } catch (error) {
      // The run is recorded but its command was never queued (Redis or the database went away in
      // between): it ends failed now, or it would wait for a result that cannot come.
      const message = error instanceof AppError ? error.message : ERRORS.serviceUnavailable;
      await executionsRepo
        .complete(db, executionId, { status: 'failed', output: '', error: message, durationMs: 0 })
        .catch(() => undefined);
      throw error;
    }
    return gameAnswer(executionId, server, await game.waitForResult(commandId, gameWaitMs));
  }

  /**
   * A cloud run: checked (key, scope, place, size) before anything is recorded, then recorded
   * pending with its task in one transaction, and handed to the follower. Its logs and result
   * arrive as events and in the run.
   */
  async function runInCloud(run: RunContext, code: string, timeoutSeconds: number | undefined) {
    const cloud = deps.cloud;
    if (!cloud) throw new AppError(400, 'Cloud runs are not available here');
    const target = await cloud.target(run.userId, code);
    const executionId = await record(
      run,
      code,
      'cloud',
      { success: false, output: '', error: null, durationMs: 0, status: 'queued' },
      null,
      (trx, id) => cloud.queue(trx, { executionId: id, ownerId: run.userId, code, timeoutSeconds }, target),
    );
    await cloud.follow(run.userId);
    return cloud.answer(executionId);
  }

  async function execute(
    run: RunContext,
    code: string,
    target: ExecutionTarget,
    serverId: string | undefined,
    timeoutSeconds?: number,
  ): Promise<ExecutionResponse> {
    await syntax.assertValidSyntax(code);
    if (target === 'game') return runOnGame(run, code, serverId);
    if (target === 'cloud') return runInCloud(run, code, timeoutSeconds);
    const dryRun = target === 'dry-run';
    const { dryRun: summary, ...ran } = await sandbox.run(run.userId, code, dryRun ? 'dry-run' : 'plain');
    // What the code printed is answered and recorded alike, storable on either engine.
    const outcome = { ...ran, output: printableText(ran.output), error: ran.error && printableText(ran.error) };
    const status = outcome.success ? 'succeeded' : 'failed';
    const executionId = await record(run, code, target, { ...outcome, status });
    const hint = dryRun ? undefined : dryRunHint(code, outcome.error, outcome.output);
    return {
      success: outcome.success,
      output: outcome.output,
      error: outcome.error,
      limit: outcome.limit,
      target,
      executionId,
      durationMs: Math.round(outcome.durationMs),
      ...(dryRun ? { dryRun: summary ?? null } : {}),
      ...(hint ? { hint } : {}),
    };
  }

  async function scriptTheGameRuns(userId: string, name: string, gameData: PlayerData | undefined) {
    const candidates = await scriptsRepo.listAutoExecuteByNameForUser(db, userId, name);
    const script = candidates.find((candidate) => autoExecutesIn(candidate, gameData));
    if (script) return script;
    if (candidates.length > 0) throw new AppError(403, GAME_FETCH_ERRORS.otherGame);
    // Only manual scripts carry the name, or none does (404, as for any key).
    if (await scriptsRepo.findByNameForUser(db, userId, name)) throw new AppError(403, GAME_FETCH_ERRORS.manualScript);
    return undefined;
  }

  /**
   * The saved script a run of code is a run of: the caller's script named by `scriptId` whose
   * current code is exactly `code` (the editor running its unchanged script in the sandbox or as a
   * dry run). Code that differs by a byte, a script that is not the caller's, or no `scriptId` at
   * all is custom code: code alone never picks a script, as two scripts may hold the same code (a
   * duplicate does at first).
   */
  async function savedScriptOf(userId: string, scriptId: string | undefined, code: string) {
    if (scriptId === undefined) return { scriptId: null, scriptName: null };
    const script = await scriptsRepo.findForUser(db, userId, scriptId);
    if (!script || script.code !== code) return { scriptId: null, scriptName: null };
    return { scriptId: script.id, scriptName: script.name, scriptVersion: script.version };
  }

  return {
    /**
     * `initiatedBy`: the admin running it on this user's game (the admin panel); `executionId`: the
     * run's id, derived by a mass execution from its batch and the user; `scriptId`: the saved
     * script the code comes from, counted as its run when the code is that script's current code;
     * `actor`: the person starting it.
     */
    async runCode(
      userId: string,
      code: string,
      target: ExecutionTarget = 'game',
      serverId?: string,
      started: {
        initiatedBy?: string;
        executionId?: string;
        scriptId?: string;
        actor?: RunActor;
        /** Cloud target: how long Roblox may run it. */
        timeoutSeconds?: number;
      } = {},
    ) {
      const saved = await savedScriptOf(userId, started.scriptId, code);
      const run = {
        userId,
        ...saved,
        initiatedBy: started.initiatedBy ?? null,
        executionId: started.executionId,
        actor: started.actor,
      };
      return execute(run, code, target, serverId, started.timeoutSeconds);
    },

    /**
     * The game client's documented call: the code of the user's script of that name, which the game
     * runs itself. It counts as a run of the script on the game (executionCount and the history),
     * recorded as succeeded: Moonrelay's part, handing the code to the game that asked for it, is
     * done, and the game never reports how its own run went, so a queued record would stay pending
     * for ever. With `gameData` the call is also that game server's ping, and answers its commands.
     *
     * `gameOnly`: the caller may not read every script (a key without `scripts:read`, such as the
     * integration key), so it gets the newest script of that name its game auto-executes; a name
     * that only manual scripts or other games' scripts carry is refused (403) saying which, before
     * anything is recorded or any command taken.
     */
    async scriptForGame(
      userId: string,
      name: string,
      asking: { serverId?: string; gameData?: PlayerData; gameOnly: boolean; actor?: RunActor },
    ): Promise<ScriptForGame> {
      const script = asking.gameOnly
        ? await scriptTheGameRuns(userId, name, asking.gameData)
        : await scriptsRepo.findByNameForUser(db, userId, name);
      if (!script) throw new AppError(404, ERRORS.scriptNotFound);
      await syntax.assertValidSyntax(script.code);
      const commands = asking.gameData ? await game.ping(userId, asking.serverId, asking.gameData) : undefined;
      await record(
        {
          userId,
          scriptId: script.id,
          scriptName: script.name,
          scriptVersion: script.version,
          initiatedBy: null,
          actor: asking.actor,
        },
        script.code,
        'game',
        { success: true, output: '', error: null, durationMs: 0, status: 'succeeded' },
        asking.gameData ? (asking.serverId ?? null) : null,
      );
      return { success: true, code: script.code, name: script.name, output: '', ...(commands ? { commands } : {}) };
    },

    async runScript(
      userId: string,
      scriptId: string,
      target: ExecutionTarget = 'game',
      serverId?: string,
      actor?: RunActor,
      timeoutSeconds?: number,
    ) {
      const script = await scriptsRepo.findForUser(db, userId, scriptId);
      if (!script) throw new AppError(404, ERRORS.scriptNotFound);
      const run = {
        userId,
        scriptId: script.id,
        scriptName: script.name,
        scriptVersion: script.version,
        initiatedBy: null,
        actor,
      };
      return execute(run, script.code, target, serverId, timeoutSeconds);
    },

    /**
     * A schedule's run of its script, recorded as started by the schedule under the id the schedule
     * derived from its due time (so a due time handed out twice cannot be recorded twice).
     */
    async runScheduled(
      userId: string,
      scriptId: string,
      target: ExecutionTarget,
      serverId: string | undefined,
      executionId: string,
      actor?: RunActor,
    ): Promise<ExecutionResponse> {
      const script = await scriptsRepo.findForUser(db, userId, scriptId);
      if (!script) throw new AppError(404, ERRORS.scriptNotFound);
      const run = {
        userId,
        scriptId,
        scriptName: script.name,
        // The version that runs, as for a manual run (docs/decisions/024-script-versions.md).
        scriptVersion: script.version,
        initiatedBy: null,
        executionId,
        initiator: 'schedule' as const,
        actor,
      };
      return execute(run, script.code, target, serverId);
    },

    /**
     * Game commands that finished (a result, or their time ran out): the executions they carried
     * are completed and pushed, for screens whose execute call answered before the result.
     */
    async completeGameRuns(commands: CommandView[]): Promise<void> {
      for (const command of commands) {
        if (!command.executionId) continue;
        const success = command.status === 'succeeded';
        const error = success
          ? null
          : (command.error ?? (command.status === 'expired' ? 'The game never took the command' : null));
        const completed = await executionsRepo.complete(db, command.executionId, {
          status: success ? 'succeeded' : 'failed',
          output: command.output ?? '',
          error,
          durationMs: command.durationMs ?? 0,
        });
        // The Runs page's row changes from pending to the result (once: a repeated result changes nothing).
        const updated = completed && (await runsRepo.summary(db, command.executionId));
        if (updated) bus.publish({ type: 'execution:updated', userId: updated.userId, run: toRunSummary(updated) });
        bus.publish({
          type: 'execution:result',
          userId: command.userId,
          execution: gameAnswer(command.executionId, command.serverId ?? '', { ...command, error }),
        });
      }
    },
  };
}

export type ExecutionsService = ReturnType<typeof createExecutionsService>;
