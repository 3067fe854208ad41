import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxPool, SANDBOX_DEADLINE_MS, type SandboxPool } from './sandbox-pool.ts';

/**
 * The sandbox pool with real sandbox threads: a run's time budget starts when it reaches a thread
 * that has loaded the sandbox, never while a new thread loads (seconds on a busy machine).
 */

let pool: SandboxPool | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await pool?.close();
  pool = undefined;
});

const benign = { code: 'print(type(io), type(os.exit), string.rep("ab", 2))' };

describe('sandbox pool', () => {
  it("gives the next user's run its whole budget on the thread that replaces a hostile run's", async () => {
    pool = createSandboxPool({ size: 1 });
    const hostile = await pool.run('hostile', { code: 'while true do end', limits: { instructionLimit: 1_000_000 } });
    expect(hostile.limit).toBe('instructions');
    expect(pool.stats().threads).toBe(0);
    // The pool's clock is the test's: the whole hard deadline, and more, passes while the
    // replacement thread loads, as when the machine is busy.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const next = pool.run('benign', benign);
    vi.advanceTimersByTime(2 * SANDBOX_DEADLINE_MS);
    expect(await next).toMatchObject({ success: true, output: 'nil nil abab\n', limit: null });
  });

  it('still stops a run at the hard deadline once it is running', async () => {
    pool = createSandboxPool({ size: 1 });
    await pool.run('u1', { code: 'return 1' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // With its soft limits out of reach, only the pool's hard deadline can end this loop.
    const run = pool.run('u1', { code: 'while true do end', limits: { instructionLimit: 1e15, deadlineMs: 1e9 } });
    expect(pool.stats().running).toBe(1);
    vi.advanceTimersByTime(2 * SANDBOX_DEADLINE_MS);
    expect(await run).toMatchObject({ success: false, limit: 'deadline' });
  });
});
