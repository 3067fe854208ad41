import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Runs `work(key)` once for every caller with that key in the same turn of the event loop: the run
 * starts after the turn's I/O (so after every caller asked, and it sees what they stored), and each
 * of them gets its outcome. A call made while a run is under way gets the next run. A restart storm
 * reads thousands of requests in one turn, each of which may ask for the same per-user work.
 */
export function oncePerTurn<K, T>(work: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const waiting = new Map<K, Promise<T>>();
  return (key) => {
    let run = waiting.get(key);
    if (!run) {
      run = nextTurn().then(() => {
        waiting.delete(key);
        return work(key);
      });
      waiting.set(key, run);
    }
    return run;
  };
}
