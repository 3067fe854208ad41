import { create } from 'zustand';
import type { ExecutionResponse } from '@moonrelay/contract/executions';
import type { CommandView } from '@moonrelay/contract/game';
import type { ExecutionResult } from '../../../lib/execution-result.ts';

/**
 * What the live socket has told about commands and late execution results, for the screens that
 * wait on them (Game Controls' last command, the executor's pending run). An event may arrive
 * before the call that caused it has answered (a long-polling game takes a command within
 * milliseconds), so events are kept whether or not a screen is waiting yet. Screens only ever wait
 * on recent ones, so only the latest 50 of each kind are kept.
 */
export const LIVE_ENTRIES_KEPT = 50;

export interface LiveResults {
  /** Latest state of each command, by command id. */
  commands: Record<string, CommandView>;
  /** Results that came back after their execute call had answered, by execution id. */
  executions: Record<string, ExecutionResponse>;
}

interface LiveState extends LiveResults {
  commandUpdated(command: CommandView): void;
  executionFinished(execution: ExecutionResponse): void;
  /** Forgets everything (the session ended). */
  clear(): void;
}

/** Adds or replaces `key`, dropping the oldest entries beyond the limit (objects keep insertion order). */
function keepRecent<T>(entries: Record<string, T>, key: string, value: T): Record<string, T> {
  const { [key]: _previous, ...others } = entries;
  const kept = Object.entries(others).slice(-(LIVE_ENTRIES_KEPT - 1));
  return { ...Object.fromEntries(kept), [key]: value };
}

export const useLiveStore = create<LiveState>((set) => ({
  commands: {},
  executions: {},
  commandUpdated: (command) => set((state) => ({ commands: keepRecent(state.commands, command.id, command) })),
  executionFinished: (execution) =>
    set((state) => ({ executions: keepRecent(state.executions, execution.executionId, execution) })),
  clear: () => set({ commands: {}, executions: {} }),
}));

export const isFinished = (command: CommandView) =>
  command.status === 'succeeded' || command.status === 'failed' || command.status === 'expired';

/** Said when the game never took the command (it expired in the queue). */
export const EXPIRED_ERROR = 'The game did not take the command in time';

/** The final update of the command that runs execution `executionId`, once there is one. */
function finishedCommandOf(commands: Record<string, CommandView>, executionId: string): CommandView | undefined {
  return Object.values(commands).find((command) => command.executionId === executionId && isFinished(command));
}

/**
 * The outcome of a pending game run: its `execution:result`, or else what its command's final
 * update says (the same result, reported on the command's own lifecycle). Undefined while it runs.
 */
export function lateResultOf(state: LiveResults, executionId: string): ExecutionResult | undefined {
  const execution = state.executions[executionId];
  if (execution) return execution;
  const command = finishedCommandOf(state.commands, executionId);
  if (!command) return undefined;
  return {
    success: command.status === 'succeeded',
    output: command.output ?? '',
    error: command.error ?? (command.status === 'expired' ? EXPIRED_ERROR : null),
    target: 'game',
    executionId,
    ...(command.durationMs !== null ? { durationMs: command.durationMs } : {}),
    ...(command.serverId ? { serverId: command.serverId } : {}),
  };
}
