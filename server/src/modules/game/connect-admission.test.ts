import { describe, expect, it } from 'vitest';
import { createConnectAdmission, createOverloadGauge, type LoopSample } from './connect-admission.ts';

// Readings every 250 ms: a loop late by 200 ms in each is behind (the limit here is 100 ms).
const BEHIND: Omit<LoopSample, 'atMs'> = { lagMs: 200 };
const KEEPING_UP: Omit<LoopSample, 'atMs'> = { lagMs: 5 };

/** A gauge refusing after 5 s behind, held 1 s (the defaults), late past 100 ms counted behind, started at 0. */
function gauge() {
  const g = createOverloadGauge({ maxLagMs: 100, startMs: 0 });
  /** Readings every 250 ms from `fromMs` up to and including `toMs`. */
  const feed = (fromMs: number, toMs: number, reading: Omit<LoopSample, 'atMs'>) => {
    for (let at = fromMs; at <= toMs; at += 250) g.observe({ atMs: at, ...reading });
  };
  return { ...g, feed };
}

describe('connect admission: refusing new game servers in real overload only', () => {
  it('takes a restart storm whole: behind for 4.75 s, then keeping up, never refuses', () => {
    const g = gauge();
    g.feed(250, 4_750, BEHIND);
    expect(g.busyAt(4_750)).toBe(false);
    g.feed(5_000, 8_000, KEEPING_UP);
    for (let at = 0; at <= 9_000; at += 100) expect(g.busyAt(at)).toBe(false);
  });

  it('refuses once the loop has been behind for 5 s without a break, and for 1 s after the last such reading', () => {
    const g = gauge();
    g.feed(250, 4_750, BEHIND);
    expect(g.busyAt(4_750)).toBe(false);
    g.feed(5_000, 5_000, BEHIND);
    expect(g.busyAt(5_000)).toBe(true);
    g.feed(5_250, 7_000, BEHIND);
    expect(g.busyAt(7_000)).toBe(true);
    g.feed(7_250, 7_250, KEEPING_UP);
    expect(g.busyAt(7_999)).toBe(true);
    expect(g.busyAt(8_000)).toBe(false);
    // Behind again: a fresh 5 s before refusing again.
    g.feed(7_500, 12_000, BEHIND);
    expect(g.busyAt(12_000)).toBe(false);
    g.feed(12_250, 12_500, BEHIND);
    expect(g.busyAt(12_500)).toBe(true);
  });

  it('a reading that keeps up starts the count again', () => {
    const g = gauge();
    g.feed(250, 3_000, BEHIND);
    g.feed(3_250, 3_250, KEEPING_UP);
    g.feed(3_500, 8_000, BEHIND);
    expect(g.busyAt(8_000)).toBe(false);
    g.feed(8_250, 8_500, BEHIND);
    expect(g.busyAt(8_500)).toBe(true);
  });

  it('one reading late by longer than 5 s (a loop stalled that long) is overload at once', () => {
    const g = gauge();
    g.feed(250, 1_000, KEEPING_UP);
    g.observe({ atMs: 7_000, lagMs: 5_900 });
    expect(g.busyAt(7_000)).toBe(true);
  });

  it('a stall reaching further back than the readings already behind counts from its start', () => {
    const g = gauge();
    g.feed(250, 2_000, KEEPING_UP);
    g.feed(2_250, 3_000, BEHIND);
    g.observe({ atMs: 3_100, lagMs: 2_200 }); // Behind since 900 at least, not since 2,000.
    expect(g.busyAt(3_100)).toBe(false);
    g.observe({ atMs: 6_000, lagMs: 5_500 }); // Stalled since 500.
    expect(g.busyAt(6_000)).toBe(true);
  });

  it('counts a reading behind when the loop was late past the limit, not otherwise', () => {
    for (const [lagMs, behind] of [
      [101, true],
      [100, false],
      [0, false],
    ] as const) {
      const g = gauge();
      g.feed(250, 5_250, { lagMs });
      expect(g.busyAt(5_250), `late by ${lagMs} ms`).toBe(behind);
    }
  });

  it('never refuses with shedding turned off (GAME_SHED_LAG_MS 0): nothing is measured', () => {
    const admission = createConnectAdmission({ maxLagMs: 0 });
    try {
      expect(admission.busy).toBe(false);
      const now = Date.now();
      for (let at = now - 6_000; at <= now; at += 250) admission.observe({ atMs: at, ...BEHIND });
      expect(admission.busy).toBe(false);
    } finally {
      admission.close();
    }
  });
});
