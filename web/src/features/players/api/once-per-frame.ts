/**
 * Folds calls into one per animation frame: however many live events arrive before the browser next
 * paints, `run` happens once, just before that paint. A hidden tab paints no frames, so it does no
 * work for events until it is looked at again, and then once.
 */
export interface OncePerFrame {
  /** Something changed: `run` before the next frame, unless it is already due then. */
  request(): void;
  /** Forgets a run still due (the screen went away). */
  stop(): void;
}

export interface FrameClock {
  requestAnimationFrame(run: () => void): number;
  cancelAnimationFrame(frame: number): void;
}

// Looked up at each call, not at import, so a test can drive the frames itself.
const browserFrames: FrameClock = {
  requestAnimationFrame: (run) => requestAnimationFrame(run),
  cancelAnimationFrame: (frame) => cancelAnimationFrame(frame),
};

export function oncePerFrame(run: () => void, frames: FrameClock = browserFrames): OncePerFrame {
  let due: number | null = null;
  return {
    request() {
      if (due !== null) return;
      due = frames.requestAnimationFrame(() => {
        due = null;
        run();
      });
    },
    stop() {
      if (due !== null) frames.cancelAnimationFrame(due);
      due = null;
    },
  };
}
