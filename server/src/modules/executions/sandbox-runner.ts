import { PoolBusyError, PoolClosedError } from '@moonrelay/worker/pool/worker-pool';
import type { SandboxPool } from '@moonrelay/worker/pool/sandbox-pool';
import { AppError } from '../../http/app-error.ts';
import type { SandboxRunner } from './executions.service.ts';

/** The sandbox pool as the execution service uses it: a full pool answers 503, never a pile-up. */
export function sandboxRunner(pool: SandboxPool): SandboxRunner {
  return {
    async run(userId, code) {
      try {
        return await pool.run(userId, { code });
      } catch (error) {
        if (error instanceof PoolBusyError || error instanceof PoolClosedError) {
          throw new AppError(503, error.message, { headers: { 'Retry-After': '1' } });
        }
        throw error;
      }
    },
  };
}
