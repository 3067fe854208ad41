import { RUN_HISTORY_KEEP_DAYS, RUN_HISTORY_KEEP_RUNS } from '@moonrelay/contract/runs';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { runRetentionRepo } from './run-retention.repo.ts';

/**
 * The run history's retention (docs/decisions/022-run-history.md): each user keeps their newest
 * 10,000 runs or every run of the last 30 days, whichever keeps more. So a run goes once it is
 * older than 30 days and 10,000 newer runs of its user exist; a user with few runs keeps them all.
 *
 * The sweep runs hourly in every server process. It deletes in batches of 500 so that no statement
 * holds the table long, and the code kept for the runs it deleted goes with them. Each sweep asks
 * only about users who could have something to delete since the previous one: whose runs crossed
 * the age limit since then, or who recorded runs since then (a new run can push an old one out of
 * the newest 10,000). The first sweep of a process asks about every user with runs past the age limit.
 * Deleting what the rule says is idempotent, so in the scale-out mode instances sweeping at the same
 * time do the same deletes at worst, and never delete a run the rule keeps.
 */
export const RUN_RETENTION_SWEEP_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DELETE_BATCH = 500;
/** Runs another instance recorded just before the previous sweep (or with a clock a little behind) are looked at again. */
const RECENT_MARGIN_MS = 5 * 60 * 1000;

export interface RunRetentionOptions {
  db: Db;
  logger: Pick<Logger, 'info'>;
  keepRuns?: number;
  keepDays?: number;
  batchSize?: number;
  /** Epoch milliseconds (tests pass their own clock). */
  now?: () => number;
}

export function createRunRetention(options: RunRetentionOptions) {
  const {
    db,
    logger,
    keepRuns = RUN_HISTORY_KEEP_RUNS,
    keepDays = RUN_HISTORY_KEEP_DAYS,
    batchSize = DELETE_BATCH,
    now = Date.now,
  } = options;
  /** What the previous successful sweep covered: its age limit and when it started. */
  let previous: { cutoff: string; startedAt: number } | undefined;

  /** Deletes one user's runs past both limits; answers how many. */
  async function sweepUser(userId: string, cutoff: string): Promise<number> {
    const oldestKept = await runRetentionRepo.nthNewest(db, userId, keepRuns);
    if (!oldestKept) return 0;
    let deleted = 0;
    for (;;) {
      const batch = await runRetentionRepo.deleteOlder(db, userId, cutoff, oldestKept, batchSize);
      deleted += batch;
      if (batch < batchSize) break;
    }
    if (deleted > 0) {
      while ((await runRetentionRepo.deleteUnusedCode(db, userId, batchSize)) === batchSize);
    }
    return deleted;
  }

  return {
    /** One sweep now; answers how many users were looked at and how many runs went. */
    async sweep(): Promise<{ users: number; deleted: number }> {
      const startedAt = now();
      const cutoff = new Date(startedAt - keepDays * DAY_MS).toISOString();
      const users = previous
        ? await runRetentionRepo.usersWithRunsBetween(db, previous.cutoff, cutoff, {
            recordedSince: new Date(previous.startedAt - RECENT_MARGIN_MS).toISOString(),
          })
        : await runRetentionRepo.usersWithRunsBefore(db, cutoff);
      let deleted = 0;
      for (const userId of users) deleted += await sweepUser(userId, cutoff);
      previous = { cutoff, startedAt };
      if (deleted > 0) logger.info({ deleted, users: users.length }, 'run history retention');
      return { users: users.length, deleted };
    },
  };
}

export type RunRetention = ReturnType<typeof createRunRetention>;
