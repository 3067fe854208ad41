/**
 * Gathers the writes asked for within `windowMs` (or until `maxItems` wait) and hands them to
 * `write` together, so a thousand pings that each record one row cost one transaction (one fsync on
 * SQLite, one commit on PostgreSQL) instead of a thousand. Each caller gets its own answer back.
 * A window, not a turn of the event loop: a server keeping up reads about one request a turn, and
 * SQLite's writes block the loop, so nothing would gather while one is written.
 *
 * One item can sink a batch (its account was deleted meanwhile: a foreign key fails); then each
 * item of that batch is written on its own, and only those failing again fail their caller. A
 * batch is written after the previous one finished, so two batches never race for the same rows.
 */
/**
 * What a write may wait for others to join it: 10 ms is a fifth of a game ping's 50 ms budget,
 * and at 2,500 pings a second gathers some 25 writes into each commit.
 */
export const DEFAULT_WINDOW_MS = 10;

export function createWriteBatch<In, Out>(
  write: (items: In[]) => Promise<Out[]>,
  options: { windowMs?: number; maxItems?: number } = {},
) {
  const maxItems = options.maxItems ?? 5_000;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  interface Waiting {
    item: In;
    resolve: (out: Out) => void;
    reject: (error: unknown) => void;
  }
  let queue: Waiting[] = [];
  let draining = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function writeAlone(waiting: Waiting): Promise<void> {
    try {
      const [out] = await write([waiting.item]);
      waiting.resolve(out!);
    } catch (error) {
      waiting.reject(error);
    }
  }

  async function drain(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
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
        if (draining) {
          // A full batch goes at once rather than at the window's end.
          if (timer !== undefined && queue.length >= maxItems) void drain();
          return;
        }
        draining = true;
        timer = setTimeout(() => void drain(), windowMs);
      });
    },
  };
}
