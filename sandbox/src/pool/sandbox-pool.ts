import type { SandboxJob } from '../sandbox/sandbox-thread.ts';
import type { SandboxResult } from '../sandbox/run-lua.ts';
import { createWorkerPool, type WorkerPool } from './worker-pool.ts';

/**
 * The sandbox on the worker pool. The thread enforces the soft limits (memory, instructions,
 * output, the 3 s deadline checked by the instruction hook); the pool enforces the hard deadline:
 * 3 s plus a 500 ms margin (the message to the thread, a warm-up loop still finishing), counted
 * from when the run reaches a thread that has loaded the sandbox, after which the thread is
 * terminated — the only way to stop a pattern match stuck inside C. A thread that hit any limit is
 * replaced; loading its successor is never counted in the next run's time.
 * Only types are imported from the sandbox, so the server's main thread never loads the Lua WASM.
 */
export const SANDBOX_DEADLINE_MS = 3000;
const HARD_DEADLINE_MARGIN_MS = 500;

export type SandboxPool = WorkerPool<SandboxJob, SandboxResult>;

export function createSandboxPool(
  options: { size?: number; maxQueue?: number; deadlineMs?: number } = {},
): SandboxPool {
  const deadlineMs = options.deadlineMs ?? SANDBOX_DEADLINE_MS;
  return createWorkerPool<SandboxJob, SandboxResult>({
    entry: new URL('../sandbox/sandbox-thread.mjs', import.meta.url),
    size: options.size,
    maxQueue: options.maxQueue,
    deadlineMs: deadlineMs + HARD_DEADLINE_MARGIN_MS,
    onDeadline: (elapsedMs) => ({
      success: false,
      output: '',
      error: `Time limit exceeded (${deadlineMs / 1000} s): the script was stopped`,
      returns: [],
      limit: 'deadline',
      durationMs: elapsedMs,
    }),
    retireAfter: (result) => result.limit !== null,
  });
}
