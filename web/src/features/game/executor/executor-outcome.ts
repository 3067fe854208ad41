import { ApiError } from '../../../lib/api-client.ts';
import {
  EXECUTION_TOASTS,
  executionOutcome,
  failureDescription,
  isPending,
  type ExecutionOutcome,
  type ExecutionResult,
} from '../../../lib/execution-result.ts';

/**
 * What a run from the script executor means for the user (spec sections 4 and 8). The executor
 * words some outcomes its own way; the rest (not connected, a plain success) it says as every
 * other screen does, through lib/execution-result.
 */

/** What ran: a saved script from the list, or the Quick Test code. */
export type RunKind = 'script' | 'code';

export const EXECUTOR_TEXT = {
  running: { script: 'Executing script...', code: 'Executing custom code...' },
  failedOutput: { script: 'Failed to execute script', code: 'Failed to execute custom code' },
  failed: {
    script: 'Failed to execute the script. Please try again.',
    code: 'Failed to execute the custom code. Please try again.',
  },
  sent: { title: 'Script Sent', description: 'Script queued for execution' },
  connected: { title: 'Connected!', description: 'Script executed successfully and connection established.' },
  connectionEstablished: 'Connection established successfully!',
} as const;

/** The connected success rule: a successful run whose output mentions "connected", in any case. */
export const confirmsConnection = (output: string | undefined) => /connected/i.test(output ?? '');

export function executorOutcome(result: ExecutionResult, kind: RunKind): ExecutionOutcome {
  if (result.gameConnected === false) return executionOutcome(result, 'game');

  if (isPending(result)) {
    return {
      notice: { type: 'info', ...EXECUTOR_TEXT.sent },
      execution: { status: 'queued', target: 'game', output: EXECUTOR_TEXT.sent.description },
    };
  }

  if (result.success === false) {
    const error = result.error || undefined;
    return {
      notice: {
        type: 'error',
        title: EXECUTION_TOASTS.failedTitle,
        description: failureDescription(error, EXECUTOR_TEXT.failed[kind]),
      },
      execution: { status: 'error', target: 'game', output: result.output, error, durationMs: result.durationMs },
    };
  }

  const outcome = executionOutcome(result, 'game');
  if (!confirmsConnection(result.output)) return outcome;
  return { ...outcome, notice: { ...EXECUTOR_TEXT.connected } };
}

/**
 * The call itself failed (a 400 syntax error, 429, the network): the pane says what failed, with the
 * server's reason under it when it gave one.
 */
export function executorFailure(error: unknown, kind: RunKind): ExecutionOutcome {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  return {
    notice: {
      type: 'error',
      title: EXECUTION_TOASTS.failedTitle,
      description: failureDescription(reason, EXECUTOR_TEXT.failed[kind]),
    },
    execution: { status: 'error', target: 'game', output: EXECUTOR_TEXT.failedOutput[kind], error: reason },
  };
}
