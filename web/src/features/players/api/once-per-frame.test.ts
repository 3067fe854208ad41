import { describe, expect, it, vi } from 'vitest';
import { oncePerFrame, type FrameClock } from './once-per-frame.ts';

/** Frames the test paints by hand. */
function handFrames() {
  const waiting = new Map<number, () => void>();
  let next = 1;
  const clock: FrameClock = {
    requestAnimationFrame: (run) => {
      waiting.set(next, run);
      return next++;
    },
    cancelAnimationFrame: (frame) => void waiting.delete(frame),
  };
  const paint = () => {
    const runs = [...waiting.values()];
    waiting.clear();
    for (const run of runs) run();
  };
  return { clock, paint, waiting };
}

describe('oncePerFrame', () => {
  it('runs once per frame however many requests came before it', () => {
    const frames = handFrames();
    const run = vi.fn();
    const batch = oncePerFrame(run, frames.clock);
    for (let i = 0; i < 100; i++) batch.request();
    expect(frames.waiting.size).toBe(1);
    expect(run).not.toHaveBeenCalled();
    frames.paint();
    expect(run).toHaveBeenCalledTimes(1);

    // A request after that frame waits for the next one.
    batch.request();
    batch.request();
    expect(run).toHaveBeenCalledTimes(1);
    frames.paint();
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('runs nothing once stopped', () => {
    const frames = handFrames();
    const run = vi.fn();
    const batch = oncePerFrame(run, frames.clock);
    batch.request();
    batch.stop();
    frames.paint();
    expect(frames.waiting.size).toBe(0);
    expect(run).not.toHaveBeenCalled();
  });
});
