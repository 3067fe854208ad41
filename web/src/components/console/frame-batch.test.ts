import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFrameBatch, FRAME_BATCH_FALLBACK_MS } from './frame-batch.ts';
import { manualFrames } from './test-frames.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a frame batch', () => {
  it('hands over everything pushed before a frame once, at that frame', () => {
    const frames = manualFrames();
    const deliver = vi.fn();
    const batch = createFrameBatch<number>(deliver);
    for (let i = 0; i < 200; i += 1) batch.push(i);
    expect(deliver).not.toHaveBeenCalled();
    expect(frames.pending()).toBe(1);
    frames.runFrame();
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(deliver.mock.calls[0]?.[0]).toHaveLength(200);
    // Nothing waits, so no frame is asked for until something comes.
    expect(frames.pending()).toBe(0);
    batch.push(200);
    frames.runFrame();
    expect(deliver).toHaveBeenLastCalledWith([200]);
  });

  it('hands over by timer where no frame comes (a hidden tab), once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    manualFrames();
    const deliver = vi.fn();
    const batch = createFrameBatch<string>(deliver);
    batch.push('a');
    batch.push('b');
    vi.advanceTimersByTime(FRAME_BATCH_FALLBACK_MS - 1);
    expect(deliver).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(deliver).toHaveBeenCalledExactlyOnceWith(['a', 'b']);
  });

  it('hands over at once when the limit waits, and forgets what waits when cancelled', () => {
    const frames = manualFrames();
    const deliver = vi.fn();
    const batch = createFrameBatch<number[]>(deliver, 100, (lines) => lines.length);
    batch.push(Array(60).fill(0));
    expect(deliver).not.toHaveBeenCalled();
    batch.push(Array(40).fill(0));
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(frames.pending()).toBe(0);

    batch.push([1]);
    batch.cancel();
    frames.runFrame();
    expect(deliver).toHaveBeenCalledTimes(1);
  });
});
