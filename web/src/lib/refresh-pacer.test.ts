import { describe, expect, it } from 'vitest';
import { createRefreshPacer, type PacerClock } from './refresh-pacer.ts';

/** A clock that moves only when told to, running the timers that come due. */
function manualClock() {
  let time = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: PacerClock = {
    now: () => time,
    setTimeout: (run, ms) => {
      const id = nextId++;
      timers.push({ at: time + ms, run, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((timer) => timer.id !== id);
    },
  };
  const advance = (ms: number) => {
    time += ms;
    for (const timer of timers.filter((t) => t.at <= time)) {
      timers = timers.filter((t) => t !== timer);
      timer.run();
    }
  };
  return { clock, advance, pending: () => timers.length };
}

describe('refresh pacer', () => {
  it('refreshes at once after a quiet spell, folds a burst into one refresh once the gap has passed', () => {
    const { clock, advance } = manualClock();
    let refreshes = 0;
    const pacer = createRefreshPacer(
      () => (refreshes += 1),
      () => 1_000,
      clock,
    );
    pacer.changed();
    expect(refreshes).toBe(1);
    for (let i = 0; i < 50; i += 1) {
      advance(10);
      pacer.changed();
    }
    expect(refreshes).toBe(1);
    advance(499);
    expect(refreshes).toBe(1);
    advance(1);
    expect(refreshes).toBe(2);
    // Quiet for longer than the gap: the next change refreshes at once again.
    advance(5_000);
    pacer.changed();
    expect(refreshes).toBe(3);
  });

  it('asks for the gap each time, so a costlier refresh (more pages loaded) comes less often', () => {
    const { clock, advance } = manualClock();
    let pages = 1;
    const times: number[] = [];
    const pacer = createRefreshPacer(
      () => times.push(clock.now()),
      () => pages * 500,
      clock,
    );
    for (let ms = 0; ms < 10_000; ms += 100) {
      if (ms === 5_000) pages = 8;
      pacer.changed();
      advance(100);
    }
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(gaps.filter((gap, i) => times[i]! < 5_000).every((gap) => gap === 500)).toBe(true);
    expect(gaps.at(-1)).toBe(4_000);
  });

  it('a stopped pacer runs nothing left waiting', () => {
    const { clock, advance, pending } = manualClock();
    let refreshes = 0;
    const pacer = createRefreshPacer(
      () => (refreshes += 1),
      () => 1_000,
      clock,
    );
    pacer.changed();
    pacer.changed();
    expect(pending()).toBe(1);
    pacer.stop();
    advance(2_000);
    expect(refreshes).toBe(1);
  });
});
