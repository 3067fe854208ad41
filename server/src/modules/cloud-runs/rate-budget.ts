import type { CloudAnswer } from '../open-cloud/roblox-open-cloud.ts';
import { backoffMs } from '../open-cloud/pacing.ts';

/** Roblox limits each Luau Execution endpoint on its own, per key owner. */
export type CloudEndpoint = 'create' | 'read' | 'logs';

/**
 * How many more calls an owner may make to each endpoint, as Roblox's last answer said
 * (`x-ratelimit-remaining`, `x-ratelimit-reset`) or its 429 (`Retry-After`). No figure is assumed:
 * before Roblox has said anything, calls go one at a time (the follower makes them in turn) and
 * the first answer tells the budget. A process that takes an owner over starts afresh and learns the
 * same way; a 429 is the backstop.
 */
export function createRateBudgets(options: { now: () => number; retryBaseMs: number }) {
  const budgets = new Map<string, { remaining: number; resetAt: number; refusals: number }>();
  const keyOf = (ownerId: string, endpoint: CloudEndpoint) => `${ownerId}\n${endpoint}`;

  return {
    /** The time (ms) the next call may go out: now, or when the window resets. */
    nextAllowed(ownerId: string, endpoint: CloudEndpoint): number {
      const now = options.now();
      const budget = budgets.get(keyOf(ownerId, endpoint));
      if (!budget || budget.remaining > 0 || now >= budget.resetAt) return now;
      return budget.resetAt;
    },

    /** Spends one call (before the answer says how many are left). */
    spend(ownerId: string, endpoint: CloudEndpoint): void {
      const budget = budgets.get(keyOf(ownerId, endpoint));
      if (budget && budget.remaining > 0) budget.remaining -= 1;
    },

    /** What Roblox's answer says of the budget. */
    note(ownerId: string, endpoint: CloudEndpoint, answer: CloudAnswer): void {
      const key = keyOf(ownerId, endpoint);
      const now = options.now();
      const previous = budgets.get(key);
      if (answer.status === 429) {
        const refusals = (previous?.refusals ?? 0) + 1;
        const waitMs =
          answer.retryAfterMs ??
          (answer.rateLimit && answer.rateLimit.resetMs > 0 ? answer.rateLimit.resetMs : undefined) ??
          backoffMs(options.retryBaseMs, refusals);
        budgets.set(key, { remaining: 0, resetAt: now + waitMs, refusals });
        return;
      }
      if (answer.rateLimit) {
        budgets.set(key, {
          remaining: answer.rateLimit.remaining,
          resetAt: now + answer.rateLimit.resetMs,
          refusals: 0,
        });
      } else if (previous) previous.refusals = 0;
    },

    forget(ownerId: string): void {
      for (const endpoint of ['create', 'read', 'logs'] as const) budgets.delete(keyOf(ownerId, endpoint));
    },
  };
}

export type RateBudgets = ReturnType<typeof createRateBudgets>;
