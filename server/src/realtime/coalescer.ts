/**
 * Throttles emissions per key: what is added for a key is merged into one state, emitted at once if
 * nothing was emitted for that key within `intervalMs`, else when the interval since the last
 * emission is over. So a lone change is seen without delay and a flood becomes one emission per
 * interval. A key's entry is dropped one quiet interval after its last emission.
 */
export function createCoalescer<K, S>(options: {
  intervalMs: number;
  create: () => S;
  emit: (key: K, state: S) => void;
  onError: (error: unknown) => void;
}) {
  interface Entry {
    state: S | undefined;
    timer: ReturnType<typeof setTimeout> | undefined;
    lastEmittedMs: number;
  }
  const entries = new Map<K, Entry>();

  function fire(key: K, entry: Entry): void {
    entry.timer = undefined;
    const state = entry.state;
    if (state === undefined) {
      entries.delete(key);
      return;
    }
    entry.state = undefined;
    entry.lastEmittedMs = Date.now();
    try {
      options.emit(key, state);
    } catch (error) {
      options.onError(error);
    }
    // Keeps the spacing: whatever arrives meanwhile waits for this timer.
    entry.timer = setTimeout(() => fire(key, entry), options.intervalMs);
    entry.timer.unref?.();
  }

  return {
    add(key: K, apply: (state: S) => void): void {
      let entry = entries.get(key);
      if (!entry) entries.set(key, (entry = { state: undefined, timer: undefined, lastEmittedMs: -Infinity }));
      entry.state ??= options.create();
      apply(entry.state);
      if (entry.timer !== undefined) return;
      const target = entry;
      entry.timer = setTimeout(
        () => fire(key, target),
        Math.max(0, entry.lastEmittedMs + options.intervalMs - Date.now()),
      );
      entry.timer.unref?.();
    },
    /** Keys with an entry (waiting or within their quiet interval). */
    get size() {
      return entries.size;
    },
    close(): void {
      for (const entry of entries.values()) clearTimeout(entry.timer);
      entries.clear();
    },
  };
}
