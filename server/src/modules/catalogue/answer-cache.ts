/**
 * A bounded in-memory cache of upstream answers that remembers when each was stored, so the caller
 * decides what is fresh (under the cache time) and what may still be served stale (under the stale
 * limit) while the upstream fails. Least recently used entries go first once there are more than
 * `maxEntries`, or their weights (characters held) add up to more than `maxWeight`.
 */
export interface CachedAnswer<T> {
  value: T;
  storedAt: number;
  weight: number;
}

export function createAnswerCache<T>(options: { maxEntries: number; maxWeight: number; staleMaxMs: number }) {
  const entries = new Map<string, CachedAnswer<T>>();
  let totalWeight = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalWeight -= entry.weight;
  };

  return {
    /** The entry, if it is within the stale limit (older ones are dropped). */
    get(key: string, now = Date.now()): CachedAnswer<T> | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now - entry.storedAt > options.staleMaxMs) {
        remove(key);
        return undefined;
      }
      // Map order is insertion order: re-inserting marks it most recently used.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },

    set(key: string, value: T, weight: number, now = Date.now()): void {
      remove(key);
      if (weight > options.maxWeight) return;
      entries.set(key, { value, storedAt: now, weight });
      totalWeight += weight;
      while (entries.size > options.maxEntries || totalWeight > options.maxWeight) {
        remove(entries.keys().next().value!);
      }
    },

    delete: remove,

    get size() {
      return entries.size;
    },
  };
}

export type AnswerCache<T> = ReturnType<typeof createAnswerCache<T>>;
