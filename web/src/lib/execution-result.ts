import type { DryRunSummary, ExecutionResponse, ExecutionTarget, RunHint } from '@moonrelay/contract/executions';
import { ERRORS } from '@moonrelay/contract/messages';
import { ApiError } from './api-client.ts';
import { CLOUD_RUN_TEXT } from './cloud-run.ts';
import type { Notice } from './toaster.tsx';

/**
 * What an execution answer means for the user: the toast and what the output pane shows. The Script
 * Editor, My Scripts, the dashboard and its script executor all report runs through here, so they
 * say the same thing. No UI library imports: the dashboard's chunk takes this without the editor.
 */

/**
 * What the execute calls answer (ExecutionResponse in the contract). Every field is optional here:
 * the screens read what they get and fall back sensibly when a field is missing.
 */
export type ExecutionResult = Partial<ExecutionResponse>;
export type ExecutionLimit = NonNullable<ExecutionResponse['limit']>;
export type { DryRunSummary, ExecutionTarget };

export type ExecutionStatus = 'idle' | 'running' | 'queued' | 'success' | 'error';

export interface Execution {
  status: ExecutionStatus;
  /** Where the run happens: the connected game, Moonrelay's Lua sandbox, a dry run there, or Roblox (cloud). */
  target?: ExecutionTarget;
  output?: string;
  error?: string;
  /** How long the code ran; absent when nothing ran (no game connected, a failed call). */
  durationMs?: number;
  /** The sandbox limit that ended the run. */
  limit?: ExecutionLimit;
  /** A dry run's summary of what the script changed in the emulated game. */
  dryRun?: DryRunSummary;
  /** A sandbox run that failed on a Roblox API: a dry run of the same code has it. */
  hint?: RunHint;
  /** The run as recorded (the Runs page shows it); absent when the call itself failed. */
  executionId?: string;
}

export const EXECUTION_TOASTS = {
  executed: 'Script Executed',
  noOutput: 'No output',
  failedTitle: 'Execution Failed',
  failed: 'Failed to execute script. Please try again.',
  queued: { title: 'Script Queued', description: 'Script has been sent to your game for execution' },
  notConnectedTitle: 'Game Not Connected',
  notConnected: 'Please connect your game client to execute scripts',
} as const;

/** The note under a run that a sandbox limit ended. */
export const LIMIT_NOTES: Record<ExecutionLimit, string> = {
  instructions: 'Stopped: instruction limit',
  memory: 'Stopped: memory limit',
  output: 'Stopped: output limit',
  deadline: 'Stopped: time limit',
};

/** A toast holds a glance of the output: trimmed, at most ~200 characters. */
export const OUTPUT_PREVIEW_LENGTH = 200;

export function outputPreview(output: string | undefined): string {
  const text = (output ?? '').trim();
  if (!text) return EXECUTION_TOASTS.noOutput;
  return text.length > OUTPUT_PREVIEW_LENGTH ? `${text.slice(0, OUTPUT_PREVIEW_LENGTH - 1).trimEnd()}…` : text;
}

/** The spec's sentence with the server's reason (a 'Lua syntax error: L:C: …', say) in parentheses. */
export function failureDescription(
  reason: string | null | undefined,
  sentence: string = EXECUTION_TOASTS.failed,
): string {
  return reason ? `${sentence} (${reason})` : sentence;
}

/**
 * A game run whose result has not come back within the call's wait: the game has the script, and
 * the result arrives later (an `execution:result` event). The server answers it in the spec's queued
 * shape (success and queued true) plus `pending`. A game run that did come back in time is also
 * `queued` (it went through the game's queue) but carries its result, so `pending` decides, and it
 * is read before `success`.
 */
export const isPending = (result: ExecutionResult) => result.pending === true;

export interface ExecutionOutcome {
  notice: Notice;
  execution: Execution;
}

/**
 * An answer of the execute calls (HTTP 200). In order: no game connected, sent to the game with the
 * result still to come, a failed run (a sandbox error is the script's own, so it is shown as it
 * is), a successful run.
 */
export function executionOutcome(result: ExecutionResult, requested?: ExecutionTarget): ExecutionOutcome {
  const target = result.target ?? requested;
  const ran = {
    target,
    durationMs: result.durationMs,
    limit: result.limit ?? undefined,
    dryRun: result.dryRun ?? undefined,
    hint: result.hint,
  };

  if (result.gameConnected === false) {
    const error = result.error || ERRORS.gameNotConnected;
    return {
      notice: {
        type: 'error',
        title: EXECUTION_TOASTS.notConnectedTitle,
        description: result.instructions || EXECUTION_TOASTS.notConnected,
      },
      execution: {
        status: 'error',
        target: target ?? 'game',
        error: result.instructions ? `${error}\n${result.instructions}` : error,
      },
    };
  }

  // A cloud run is always answered pending: Roblox has yet to take it. Its pane follows it live.
  if (isPending(result) && target === 'cloud') {
    return {
      notice: { type: 'info', ...CLOUD_RUN_TEXT.queued },
      execution: { status: 'queued', target },
    };
  }

  if (isPending(result)) {
    return {
      notice: { type: 'info', ...EXECUTION_TOASTS.queued },
      execution: { status: 'queued', target: target ?? 'game', output: EXECUTION_TOASTS.queued.description },
    };
  }

  if (result.success === false) {
    const error = result.error || undefined;
    return {
      notice: {
        type: 'error',
        title: EXECUTION_TOASTS.failedTitle,
        description:
          target === 'sandbox' || target === 'dry-run' ? (error ?? EXECUTION_TOASTS.failed) : failureDescription(error),
      },
      execution: { status: 'error', ...ran, output: result.output, error },
    };
  }

  return {
    notice: { title: EXECUTION_TOASTS.executed, description: outputPreview(result.output) },
    execution: { status: 'success', ...ran, output: result.output, error: result.error || undefined },
  };
}

/** The call itself failed (a 400 syntax error, 404, 503, the network): the server's reason when it gave one. */
export function executionFailure(error: unknown, target?: ExecutionTarget): ExecutionOutcome {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  return {
    notice: { type: 'error', title: EXECUTION_TOASTS.failedTitle, description: failureDescription(reason) },
    execution: { status: 'error', target, error: reason ?? 'Failed to execute script' },
  };
}

/** The outcome with the recorded run it reports, so the output pane can link to it. */
export const withRunLink = (outcome: ExecutionOutcome, result: ExecutionResult): ExecutionOutcome =>
  result.executionId ? { ...outcome, execution: { ...outcome.execution, executionId: result.executionId } } : outcome;
