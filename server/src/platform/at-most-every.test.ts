import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atMostEvery } from './at-most-every.ts';

describe('atMostEvery', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A counted piece of work that answers what `state` held when it ran. */
  function counted() {
    const runs: string[] = [];
    const state = { value: 0 };
    const work = async (key: string) => {
      runs.push(key);
      return `${key}:${state.value}`;
    };
    return { runs, state, work };
  }

  it('runs a first call on the next turn, once for every caller of that turn', async () => {
    const { runs, work } = counted();
    const run = atMostEvery(1_000, work);
    const answers = Promise.all([run('a'), run('a'), run('b')]);
    expect(runs).toEqual([]);
    await vi.advanceTimersToNextTimerAsync();
    expect(await answers).toEqual(['a:0', 'a:0', 'b:0']);
    expect(runs).toEqual(['a', 'b']);
  });

  it('gathers the calls within the gap into one run at its end, which sees what they stored', async () => {
    const { runs, state, work } = counted();
    const run = atMostEvery(1_000, work);
    const first = run('owner');
    await vi.advanceTimersToNextTimerAsync();
    expect(await first).toBe('owner:0');

    await vi.advanceTimersByTimeAsync(200);
    state.value = 1;
    const second = run('owner');
    await vi.advanceTimersByTimeAsync(500);
    state.value = 2;
    const third = run('owner');
    expect(runs).toEqual(['owner']); // Not yet: 700 ms since the first run began.
    await vi.advanceTimersByTimeAsync(299);
    expect(runs).toEqual(['owner']);
    await vi.advanceTimersByTimeAsync(1);
    expect(await second).toBe('owner:2');
    expect(await third).toBe('owner:2');
    expect(runs).toEqual(['owner', 'owner']);
  });

  it('runs at once again when the gap has passed without calls', async () => {
    const { runs, work } = counted();
    const run = atMostEvery(1_000, work);
    const first = run('owner');
    await vi.advanceTimersToNextTimerAsync();
    await first;
    await vi.advanceTimersByTimeAsync(1_000);
    const later = run('owner');
    await vi.advanceTimersToNextTimerAsync();
    expect(await later).toBe('owner:0');
    expect(runs).toEqual(['owner', 'owner']);
  });

  it('hands a failure to every caller of that run; the next run goes ahead', async () => {
    let calls = 0;
    const run = atMostEvery(1_000, async () => {
      calls++;
      if (calls === 1) throw new Error('database gone');
      return 'ok';
    });
    const outcomes = Promise.allSettled([run('x'), run('x')]);
    await vi.advanceTimersToNextTimerAsync();
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'rejected']);
    const next = run('x');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await next).toBe('ok');
    expect(calls).toBe(2);
  });
});
