import crypto from 'node:crypto';
import type { ExecutionResponse, ExecutionTarget, LuaCheckResponse } from '@moonrelay/contract/executions';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { syntaxError } from '../lua-tools/lua-tools.http.ts';
import { scriptsRepo } from '../scripts/scripts.repo.ts';
import { executionsRepo } from './executions.repo.ts';

/** What the sandbox answers for one run (see worker/src/sandbox/run-lua.ts). */
export interface SandboxOutcome {
  success: boolean;
  output: string;
  error: string | null;
  limit: null | 'memory' | 'instructions' | 'output' | 'deadline';
  durationMs: number;
}

export interface SandboxRunner {
  /** Runs code for a user; rejects with a busy error when the sandbox is at capacity. */
  run(userId: string, code: string): Promise<SandboxOutcome>;
}

export interface SyntaxChecker {
  check(code: string): Promise<LuaCheckResponse>;
}

const EXCERPT_LENGTH = 500;

/**
 * Execution: syntax first (a syntax error is answered before anything runs), then the target.
 * Target "sandbox" runs in a fresh locked-down Lua state on the worker pool. Target "game" (the
 * default) needs a connected game; until one is connected the answer is the spec's not-connected
 * shape, which is the truth. Every run is recorded, and a saved script's executionCount counts it.
 */
export function createExecutionsService(deps: { db: Db; sandbox: SandboxRunner; syntax: SyntaxChecker }) {
  const { db, sandbox, syntax } = deps;

  async function assertValidSyntax(code: string): Promise<void> {
    const { ok, diagnostics } = await syntax.check(code);
    if (!ok) throw syntaxError(diagnostics);
  }

  async function record(
    userId: string,
    scriptId: string | null,
    code: string,
    target: ExecutionTarget,
    outcome: Omit<SandboxOutcome, 'limit'> & { limit?: SandboxOutcome['limit']; status: string },
  ): Promise<string> {
    const id = crypto.randomUUID();
    await executionsRepo.insert(db, {
      id,
      userId,
      scriptId,
      target,
      status: outcome.status,
      codeExcerpt: code.slice(0, EXCERPT_LENGTH),
      output: outcome.output,
      error: outcome.error,
      limitHit: outcome.limit ?? null,
      durationMs: Math.round(outcome.durationMs),
      createdAt: nowIso(),
    });
    if (scriptId && outcome.status !== 'not_connected') await executionsRepo.countRun(db, userId, scriptId);
    return id;
  }

  async function run(
    userId: string,
    code: string,
    target: ExecutionTarget,
    scriptId: string | null,
  ): Promise<ExecutionResponse> {
    await assertValidSyntax(code);
    if (target === 'sandbox') {
      const outcome = await sandbox.run(userId, code);
      const status = outcome.success ? 'succeeded' : 'failed';
      const executionId = await record(userId, scriptId, code, 'sandbox', { ...outcome, status });
      return {
        success: outcome.success,
        output: outcome.output,
        error: outcome.error,
        limit: outcome.limit,
        target: 'sandbox',
        executionId,
        durationMs: Math.round(outcome.durationMs),
      };
    }
    const executionId = await record(userId, scriptId, code, 'game', {
      success: false,
      output: '',
      error: ERRORS.gameNotConnected,
      durationMs: 0,
      status: 'not_connected',
    });
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
    };
  }

  return {
    runCode(userId: string, code: string, target: ExecutionTarget = 'game') {
      return run(userId, code, target, null);
    },

    async runScript(userId: string, scriptId: string, target: ExecutionTarget = 'game') {
      const script = await scriptsRepo.findForUser(db, userId, scriptId);
      if (!script) throw new AppError(404, ERRORS.scriptNotFound);
      return run(userId, script.code, target, script.id);
    },
  };
}

export type ExecutionsService = ReturnType<typeof createExecutionsService>;
