/**
 * Gathers the writes asked for in one turn of the event loop and hands them to `write` together,
 * so a thousand pings that each record one row cost one transaction (one fsync on SQLite, one
 * commit on PostgreSQL) instead of a thousand. Each caller gets its own answer back.
 *
 * One item can sink a batch (its account was deleted meanwhile: a foreign key fails); then each
 * item of that batch is written on its own, and only those failing again fail their caller. A
 * batch is written after the previous one finished, so two batches never race for the same rows.
 */
export function createTickBatch<In, Out>(write: (items: In[]) => Promise<Out[]>, maxItems = 5_000) {
  interface Waiting {
    item: In;
    resolve: (out: Out) => void;
    reject: (error: unknown) => void;
  }
  let queue: Waiting[] = [];
  let draining = false;

  async function writeAlone(waiting: Waiting): Promise<void> {
    try {
      const [out] = await write([waiting.item]);
      waiting.resolve(out!);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxItems);
        queue = queue.slice(batch.length);
        try {
          const outs = await write(batch.map((waiting) => waiting.item));
          batch.forEach((waiting, index) => waiting.resolve(outs[index]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          else for (const waiting of batch) await writeAlone(waiting);
        }
      }
    } finally {
      draining = false;
    }
  }

  return {
    /** Resolves with this item's answer once the batch it joined is written. */
    add(item: In): Promise<Out> {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (draining) return;
        draining = true;
        // After the requests already read this turn of the event loop, so they join the first batch.
        setImmediate(() => void drain());
      });
    },
  };
}
