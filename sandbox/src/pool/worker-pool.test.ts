import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorkerPool, PoolBusyError, PoolClosedError, type WorkerPool } from './worker-pool.ts';

interface Job {
  kind: 'echo' | 'spin' | 'crash';
  ms?: number;
  value?: unknown;
  limit?: string;
}
interface Result {
  ok: boolean;
  value?: unknown;
  limit: string | null;
  elapsedMs?: number;
}

const entry = new URL('./test-thread.mjs', import.meta.url);
let pool: WorkerPool<Job, Result> | undefined;
const make = (options: Partial<Parameters<typeof createWorkerPool<Job, Result>>[0]> = {}) =>
  (pool = createWorkerPool<Job, Result>({
    entry,
    size: 2,
    deadlineMs: 1000,
    onDeadline: (elapsedMs) => ({ ok: false, limit: 'deadline', elapsedMs }),
    retireAfter: (result) => result.limit !== null,
    ...options,
  }));

afterEach(async () => {
  vi.useRealTimers();
  await pool?.close();
  pool = undefined;
});

/** A thread entry written inline, for threads that misbehave before they are ready. */
const inlineEntry = (source: string) => new URL(`data:text/javascript,${encodeURIComponent(source)}`);

describe('worker pool', () => {
  it('runs jobs on threads and answers their results', async () => {
    const p = make();
    const results = await Promise.all([1, 2, 3, 4].map((value) => p.run('u1', { kind: 'echo', value })));
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4]);
    expect(p.stats().threads).toBeLessThanOrEqual(2);
  });

  it("keeps one user's long jobs from delaying another user's", async () => {
    const p = make({ perUserInFlight: 1 });
    // A ready thread takes the first hog at once.
    await p.run('hog', { kind: 'echo' });
    // Ten 300 ms jobs on two threads: a plain queue would answer the other user after nine of them.
    let hogsDone = 0;
    const hogs = Array.from({ length: 10 }, () =>
      p
        .run('hog', { kind: 'spin', ms: 300 })
        .catch(() => null)
        .finally(() => (hogsDone += 1)),
    );
    await expect.poll(() => p.stats()).toMatchObject({ running: 1, waiting: 9 });
    await p.run('other', { kind: 'echo', value: 'hi' });
    // The other user got the free thread (however slowly it started): a plain queue would have
    // worked off nine hogs first.
    expect(hogsDone).toBeLessThan(5);
    await Promise.all(hogs);
  });

  it('terminates a job at its deadline, replaces the thread, and keeps serving', async () => {
    const p = make({ deadlineMs: 200 });
    // A spin that never ends by itself: only terminating the thread can answer it.
    const result = await p.run('u1', { kind: 'spin', ms: Number.MAX_SAFE_INTEGER });
    expect(result.limit).toBe('deadline');
    expect((await p.run('u1', { kind: 'echo', value: 'after' })).value).toBe('after');
  });

  it('answers PoolBusyError when the queue is full, instead of piling up', async () => {
    const p = make({ size: 1, maxQueue: 2 });
    const running = p.run('u1', { kind: 'spin', ms: 200 });
    const queued = [p.run('u2', { kind: 'echo' }), p.run('u3', { kind: 'echo' })];
    await expect(p.run('u4', { kind: 'echo' })).rejects.toBeInstanceOf(PoolBusyError);
    await Promise.all([running, ...queued]);
  });

  it('rejects the job of a crashed thread and replaces the thread', async () => {
    const p = make();
    await expect(p.run('u1', { kind: 'crash' })).rejects.toThrow('thread crashed');
    expect((await p.run('u1', { kind: 'echo', value: 1 })).value).toBe(1);
  });

  it('retires a thread whose job hit a limit', async () => {
    const p = make({ size: 1 });
    const first = await p.run('u1', { kind: 'echo', limit: 'memory' });
    expect(first.limit).toBe('memory');
    expect(p.stats().threads).toBe(0);
    expect((await p.run('u1', { kind: 'echo', value: 2 })).value).toBe(2);
  });

  it("starts a job's deadline only once its thread is ready, however long the thread takes to start", async () => {
    const p = make({ size: 1 });
    // A job that hit a limit retires its thread: the next job needs a new one.
    expect((await p.run('u1', { kind: 'echo', limit: 'instructions' })).limit).toBe('instructions');
    expect(p.stats().threads).toBe(0);
    // The pool's clock (its timers) is the test's: ten deadlines pass while the new thread is
    // still starting, as on a machine busy enough that starting a thread takes longer than a job may.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const next = p.run('u2', { kind: 'echo', value: 'after' });
    vi.advanceTimersByTime(10 * 1000);
    expect(await next).toMatchObject({ ok: true, value: 'after', limit: null });
  });

  it('rejects the job a thread was started for when the thread fails to start, without starting more', async () => {
    const p = make({ entry: inlineEntry('throw new Error("no start today");') });
    await expect(p.run('u1', { kind: 'echo' })).rejects.toThrow('no start today');
    expect(p.stats()).toMatchObject({ threads: 0, waiting: 0 });
  });

  it('terminates a thread that never says it is ready, and rejects the job it was started for', async () => {
    // Listening keeps this thread alive; it never posts { ready: true }.
    const silent = inlineEntry('import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {});');
    const p = make({ entry: silent, startTimeoutMs: 5000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const job = p.run('u1', { kind: 'echo' });
    // The job waits, unsent, for its thread: no deadline runs yet.
    expect(p.stats()).toMatchObject({ threads: 1, starting: 1, running: 0, waiting: 1 });
    vi.advanceTimersByTime(5000);
    await expect(job).rejects.toThrow('did not start within 5000 ms');
    expect(p.stats()).toMatchObject({ threads: 0, waiting: 0 });
  });

  it('refuses work after close and rejects what was waiting', async () => {
    const p = make({ size: 1 });
    const running = p.run('u1', { kind: 'spin', ms: 100 });
    const waiting = p.run('u2', { kind: 'echo' });
    const refused = [
      expect(running).rejects.toBeInstanceOf(PoolClosedError),
      expect(waiting).rejects.toBeInstanceOf(PoolClosedError),
    ];
    await p.close();
    await Promise.all(refused);
    await expect(p.run('u3', { kind: 'echo' })).rejects.toBeInstanceOf(PoolClosedError);
  });
});
