import { nextDue, type Repeat } from './repeat-times.ts';

/**
 * Background jobs (mass-execution fan-out, sandbox runs, scheduled runs). One interface: the embedded mode runs jobs in
 * process with bounded concurrency; the scale-out mode hands them to BullMQ and `npm run worker`.
 */
export type JobHandler<P, R = void> = (payload: P) => Promise<R>;

/** What a recurring job's handler receives: its payload and the time it was due (ms since the epoch). */
export type DueJob<P> = P & { dueMs: number };

export interface RepeatOptions {
  /**
   * When the job was last due (or was first set up), as far as the caller knows: a due time between
   * then and now that passed while no process ran it is run once, at once. The queue in Redis keeps
   * its own next job, so only the in-process queue reads this.
   */
  since?: number;
}

export interface JobQueue {
  register<P, R = void>(name: string, handler: JobHandler<P, R>): void;
  enqueue<P>(name: string, payload: P): Promise<void>;
  /** Runs a job and answers its result (rejects with the job's error, or after `timeoutMs`). */
  request<P, R>(name: string, payload: P, timeoutMs: number): Promise<R>;
  /**
   * Runs job `name` with `payload` (plus its `dueMs`) at each due time of `repeat`, replacing what
   * was set up under `id` before. Missed due times are not caught up beyond one (see `since`).
   */
  repeat<P extends object>(
    id: string,
    repeat: Repeat,
    name: string,
    payload: P,
    options?: RepeatOptions,
  ): Promise<void>;
  /** No more runs of the recurring job `id` (nothing happens if there is none). */
  stopRepeating(id: string): Promise<void>;
  /**
   * Worker processes consuming the queue right now: 'in-process' when jobs run in this process
   * (the embedded mode). Rejects when the queue's store cannot be asked.
   */
  workerCount(): Promise<number | 'in-process'>;
  /** Waits for running jobs, then drops the rest. */
  close(): Promise<void>;
}

/** setTimeout's longest wait; a due time further away is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createMemoryJobQueue(options: {
  concurrency: number;
  onError: (error: unknown, name: string) => void;
}): JobQueue {
  const handlers = new Map<string, JobHandler<unknown, unknown>>();
  const waiting: { name: string; payload: unknown }[] = [];
  const running = new Set<Promise<void>>();
  /** One timer per recurring job, set for its next due time (no polling). */
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const pump = () => {
    while (!closed && running.size < options.concurrency && waiting.length > 0) {
      const job = waiting.shift()!;
      const handler = handlers.get(job.name);
      if (!handler) {
        options.onError(new Error(`no handler for job ${job.name}`), job.name);
        continue;
      }
      const done: Promise<void> = handler(job.payload)
        .then(() => undefined)
        .catch((error: unknown) => options.onError(error, job.name))
        .finally(() => {
          running.delete(done);
          pump();
        });
      running.add(done);
    }
  };

  const enqueueDue = (name: string, payload: object, dueMs: number) => {
    if (closed) return;
    waiting.push({ name, payload: { ...payload, dueMs } });
    pump();
  };

  /** Sets the job's one timer for its first due time after `afterMs`; each firing sets the next. */
  const arm = (id: string, repeat: Repeat, name: string, payload: object, afterMs: number) => {
    const due = nextDue(repeat, afterMs);
    if (due === null || closed) return;
    const timer = setTimeout(
      () => {
        if (timers.get(id) !== timer) return;
        // A wait longer than a timer allows, or a timer that fired early: wait on for the same time.
        if (Date.now() < due) return arm(id, repeat, name, payload, afterMs);
        enqueueDue(name, payload, due);
        // From now, not from `due`: a process that was asleep does not catch up the times it slept through.
        arm(id, repeat, name, payload, Math.max(due, Date.now()));
      },
      Math.min(Math.max(0, due - Date.now()), MAX_TIMER_MS),
    );
    timer.unref();
    clearTimeout(timers.get(id));
    timers.set(id, timer);
  };

  return {
    register(name, handler) {
      handlers.set(name, handler as JobHandler<unknown, unknown>);
    },
    async repeat(id, repeat, name, payload, options = {}) {
      const now = Date.now();
      if (options.since !== undefined) {
        const missed = nextDue(repeat, options.since);
        if (missed !== null && missed <= now) enqueueDue(name, payload, missed);
      }
      arm(id, repeat, name, payload, now);
    },
    async stopRepeating(id) {
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
    async request(name, payload) {
      const handler = handlers.get(name);
      if (!handler) throw new Error(`no handler for job ${name}`);
      return (await handler(payload)) as never;
    },
    async enqueue(name, payload) {
      if (closed) throw new Error('the job queue is closed');
      waiting.push({ name, payload });
      pump();
    },
    workerCount: async () => 'in-process',
    async close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      waiting.length = 0;
      await Promise.all([...running]);
    },
  };
}
