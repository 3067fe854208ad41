/**
 * Collects what arrives between two frames and hands it over once, at the next animation frame: a
 * game printing 200 lines a second in 20 socket events then costs the page one update a frame, not
 * 20. A hidden tab gets no animation frames, so a timer hands the items over there instead (the
 * browser slows it down, but the lines still reach the view and its limits). When `limit` weight
 * waits, it goes over at once rather than piling up while frames are slow to come.
 */

/** How long items may wait for a frame before a timer hands them over (a hidden tab has none). */
export const FRAME_BATCH_FALLBACK_MS = 500;

export interface FrameBatch<T> {
  push(item: T): void;
  /** Hands over what waits now, if anything. */
  flush(): void;
  /** Forgets what waits and any frame or timer asked for. */
  cancel(): void;
}

export function createFrameBatch<T>(
  deliver: (items: T[]) => void,
  limit = Number.POSITIVE_INFINITY,
  weigh: (item: T) => number = () => 1,
): FrameBatch<T> {
  let items: T[] = [];
  let weight = 0;
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const unschedule = () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
  };

  const flush = () => {
    unschedule();
    if (items.length === 0) return;
    const due = items;
    items = [];
    weight = 0;
    deliver(due);
  };

  return {
    push(item) {
      items.push(item);
      weight += weigh(item);
      if (weight >= limit) {
        flush();
        return;
      }
      if (frame === null) frame = requestAnimationFrame(flush);
      if (timer === null) timer = setTimeout(flush, FRAME_BATCH_FALLBACK_MS);
    },
    flush,
    cancel() {
      unschedule();
      items = [];
      weight = 0;
    },
  };
}
