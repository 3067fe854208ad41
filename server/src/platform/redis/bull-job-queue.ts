import { Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import type { JobHandler, JobQueue } from '../job-queue.ts';
import { redisUnavailable } from './connection.ts';

const QUEUE = 'moonrelay-jobs';

/**
 * Jobs on BullMQ: server instances enqueue, `npm run worker` processes consume (any number). One
 * queue carries every kind of job, named by the job's name; a request (a sandbox run) waits for
 * its job's return value through the queue's events.
 */
export function createBullJobQueue(options: {
  connection: ConnectionOptions;
  /** Consume jobs in this process (the worker role); server instances only enqueue. */
  consume: boolean;
  concurrency: number;
  onError: (error: unknown, name: string) => void;
  /**
   * Told (without logging) when the queue, its events or the worker cannot reach Redis. BullMQ
   * re-emits every failed reconnection of its own connections as an 'error'; unheard, each one is a
   * raw ECONNREFUSED stack on stderr. The outage is logged once by the connection (connection.ts).
   */
  onUnreachable?: (part: 'queue' | 'events' | 'worker') => void;
}): JobQueue {
  const queue = new Queue(QUEUE, {
    connection: options.connection,
    defaultJobOptions: { removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 24 * 3600 } },
  });
  const heard = (part: 'queue' | 'events' | 'worker') => (error: unknown) => {
    if (unreachable(error)) options.onUnreachable?.(part);
    else options.onError(error, part);
  };
  queue.on('error', heard('queue'));
  const handlers = new Map<string, JobHandler<unknown, unknown>>();
  let events: QueueEvents | undefined;
  let worker: Worker | undefined;

  return {
    register(name, handler) {
      handlers.set(name, handler as JobHandler<unknown, unknown>);
      if (options.consume && !worker) {
        worker = new Worker(
          QUEUE,
          async (job) => {
            const run = handlers.get(job.name);
            if (!run) throw new Error(`no handler for job ${job.name}`);
            return run(job.data);
          },
          { connection: options.connection, concurrency: options.concurrency },
        );
        worker.on('failed', (job, error) => options.onError(error, job?.name ?? 'unknown'));
        worker.on('error', heard('worker'));
      }
    },
    async enqueue(name, payload) {
      await queue.add(name, payload);
    },
    async request(name, payload, timeoutMs) {
      if (!events) {
        events = new QueueEvents(QUEUE, { connection: options.connection });
        events.on('error', heard('events'));
      }
      await events.waitUntilReady();
      const job = await queue.add(name, payload, { removeOnComplete: true, removeOnFail: true });
      return job.waitUntilFinished(events, timeoutMs);
    },
    // BullMQ names its workers' Redis connections; the count comes from Redis's client list.
    workerCount: () => queue.getWorkersCount(),
    async close() {
      await worker?.close();
      await events?.close();
      await queue.close();
    },
  };
}

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** A failure to reach Redis (refused, reset, closed), as opposed to a job's or a script's own error. */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return redisUnavailable(error) || (typeof code === 'string' && NETWORK_ERRORS.has(code));
}
