import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWriteBatch } from './write-batch.ts';

describe('write batch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes what arrives within the window together, each caller getting its own answer', async () => {
    const writes: number[][] = [];
    const batch = createWriteBatch<number, string>(
      async (items) => {
        writes.push(items);
        return items.map((item) => `done ${item}`);
      },
      { windowMs: 10 },
    );
    const first = batch.add(1);
    await vi.advanceTimersByTimeAsync(5);
    const second = batch.add(2);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(5);
    expect(await Promise.all([first, second])).toEqual(['done 1', 'done 2']);
    expect(writes).toEqual([[1, 2]]);
    // The next one opens a window of its own.
    const third = batch.add(3);
    await vi.advanceTimersByTimeAsync(10);
    expect(await third).toBe('done 3');
    expect(writes).toEqual([[1, 2], [3]]);
  });

  it('writes a full batch at once, without waiting for the window', async () => {
    const writes: number[][] = [];
    const batch = createWriteBatch<number, number>(
      async (items) => {
        writes.push(items);
        return items;
      },
      { windowMs: 1_000, maxItems: 3 },
    );
    const answers = Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await answers).toEqual([1, 2, 3]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('fails only the item that sinks a batch: the others are written on their own', async () => {
    const batch = createWriteBatch<number, number>(
      async (items) => {
        if (items.includes(13)) throw new Error('unlucky');
        return items.map((item) => item * 2);
      },
      { windowMs: 10 },
    );
    const answers = [batch.add(1), batch.add(13), batch.add(3)].map((answer) =>
      answer.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await vi.advanceTimersByTimeAsync(10);
    expect(await Promise.all(answers)).toEqual([{ value: 2 }, { error: 'unlucky' }, { value: 6 }]);
  });
});
