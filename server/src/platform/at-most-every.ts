/**
 * Runs `work(key)` for the callers of one key at most once every `minGapMs`: a call when that key's
 * last run began longer ago runs on the next turn of the event loop, and the calls within the gap
 * share one run at its end. Every run begins after each of its callers asked (so it sees what they
 * stored before asking), and each of them gets its outcome. For work that many callers ask for at
 * once and that looks at everything each time: a restart storm connects thousands of one owner's
 * game servers a second, and each connect asks for the same look at the owner's waiting bans.
 */
export function atMostEvery<K, T>(minGapMs: number, work: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const waiting = new Map<K, Promise<T>>();
  /** When each key's last run began, kept for minGapMs. */
  const lastRun = new Map<K, number>();
  return (key) => {
    const queued = waiting.get(key);
    if (queued) return queued;
    const waitMs = Math.max(0, (lastRun.get(key) ?? -Infinity) + minGapMs - Date.now());
    const run = new Promise<void>((resolve) => {
      if (waitMs > 0) setTimeout(resolve, waitMs).unref();
      else setImmediate(resolve);
    }).then(() => {
      waiting.delete(key);
      const beganAt = Date.now();
      lastRun.set(key, beganAt);
      setTimeout(() => {
        if (lastRun.get(key) === beganAt) lastRun.delete(key);
      }, minGapMs).unref();
      return work(key);
    });
    waiting.set(key, run);
    return run;
  };
}
