import { inTransaction, type Db } from '../../db/database.ts';

/**
 * Writes from many deliveries running at once, committed together: each SQLite commit waits for the
 * disk (synchronous = FULL), so a commit per write would cap deliveries at a few hundred a second.
 * Work handed in while a commit is under way goes into the next one. Should a shared transaction
 * fail, each piece of work is retried in its own, so one bad write fails only its own caller.
 */
/** How long work is gathered before a commit. */
const GATHER_MS = 10;

export function createCommitGroup(db: Db) {
  type Piece = {
    work: (trx: Db) => Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  };
  let next: Piece[] = [];
  let committing = false;

  const schedule = () => {
    committing = true;
    // Deliveries finishing their requests meanwhile join the same commit.
    setTimeout(() => void commit(), GATHER_MS);
  };

  async function commit(): Promise<void> {
    const pieces = next;
    next = [];
    try {
      const results = await inTransaction(db, async (trx) => {
        const out: unknown[] = [];
        for (const piece of pieces) out.push(await piece.work(trx));
        return out;
      });
      pieces.forEach((piece, i) => piece.resolve(results[i]));
    } catch {
      for (const piece of pieces) {
        try {
          piece.resolve(await inTransaction(db, piece.work));
        } catch (error) {
          piece.reject(error);
        }
      }
    }
    // What came while this one ran is gathered a little longer, so the next commit carries more.
    if (next.length) schedule();
    else committing = false;
  }

  return {
    run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        next.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!committing) schedule();
      });
    },
  };
}
