import { vi } from 'vitest';

/**
 * Animation frames a test runs by hand: `requestAnimationFrame` only queues, `runFrame()` runs what
 * is queued. Undone by `vi.unstubAllGlobals()`.
 */
export function manualFrames() {
  const queued = new Map<number, FrameRequestCallback>();
  let nextId = 1;
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    const id = nextId++;
    queued.set(id, callback);
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => void queued.delete(id));
  return {
    /** Frames asked for and not yet run. */
    pending: () => queued.size,
    /** Runs the frames asked for so far (not those they ask for in turn). */
    runFrame() {
      const due = [...queued.values()];
      queued.clear();
      const now = performance.now();
      for (const callback of due) callback(now);
    },
  };
}
