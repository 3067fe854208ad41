/**
 * Each account may store this many console lines a minute (CONSOLE_LINES_PER_USER_PER_MINUTE),
 * counted by each server instance for the pings it answers: the cost it guards is this instance's
 * CPU and its share of the database's writes, and a shared counter would add a Redis round trip to
 * every ping that carries lines. Lines past the budget are dropped (the newest kept) and counted,
 * never refused: the ping itself always succeeds. Windows are fixed minutes per user; a user's
 * entry is forgotten once its minute is over.
 */
export function createConsoleBudget(linesPerMinute: number, now: () => number = Date.now) {
  const windows = new Map<string, { startMs: number; used: number }>();
  let lastSweepMs = now();

  function forget(nowMs: number): void {
    if (nowMs - lastSweepMs < 60_000) return;
    lastSweepMs = nowMs;
    for (const [userId, window] of windows) if (nowMs - window.startMs >= 60_000) windows.delete(userId);
  }

  return {
    /** How many of `count` lines the user may still store this minute (and counts them spent). */
    take(userId: string, count: number): number {
      const nowMs = now();
      forget(nowMs);
      let window = windows.get(userId);
      if (!window || nowMs - window.startMs >= 60_000) windows.set(userId, (window = { startMs: nowMs, used: 0 }));
      const granted = Math.max(0, Math.min(count, linesPerMinute - window.used));
      window.used += granted;
      return granted;
    },
  };
}

export type ConsoleBudget = ReturnType<typeof createConsoleBudget>;
