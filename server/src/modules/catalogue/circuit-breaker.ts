/**
 * A circuit breaker for one upstream (the script catalogue). Closed, calls go through; after
 * `failureThreshold` failures in a row (timeouts, refused connections, 5xx: what says the upstream
 * is down, never a 404) it opens, and for `coolDownMs` no call is made. Then it is half-open: one
 * call, the probe, is let through while the others are still refused; a probe that succeeds closes
 * it, one that fails opens it again for another cool-down.
 *
 * With a shared store (Redis, in the scale-out mode) an instance that opens the breaker opens it
 * for every instance: the others see "open for N ms" before calling and adopt it, so each then
 * sends at most one probe when the cool-down ends. Failures are counted per instance. Should the
 * store fail, the instance goes on with its own state and the failure is reported.
 */

export interface SharedBreakerStore {
  /** Opens the breaker for every instance for `ms`; a longer opening already running is kept. */
  open(ms: number): Promise<void>;
  /** How long the breaker stays open, 0 when it is not. */
  openFor(): Promise<number>;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/** What a call that was let through reports back when it ends. */
export type CallOutcome = 'success' | 'failure' | 'neutral';

export type Admission =
  { allowed: true; probe: boolean; settle(outcome: CallOutcome): void } | { allowed: false; retryAfterMs: number };

export interface BreakerOptions {
  failureThreshold: number;
  coolDownMs: number;
  now?: () => number;
  shared?: { store: SharedBreakerStore; onError(error: unknown): void };
  /** Told once per change of state, so an operator reads one line when the upstream goes away and one when it is back. */
  onStateChange?: (state: BreakerState, detail: { failures: number; openForMs: number }) => void;
}

export function createCircuitBreaker(options: BreakerOptions) {
  const now = options.now ?? Date.now;
  let state: BreakerState = 'closed';
  let failures = 0;
  let openUntil = 0;
  let probing = false;

  const moveTo = (next: BreakerState) => {
    if (next === state) return;
    state = next;
    options.onStateChange?.(next, { failures, openForMs: Math.max(0, openUntil - now()) });
  };

  function open(ms: number, share: boolean) {
    openUntil = Math.max(openUntil, now() + ms);
    probing = false;
    moveTo('open');
    if (share && options.shared) {
      const { store, onError } = options.shared;
      store.open(ms).catch(onError);
    }
  }

  /** Another instance opened the breaker: this one follows, without counting its own failures. */
  async function adoptShared(): Promise<void> {
    if (!options.shared) return;
    try {
      const ms = await options.shared.store.openFor();
      if (ms > 0) open(ms, false);
    } catch (error) {
      options.shared.onError(error);
    }
  }

  function settle(probe: boolean, outcome: CallOutcome) {
    if (probe) probing = false;
    if (outcome === 'success') {
      failures = 0;
      moveTo('closed');
    } else if (outcome === 'failure') {
      failures += 1;
      if (probe || (state === 'closed' && failures >= options.failureThreshold)) open(options.coolDownMs, true);
    }
    // 'neutral' (a 404, a 429, a call refused before it was sent): the upstream's health is unknown.
  }

  return {
    /** Whether a call may go now; a call let through must `settle` exactly once. */
    async admit(): Promise<Admission> {
      if (state === 'closed') await adoptShared();
      if (state === 'open') {
        if (now() < openUntil) return { allowed: false, retryAfterMs: openUntil - now() };
        moveTo('half-open');
      }
      if (state === 'half-open') {
        // The probe's answer decides; until it comes, ask again in a second.
        if (probing) return { allowed: false, retryAfterMs: 1_000 };
        probing = true;
      }
      const probe = state === 'half-open';
      let settled = false;
      return {
        allowed: true,
        probe,
        settle(outcome) {
          if (settled) return;
          settled = true;
          settle(probe, outcome);
        },
      };
    },
    state: (): BreakerState => (state === 'open' && now() >= openUntil ? 'half-open' : state),
  };
}

export type CircuitBreaker = ReturnType<typeof createCircuitBreaker>;
