import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_HANDLER_CASES, HOSTILE_CASES } from './hostile-cases.ts';
import { runLua, warmUpSandbox, type SandboxLimits } from './run-lua.ts';
import { runInThread } from './thread-harness.ts';

/**
 * The instruction limit is lowered so the loops end in a fraction of a second, and the soft deadline
 * raised so a busy machine cannot turn an instruction limit into a deadline; the report
 * (cli/sandbox-report.ts) runs the same cases with the default limits.
 */
const TEST_LIMITS: Partial<SandboxLimits> = { instructionLimit: 50_000_000, deadlineMs: 20_000 };
/** The pool's hard deadline, as the hostile C calls meet it. */
const HARD_DEADLINE_MS = 3000;
/** The thread kill behind runs that must end by a sandbox limit, and end long before it. */
const SAFETY_DEADLINE_MS = 15_000;

/** A run that proves the thread's WASM module still works after a hostile one. */
async function expectHealthy(): Promise<void> {
  const result = await runLua(
    'local t = {} for i = 1, 1000 do t[i] = tostring(i) end print(#t) return #table.concat(t)',
  );
  expect(result).toMatchObject({ success: true, output: '1000\n', returns: ['2893'], error: null, limit: null });
}

beforeAll(async () => {
  await warmUpSandbox();
});

describe('hostile scripts stopped by the sandbox', () => {
  for (const hostile of HOSTILE_CASES.filter((c) => c.stoppedBy === 'sandbox' && !ERROR_HANDLER_CASES.includes(c))) {
    it(hostile.name, async () => {
      const result = await runLua(hostile.code, TEST_LIMITS);

      expect(result.limit).toBe(hostile.expect.limit);
      if (hostile.expect.error === null) {
        expect(result.error).toBeNull();
        expect(result.success).toBe(true);
      } else {
        expect(result.success).toBe(false);
        expect(result.error).toMatch(hostile.expect.error);
      }
      if (hostile.expect.returns !== undefined) {
        expect(result.returns).toEqual(hostile.expect.returns);
      }
      if (hostile.expect.output !== undefined) {
        expect(result.output).toMatch(hostile.expect.output);
      }
      await expectHealthy();
    });
  }

  it('ends an infinite loop at the default instruction limit, before the soft deadline', async () => {
    const result = await runLua('while true do end', { deadlineMs: 20_000 });

    // With a 20 s deadline, the instruction budget is what ended it.
    expect(result).toMatchObject({ success: false, limit: 'instructions', error: 'Instruction limit exceeded' });
  });

  it('ends 1e7 prints at the output limit, long before the deadline could', async () => {
    const result = await runLua('for i = 1, 1e7 do print(i) end');

    expect(result.limit).toBe('output');
    expect(Buffer.byteLength(result.output)).toBeLessThan(64 * 1024 + 100);
  });
});

describe('error handlers count against the instruction budget like the rest of the run', () => {
  for (const hostile of ERROR_HANDLER_CASES) {
    it(hostile.name, async () => {
      // In a thread of its own: a handler the sandbox cannot stop meets the thread's termination
      // (a safety net, far above the lowered instruction limit) instead of hanging the suite.
      const run = await runInThread(hostile.code, { limits: TEST_LIMITS, hardDeadlineMs: SAFETY_DEADLINE_MS });

      expect(run.terminated).toBe(false);
      expect(run.result).toMatchObject({ success: false, limit: hostile.expect.limit });
      expect(run.result?.error).toMatch(hostile.expect.error!);
    });
  }
});

describe('hostile scripts inside one C call: only the hard deadline stops them', () => {
  for (const hostile of HOSTILE_CASES.filter((c) => c.stoppedBy === 'hard-deadline')) {
    it(`${hostile.name} is terminated with its thread at ${HARD_DEADLINE_MS} ms`, async () => {
      const run = await runInThread(hostile.code, { hardDeadlineMs: HARD_DEADLINE_MS });

      expect(run.terminated).toBe(true);
      expect(run.result).toBeNull();
      expect(run.elapsedMs).toBeGreaterThanOrEqual(HARD_DEADLINE_MS - 50);
      expect(run.elapsedMs).toBeLessThan(HARD_DEADLINE_MS + 2000);
    });
  }
});
