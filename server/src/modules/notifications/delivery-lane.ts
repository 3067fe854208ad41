/**
 * Runs tasks with at most `concurrency` under way, in the order they came. The embedded mode
 * delivers notifications through one of these rather than the job queue: the queue's few slots are
 * shared with sandbox runs and mass-execution parts, and a user with twenty busy destinations (or a
 * Discord rate limit waited out in a delivery) would otherwise hold them all.
 */
export function createDeliveryLane(options: { concurrency: number; onError: (error: unknown) => void }) {
  const waiting: (() => Promise<void>)[] = [];
  const running = new Set<Promise<void>>();
  let closed = false;

  const pump = () => {
    while (!closed && running.size < options.concurrency && waiting.length > 0) {
      const task = waiting.shift()!;
      const done: Promise<void> = task()
        .catch(options.onError)
        .finally(() => {
          running.delete(done);
          pump();
        });
      running.add(done);
    }
  };

  return {
    add(task: () => Promise<void>): void {
      if (closed) return;
      waiting.push(task);
      pump();
    },
    /** Tasks under way and waiting (for tests and metrics). */
    get size() {
      return running.size + waiting.length;
    },
    /** Lets the running tasks finish and drops the waiting ones: their events wait in the outbox. */
    async close(): Promise<void> {
      closed = true;
      waiting.length = 0;
      await Promise.all([...running]);
    },
  };
}
