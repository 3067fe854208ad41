import { Queue, QueueEvents, Worker, type ConnectionOptions, type Job, type RepeatStrategy } from 'bullmq';
import type { JobHandler, JobQueue } from '../job-queue.ts';
import { decodeRepeat, encodeRepeat, nextDue } from '../repeat-times.ts';
import { redisUnavailable } from './connection.ts';

/** The queue of runs, mass-execution parts and schedules; notifications have their own (platform.ts). */
export const JOBS_QUEUE = 'moonrelay-jobs';

/**
 * Job schedulers' due times come from repeat-times.ts, as in the embedded mode: the pattern BullMQ
 * stores is Moonrelay's encoded repeat, which only this strategy reads.
 */
const repeatStrategy: RepeatStrategy = (millis, options) =>
  options.pattern ? (nextDue(decodeRepeat(options.pattern), millis) ?? undefined) : undefined;

/** A scheduler's job carries the time it was due; its id (`repeat:<scheduler>:<ms>`) says it too. */
function dueMsOf(job: Job): number {
  return job.opts.prevMillis ?? Number(String(job.id).split(':').pop());
}

/**
 * Jobs on BullMQ: server instances enqueue, `npm run worker` processes consume (any number). One
 * queue carries every kind of job, named by the job's name; a request (a sandbox run) waits for
 * its job's return value through the queue's events.
 */
export function createBullJobQueue(options: {
  connection: ConnectionOptions;
  /** The BullMQ queue's name (JOBS_QUEUE unless a kind of job gets workers' slots of its own). */
  name?: string;
  /** Consume jobs in this process (the worker role); server instances only enqueue. */
  consume: boolean;
  concurrency: number;
  /**
   * A running job's lock, renewed by its worker every half of it, and how often workers look for
   * jobs whose lock ran out (a worker that died): such a job runs again within about twice this.
   */
  stalledAfterMs: number;
  onError: (error: unknown, name: string) => void;
  /**
   * Told (without logging) when the queue, its events or the worker cannot reach Redis. BullMQ
   * re-emits every failed reconnection of its own connections as an 'error'; unheard, each one is a
   * raw ECONNREFUSED stack on stderr. The outage is logged once by the connection (connection.ts).
   */
  onUnreachable?: (part: 'queue' | 'events' | 'worker') => void;
}): JobQueue {
  const QUEUE = options.name ?? JOBS_QUEUE;
  const queue = new Queue(QUEUE, {
    connection: options.connection,
    settings: { repeatStrategy },
    defaultJobOptions: { removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 24 * 3600 } },
  });
  const heard = (part: 'queue' | 'events' | 'worker') => (error: unknown) => {
    if (unreachable(error) || lostWithRedis(error)) options.onUnreachable?.(part);
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
            return run(job.repeatJobKey ? { ...job.data, dueMs: dueMsOf(job) } : job.data);
          },
          {
            connection: options.connection,
            concurrency: options.concurrency,
            settings: { repeatStrategy },
            lockDuration: options.stalledAfterMs,
            stalledInterval: options.stalledAfterMs,
          },
        );
        worker.on('failed', (job, error) =>
          lostWithRedis(error) ? options.onUnreachable?.('worker') : options.onError(error, job?.name ?? 'unknown'),
        );
        worker.on('error', heard('worker'));
      }
    },
    async enqueue(name, payload) {
      await queue.add(name, payload);
    },
    // Every instance may set the same scheduler up: BullMQ keeps one per id, and one job per due time.
    async repeat(id, repeat, name, payload) {
      await queue.upsertJobScheduler(id, { pattern: encodeRepeat(repeat) }, { name, data: payload });
    },
    async stopRepeating(id) {
      await queue.removeJobScheduler(id);
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

/**
 * BullMQ finishing a job whose record Redis no longer has: Redis restarted empty (it keeps nothing on
 * disk here) between the job's start and its end. The outage is what happened, and it is logged once
 * by the connection; the job's own work is done or is redone from the database by its sweep.
 */
function lostWithRedis(error: unknown): boolean {
  return error instanceof Error && /^Missing (key|lock) for job /.test(error.message);
}

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** A failure to reach Redis (refused, reset, closed), as opposed to a job's or a script's own error. */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return redisUnavailable(error) || (typeof code === 'string' && NETWORK_ERRORS.has(code));
}
