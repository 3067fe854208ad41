import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A pool of worker threads for CPU-bound jobs (sandboxed Lua runs). Rules, with their defaults:
 * - size: one thread per core (at least 2), created on first use;
 * - fairness: each user has at most `perUserInFlight` jobs running (default: half the threads,
 *   at least 1), and waiting jobs are taken round-robin across users, so ten infinite loops from
 *   one user never make another user's run wait behind them;
 * - a bounded queue: past `maxQueue` waiting jobs a submission fails at once with PoolBusyError
 *   (the API answers 503) instead of piling up;
 * - a hard deadline per job (`deadlineMs`): the thread is terminated (which stops even a regex
 *   stuck inside C code) and replaced, and the job resolves as a deadline result;
 * - a thread that reports it hit a limit, or crashes, is replaced rather than reused.
 * Jobs are plain serialisable messages, so a BullMQ adapter can carry the same ones.
 */

export class PoolBusyError extends Error {
  constructor() {
    super('The sandbox is busy. Please try again in a moment.');
    this.name = 'PoolBusyError';
  }
}

export class PoolClosedError extends Error {
  constructor() {
    super('The sandbox is shutting down.');
    this.name = 'PoolClosedError';
  }
}

export interface PoolOptions<Result> {
  /** The thread's entry (a module that answers `{ id, job }` messages with `{ id, result }`). */
  entry: URL;
  size?: number;
  perUserInFlight?: number;
  maxQueue?: number;
  deadlineMs: number;
  /** The result to resolve with when the deadline terminates a job's thread. */
  onDeadline: (elapsedMs: number) => Result;
  /** Whether a finished job left its thread unfit for reuse (it hit a limit). */
  retireAfter?: (result: Result) => boolean;
}

interface Pending<Job, Result> {
  id: number;
  userId: string;
  job: Job;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

interface Slot<Job, Result> {
  worker: Worker;
  current?: { pending: Pending<Job, Result>; startedAt: number; timer: NodeJS.Timeout };
}

export interface WorkerPool<Job, Result> {
  run(userId: string, job: Job): Promise<Result>;
  stats(): { threads: number; running: number; waiting: number };
  close(): Promise<void>;
}

export function createWorkerPool<Job, Result>(options: PoolOptions<Result>): WorkerPool<Job, Result> {
  const size = options.size ?? Math.max(2, os.availableParallelism());
  const perUserInFlight = options.perUserInFlight ?? Math.max(1, Math.floor(size / 2));
  const maxQueue = options.maxQueue ?? size * 16;

  const slots: Slot<Job, Result>[] = [];
  const waiting = new Map<string, Pending<Job, Result>[]>(); // per user, insertion order = round-robin order
  const runningByUser = new Map<string, number>();
  let waitingCount = 0;
  let nextId = 1;
  let closed = false;

  function spawn(): Slot<Job, Result> {
    const slot: Slot<Job, Result> = { worker: new Worker(options.entry) };
    slot.worker.on('message', (message: { id: number; result: Result }) => finish(slot, message.id, message.result));
    slot.worker.on('error', (error) => fail(slot, error));
    slot.worker.on('exit', (code) => {
      if (slot.current) fail(slot, new Error(`The sandbox thread stopped unexpectedly (exit code ${code}).`));
    });
    // An idle thread must not keep the process alive.
    slot.worker.unref();
    return slot;
  }

  function replace(slot: Slot<Job, Result>): void {
    const index = slots.indexOf(slot);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // a terminating thread may still emit; it no longer matters
    void slot.worker.terminate();
    if (index >= 0) slots.splice(index, 1);
  }

  function release(slot: Slot<Job, Result>): Pending<Job, Result> | undefined {
    const current = slot.current;
    if (!current) return undefined;
    clearTimeout(current.timer);
    slot.current = undefined;
    const userId = current.pending.userId;
    const running = (runningByUser.get(userId) ?? 1) - 1;
    if (running > 0) runningByUser.set(userId, running);
    else runningByUser.delete(userId);
    return current.pending;
  }

  function finish(slot: Slot<Job, Result>, id: number, result: Result): void {
    if (slot.current?.pending.id !== id) return;
    const pending = release(slot);
    if (options.retireAfter?.(result)) replace(slot);
    else slot.worker.unref();
    pending?.resolve(result);
    schedule();
  }

  function fail(slot: Slot<Job, Result>, error: Error): void {
    const pending = release(slot);
    replace(slot);
    pending?.reject(error);
    schedule();
  }

  function onDeadline(slot: Slot<Job, Result>): void {
    const startedAt = slot.current?.startedAt ?? performance.now();
    const pending = release(slot);
    replace(slot);
    pending?.resolve(options.onDeadline(Math.round(performance.now() - startedAt)));
    schedule();
  }

  /** The next job whose user is under their in-flight limit, taking users in turn. */
  function takeNext(): Pending<Job, Result> | undefined {
    for (const [userId, queue] of waiting) {
      if ((runningByUser.get(userId) ?? 0) >= perUserInFlight) continue;
      const pending = queue.shift()!;
      waiting.delete(userId);
      // Re-inserting moves this user to the back of the round-robin order.
      if (queue.length) waiting.set(userId, queue);
      waitingCount -= 1;
      return pending;
    }
    return undefined;
  }

  function schedule(): void {
    if (closed) return;
    for (;;) {
      const idle = slots.find((candidate) => !candidate.current);
      if (!idle && slots.length >= size) return;
      const pending = takeNext();
      if (!pending) return;
      // Threads are started only for a job that is ready to run.
      let slot = idle;
      if (!slot) {
        slot = spawn();
        slots.push(slot);
      }
      runningByUser.set(pending.userId, (runningByUser.get(pending.userId) ?? 0) + 1);
      const busy = slot;
      busy.current = {
        pending,
        startedAt: performance.now(),
        timer: setTimeout(() => onDeadline(busy), options.deadlineMs),
      };
      busy.worker.ref();
      busy.worker.postMessage({ id: pending.id, job: pending.job });
    }
  }

  return {
    run(userId, job) {
      if (closed) return Promise.reject(new PoolClosedError());
      if (waitingCount >= maxQueue) return Promise.reject(new PoolBusyError());
      return new Promise<Result>((resolve, reject) => {
        const queue = waiting.get(userId) ?? [];
        queue.push({ id: nextId++, userId, job, resolve, reject });
        waiting.set(userId, queue);
        waitingCount += 1;
        schedule();
      });
    },
    stats: () => ({ threads: slots.length, running: slots.filter((s) => s.current).length, waiting: waitingCount }),
    async close() {
      closed = true;
      for (const queue of waiting.values()) for (const pending of queue) pending.reject(new PoolClosedError());
      waiting.clear();
      waitingCount = 0;
      await Promise.all(
        slots.splice(0).map(async (slot) => {
          const pending = release(slot);
          pending?.reject(new PoolClosedError());
          slot.worker.removeAllListeners();
          await slot.worker.terminate();
        }),
      );
    },
  };
}
