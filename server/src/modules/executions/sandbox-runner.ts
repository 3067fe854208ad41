import { PoolBusyError, PoolClosedError } from '@moonrelay/sandbox/pool/worker-pool';
import type { SandboxPool } from '@moonrelay/sandbox/pool/sandbox-pool';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import type { SandboxEnvironment, SandboxOutcome, SandboxRunner } from './executions.service.ts';

/** The sandbox pool as the execution service uses it: a full pool answers 503, never a pile-up. */
export function sandboxRunner(pool: SandboxPool): SandboxRunner {
  return {
    async run(userId, code, environment) {
      try {
        return await pool.run(userId, { code, environment });
      } catch (error) {
        if (error instanceof PoolBusyError || error instanceof PoolClosedError) {
          throw new AppError(503, error.message, { headers: { 'Retry-After': '1' } });
        }
        throw error;
      }
    },
  };
}

export const SANDBOX_RUN_JOB = 'sandbox-run';
/** A queued sandbox run waits this long for a worker: the 3.5 s hard deadline plus queueing. */
const QUEUED_RUN_TIMEOUT_MS = 15_000;

interface SandboxJob {
  userId: string;
  code: string;
  environment?: SandboxEnvironment;
}

/** Worker processes run sandbox jobs on their own pool. */
export function registerSandboxJob(jobs: JobQueue, pool: SandboxPool): void {
  jobs.register<SandboxJob, SandboxOutcome>(SANDBOX_RUN_JOB, (job) =>
    pool.run(job.userId, { code: job.code, environment: job.environment }),
  );
}

/**
 * The scale-out mode's sandbox: the run becomes a job for the worker processes and the call waits
 * for its outcome. No worker, a busy one or a lost job answers 503, like a full local pool.
 */
export function queuedSandboxRunner(jobs: JobQueue): SandboxRunner {
  return {
    async run(userId, code, environment) {
      try {
        return await jobs.request<SandboxJob, SandboxOutcome>(
          SANDBOX_RUN_JOB,
          { userId, code, environment },
          QUEUED_RUN_TIMEOUT_MS,
        );
      } catch {
        throw new AppError(503, 'The Lua sandbox is busy. Please try again in a moment.', {
          headers: { 'Retry-After': '1' },
        });
      }
    },
  };
}
