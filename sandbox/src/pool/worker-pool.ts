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
 *   stuck inside C code) and replaced, and the job resolves as a deadline result. It counts from
 *   when the job is sent to a ready thread, never from when it was queued;
 * - start-up: a thread is started for one waiting job, which it holds (counting towards its
 *   user's in-flight jobs) and is sent once the thread has announced `{ ready: true }`, so loading
 *   the thread's code (seconds on a busy machine) is never counted in the job's deadline. A thread
 *   that fails, or stays silent for `startTimeoutMs` (default 30 s), before it is ready is
 *   terminated, and the job it held is rejected with the reason;
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

/** What a thread posts once it can take jobs. */
export interface ThreadReady {
  ready: true;
}

const isThreadReady = (message: unknown): message is ThreadReady =>
  typeof message === 'object' && message !== null && (message as Partial<ThreadReady>).ready === true;

export interface PoolOptions<Result> {
  /**
   * The thread's entry: a module that posts `{ ready: true }` once it can take jobs, then answers
   * `{ id, job }` messages with `{ id, result }`.
   */
  entry: URL;
  size?: number;
  perUserInFlight?: number;
  maxQueue?: number;
  deadlineMs: number;
  /** How long a new thread may take to announce it is ready. */
  startTimeoutMs?: number;
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
  /** Whether the thread announced it can take jobs; until then it is only starting. */
  ready: boolean;
  startTimer?: NodeJS.Timeout;
  /** The thread's job: held while the thread starts, timed from when it is sent. */
  current?: { pending: Pending<Job, Result>; startedAt?: number; timer?: NodeJS.Timeout };
}

export interface WorkerPool<Job, Result> {
  run(userId: string, job: Job): Promise<Result>;
  stats(): { threads: number; starting: number; running: number; waiting: number };
  close(): Promise<void>;
}

export function createWorkerPool<Job, Result>(options: PoolOptions<Result>): WorkerPool<Job, Result> {
  const size = options.size ?? Math.max(2, os.availableParallelism());
  const perUserInFlight = options.perUserInFlight ?? Math.max(1, Math.floor(size / 2));
  const maxQueue = options.maxQueue ?? size * 16;
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;

  const slots: Slot<Job, Result>[] = [];
  const waiting = new Map<string, Pending<Job, Result>[]>(); // per user, insertion order = round-robin order
  const runningByUser = new Map<string, number>();
  let waitingCount = 0;
  let nextId = 1;
  let closed = false;

  /** Starts a thread for `pending`, which it holds until it is ready. */
  function spawn(pending: Pending<Job, Result>): Slot<Job, Result> {
    const slot: Slot<Job, Result> = { worker: new Worker(options.entry), ready: false };
    hold(slot, pending);
    slot.startTimer = setTimeout(
      () => failStart(slot, new Error(`The sandbox thread did not start within ${startTimeoutMs} ms.`)),
      startTimeoutMs,
    );
    slot.worker.on('message', (message: ThreadReady | { id: number; result: Result }) =>
      isThreadReady(message) ? onReady(slot) : finish(slot, message.id, message.result),
    );
    slot.worker.on('error', (error) => (slot.ready ? fail(slot, error) : failStart(slot, error)));
    slot.worker.on('exit', (code) => {
      const error = new Error(`The sandbox thread stopped unexpectedly (exit code ${code}).`);
      // A thread that died idle is only dropped; a new one starts when a job needs it.
      if (slot.ready) fail(slot, error);
      else failStart(slot, error);
    });
    return slot;
  }

  function replace(slot: Slot<Job, Result>): void {
    const index = slots.indexOf(slot);
    clearTimeout(slot.startTimer);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // a terminating thread may still emit; it no longer matters
    void slot.worker.terminate();
    if (index >= 0) slots.splice(index, 1);
  }

  function onReady(slot: Slot<Job, Result>): void {
    if (slot.ready) return;
    slot.ready = true;
    clearTimeout(slot.startTimer);
    if (slot.current) send(slot);
    else slot.worker.unref();
  }

  /** A thread that failed before it was ready: the job it held gets the reason. */
  function failStart(slot: Slot<Job, Result>, error: Error): void {
    const pending = release(slot);
    replace(slot);
    pending?.reject(error);
    schedule();
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
    if (!slot.current || slot.current.pending.id !== id) return;
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
      const idle = slots.find((candidate) => candidate.ready && !candidate.current);
      if (!idle && slots.length >= size) return;
      const pending = takeNext();
      if (!pending) return;
      // Threads are started only for a job that is ready to run.
      if (idle) {
        hold(idle, pending);
        send(idle);
      } else {
        slots.push(spawn(pending));
      }
    }
  }

  /** Gives a thread its job; the job counts as its user's from now on, even while the thread starts. */
  function hold(slot: Slot<Job, Result>, pending: Pending<Job, Result>): void {
    runningByUser.set(pending.userId, (runningByUser.get(pending.userId) ?? 0) + 1);
    slot.current = { pending };
  }

  /**
   * Sends a ready thread its job and starts the job's deadline. The deadline used to start when a
   * job was posted to a thread just spawned for it, so the thread's start-up (1.8 s on an idle
   * 2-core machine, up to 3.6 s under load, against the sandbox's 3.5 s) was counted in the job's
   * budget: after a hostile run retired its thread, the next user's harmless run could end as
   * 'Time limit exceeded'. Only the run itself is timed now.
   */
  function send(slot: Slot<Job, Result>): void {
    const current = slot.current!;
    current.startedAt = performance.now();
    current.timer = setTimeout(() => onDeadline(slot), options.deadlineMs);
    slot.worker.ref();
    slot.worker.postMessage({ id: current.pending.id, job: current.pending.job });
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
    // A job held by a starting thread is waiting (for its thread), not running.
    stats: () => ({
      threads: slots.length,
      starting: slots.filter((slot) => !slot.ready).length,
      running: slots.filter((slot) => slot.ready && slot.current).length,
      waiting: waitingCount + slots.filter((slot) => !slot.ready && slot.current).length,
    }),
    async close() {
      closed = true;
      for (const queue of waiting.values()) for (const pending of queue) pending.reject(new PoolClosedError());
      waiting.clear();
      waitingCount = 0;
      await Promise.all(
        slots.splice(0).map(async (slot) => {
          const pending = release(slot);
          pending?.reject(new PoolClosedError());
          clearTimeout(slot.startTimer);
          slot.worker.removeAllListeners();
          await slot.worker.terminate();
        }),
      );
    },
  };
}
