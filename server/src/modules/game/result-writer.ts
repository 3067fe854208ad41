import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { createWriteBatch } from '../../db/write-batch.ts';
import { broadcastsRepo } from './broadcasts.repo.ts';
import { commandsRepo, type CommandRow } from './commands.repo.ts';

export interface ResultToRecord {
  id: string;
  status: 'succeeded' | 'failed';
  output: string;
  error: string | null;
  durationMs: number | null;
}

interface Report {
  userId: string;
  results: ResultToRecord[];
}

/**
 * Records the results games report, every ping's of the same moment in one transaction: a fleet
 * answering a broadcast sends thousands of results a second, and one commit each was what capped
 * the commands an instance could carry. A broadcast's totals move in the same transaction as its
 * copies' results, so they never disagree.
 */
export function createResultWriter(db: Db) {
  const batch = createWriteBatch<Report, CommandRow[]>((reports) =>
    inTransaction(db, async (trx) => {
      const completed = await commandsRepo.completeMany(
        trx,
        reports.flatMap(({ userId, results }) => results.map((result) => ({ ...result, userId }))),
        nowIso(),
      );
      const totals = new Map<string, { succeeded: number; failed: number; error: string | null }>();
      for (const row of completed) {
        if (!row.broadcastId) continue;
        const total = totals.get(row.broadcastId) ?? { succeeded: 0, failed: 0, error: null };
        if (row.status === 'succeeded') total.succeeded += 1;
        else {
          total.failed += 1;
          total.error ??= row.error;
        }
        totals.set(row.broadcastId, total);
      }
      for (const [id, counts] of totals) await broadcastsRepo.count(trx, id, counts);
      // Each report gets the rows it completed (an id two reports carried: the first of them).
      const byKey = new Map(completed.map((row) => [`${row.userId}\n${row.id}`, row]));
      return reports.map(({ userId, results }) =>
        results.flatMap((result) => {
          const key = `${userId}\n${result.id}`;
          const row = byKey.get(key);
          if (!row) return [];
          byKey.delete(key);
          return [row];
        }),
      );
    }),
  );

  return {
    /** The rows that completed now (a repeated or unknown id completes nothing). */
    record(userId: string, results: ResultToRecord[]): Promise<CommandRow[]> {
      if (results.length === 0) return Promise.resolve([]);
      return batch.add({ userId, results });
    },
  };
}
