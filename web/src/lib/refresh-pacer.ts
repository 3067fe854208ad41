/**
 * Spaces refreshes that live events ask for. The first event after a quiet spell refreshes at once;
 * events that come sooner than `gapMs()` after the last refresh are folded into one refresh when
 * the gap has passed. The gap is asked for each time, so it can grow with what a refresh costs (the
 * Players list: one request per page loaded).
 */
export interface RefreshPacer {
  /** A change happened: refresh now, or once the gap since the last refresh has passed. */
  changed(): void;
  /** Forgets a refresh still waiting (the screen went away). */
  stop(): void;
}

export interface PacerClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: PacerClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export function createRefreshPacer(
  refresh: () => void,
  gapMs: () => number,
  clock: PacerClock = realClock,
): RefreshPacer {
  let last = Number.NEGATIVE_INFINITY;
  let waiting: unknown = null;
  const run = () => {
    waiting = null;
    last = clock.now();
    refresh();
  };
  return {
    changed() {
      if (waiting !== null) return;
      const due = last + gapMs() - clock.now();
      if (due <= 0) run();
      else waiting = clock.setTimeout(run, due);
    },
    stop() {
      if (waiting !== null) clock.clearTimeout(waiting);
      waiting = null;
    },
  };
}
