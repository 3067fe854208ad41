import { describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import type { CounterState, WindowCounter } from '../../platform/rate-limits.ts';
import { createTwoFactorService } from './two-factor.service.ts';

/** A fixed-window counter whose window ends when the test says so (`windowEnds`), not on a clock. */
function steppedCounter(limit: number): WindowCounter & { windowEnds(): void } {
  const counts = new Map<string, number>();
  const state = (count: number): CounterState => ({
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetMs: 1000,
  });
  return {
    async hit(key) {
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return state(count);
    },
    async peek(key) {
      return state(counts.get(key) ?? 0);
    },
    async reset(key) {
      counts.delete(key);
    },
    windowEnds() {
      counts.clear();
    },
  };
}

const SHORT = 5;

function service() {
  const attempts = steppedCounter(SHORT);
  const dailyAttempts = steppedCounter(SHORT * 4);
  const twoFactor = createTwoFactorService({
    // The counting under test touches neither the database nor the sealed secrets.
    db: undefined as never,
    box: undefined as never,
    audit: undefined as never,
    attempts,
    dailyAttempts,
    requireForAdmins: false,
    issuer: 'Moonrelay',
  });
  /** Guesses until refused; answers how many were let through. */
  const guessUntilRefused = async (userId: string) => {
    for (let allowed = 0; ; allowed += 1) {
      try {
        await twoFactor.spendProofAttempt(userId);
      } catch (error) {
        // The counters' windows end 1000 ms on: the message says when, as Retry-After does.
        expect(error).toMatchObject({
          status: 429,
          message: ERRORS.tooManyLoginAttempts(1),
          details: { headers: { 'Retry-After': '1' } },
        });
        return allowed;
      }
    }
  };
  return { twoFactor, attempts, dailyAttempts, guessUntilRefused };
}

describe("an account's proof guesses", () => {
  it('are refused past the short budget until its window ends, and past four of those until the day ends', async () => {
    const { attempts, dailyAttempts, guessUntilRefused } = service();
    const allowedPerWindow: number[] = [];
    for (let window = 0; window < 6; window++) {
      allowedPerWindow.push(await guessUntilRefused('u1'));
      attempts.windowEnds();
    }
    // A steady guesser gets 5 a window for four windows, then nothing more that day ...
    expect(allowedPerWindow).toEqual([5, 5, 5, 5, 0, 0]);
    // ... and when the day's window ends, the short budget again.
    dailyAttempts.windowEnds();
    expect(await guessUntilRefused('u1')).toBe(SHORT);
    // Another account is counted apart.
    expect(await guessUntilRefused('u2')).toBe(SHORT);
  });

  it('start from nothing again after a proof succeeds, in both windows', async () => {
    const { twoFactor, attempts, guessUntilRefused } = service();
    for (let window = 0; window < 3; window++) {
      await guessUntilRefused('u1');
      attempts.windowEnds();
    }
    await twoFactor.clearProofAttempts('u1');
    const allowed: number[] = [];
    for (let window = 0; window < 4; window++) {
      allowed.push(await guessUntilRefused('u1'));
      attempts.windowEnds();
    }
    expect(allowed).toEqual([5, 5, 5, 5]);
  });
});
