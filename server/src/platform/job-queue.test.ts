import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryJobQueue, type DueJob } from './job-queue.ts';

const at = (text: string) => Date.parse(text);

describe('the in-process job queue: recurring jobs on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(at('2026-03-07T12:00:30Z'));
  });
  afterEach(() => vi.useRealTimers());

  const queueWithRuns = () => {
    const queue = createMemoryJobQueue({ concurrency: 4, onError: (error) => expect.fail(String(error)) });
    const runs: DueJob<{ scheduleId: string }>[] = [];
    queue.register<DueJob<{ scheduleId: string }>>('tick', async (job) => {
      runs.push(job);
    });
    return { queue, runs, dues: () => runs.map((run) => new Date(run.dueMs).toISOString()) };
  };

  it('runs at each due time with one timer, and runs no more once stopped', async () => {
    const { queue, runs, dues } = queueWithRuns();
    await queue.repeat('s1', { everyMs: 60_000 }, 'tick', { scheduleId: 's1' });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(dues()).toEqual(['2026-03-07T12:01:00.000Z', '2026-03-07T12:02:00.000Z', '2026-03-07T12:03:00.000Z']);
    expect(runs[0]!.scheduleId).toBe('s1');
    expect(vi.getTimerCount()).toBe(1);
    await queue.stopRepeating('s1');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toHaveLength(3);
    await queue.close();
  });

  it('setting a job up again replaces its timing: saves in a row never run a due time twice', async () => {
    const { queue, dues } = queueWithRuns();
    await queue.repeat('s1', { everyMs: 60_000 }, 'tick', { scheduleId: 's1' });
    await queue.repeat('s1', { everyMs: 60_000 }, 'tick', { scheduleId: 's1' });
    await queue.repeat('s1', { cron: '*/2 * * * *', timeZone: 'UTC' }, 'tick', { scheduleId: 's1' });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(dues()).toEqual(['2026-03-07T12:02:00.000Z', '2026-03-07T12:04:00.000Z']);
    await queue.close();
  });

  it('follows a cron job across the night the clocks spring forward', async () => {
    const { queue, dues } = queueWithRuns();
    await queue.repeat('s1', { cron: '30 2 * * *', timeZone: 'America/New_York' }, 'tick', { scheduleId: 's1' });
    await vi.advanceTimersByTimeAsync(3 * 24 * 3600_000);
    expect(dues()).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z', '2026-03-10T06:30:00.000Z']);
    await queue.close();
  });

  it('after downtime runs one missed due time at once, not every one it missed', async () => {
    const { queue, dues } = queueWithRuns();
    // Last due an hour ago: sixty minutes were missed.
    await queue.repeat('s1', { everyMs: 60_000 }, 'tick', { scheduleId: 's1' }, { since: at('2026-03-07T11:00:00Z') });
    await vi.advanceTimersByTimeAsync(0);
    expect(dues()).toEqual(['2026-03-07T11:01:00.000Z']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(dues()).toEqual(['2026-03-07T11:01:00.000Z', '2026-03-07T12:01:00.000Z']);
    await queue.close();
  });

  it('a machine that slept through due times runs once when it wakes, not once per time it slept through', async () => {
    const { queue, dues } = queueWithRuns();
    await queue.repeat('s1', { everyMs: 60_000 }, 'tick', { scheduleId: 's1' });
    // The clock jumps ten minutes without the timer firing (a suspended laptop); the timer fires late.
    vi.setSystemTime(at('2026-03-07T12:10:30Z'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(dues()).toEqual(['2026-03-07T12:01:00.000Z']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dues()).toEqual(['2026-03-07T12:01:00.000Z', '2026-03-07T12:12:00.000Z']);
    await queue.close();
  });
});
