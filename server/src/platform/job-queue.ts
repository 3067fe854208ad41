/**
 * Background jobs (mass-execution fan-out today). One interface: the embedded mode runs jobs in
 * process with bounded concurrency; the scale-out mode hands them to BullMQ and `npm run worker`.
 */
export type JobHandler<P, R = void> = (payload: P) => Promise<R>;

export interface JobQueue {
  register<P, R = void>(name: string, handler: JobHandler<P, R>): void;
  enqueue<P>(name: string, payload: P): Promise<void>;
  /** Runs a job and answers its result (rejects with the job's error, or after `timeoutMs`). */
  request<P, R>(name: string, payload: P, timeoutMs: number): Promise<R>;
  /**
   * Worker processes consuming the queue right now: 'in-process' when jobs run in this process
   * (the embedded mode). Rejects when the queue's store cannot be asked.
   */
  workerCount(): Promise<number | 'in-process'>;
  /** Waits for running jobs, then drops the rest. */
  close(): Promise<void>;
}

export function createMemoryJobQueue(options: {
  concurrency: number;
  onError: (error: unknown, name: string) => void;
}): JobQueue {
  const handlers = new Map<string, JobHandler<unknown, unknown>>();
  const waiting: { name: string; payload: unknown }[] = [];
  const running = new Set<Promise<void>>();
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

  return {
    register(name, handler) {
      handlers.set(name, handler as JobHandler<unknown, unknown>);
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
      waiting.length = 0;
      await Promise.all([...running]);
    },
  };
}
