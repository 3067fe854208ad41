import type { Insertable, Selectable, Updateable } from 'kysely';
import { writeInChunks } from '../../db/bulk-writes.ts';
import type { Db } from '../../db/database.ts';
import type { CloudTaskLogsTable, CloudTasksTable } from '../../db/schema.ts';
import { keysRepo } from '../open-cloud/open-cloud.repo.ts';

export type CloudTaskRow = Selectable<CloudTasksTable>;
export type CloudTaskLogRow = Selectable<CloudTaskLogsTable>;

/** Phases in which Roblox holds the task (or may: a create call out), so it counts against the place's limit. */
export const UNFINISHED_PHASES = ['creating', 'queued', 'running'] as const;

export const cloudTasksRepo = {
  async insert(db: Db, row: Insertable<CloudTasksTable>): Promise<void> {
    await db.insertInto('cloudTasks').values(row).execute();
  },

  find(db: Db, executionId: string): Promise<CloudTaskRow | undefined> {
    return db.selectFrom('cloudTasks').selectAll().where('executionId', '=', executionId).executeTakeFirst();
  },

  /** The owner's runs not yet ended, oldest first. */
  pending(db: Db, ownerId: string, limit: number): Promise<CloudTaskRow[]> {
    return db
      .selectFrom('cloudTasks')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('state', '=', 'pending')
      .orderBy('seq')
      .limit(limit)
      .execute();
  },

  /** Changes a pending row; false when it had ended meanwhile (a cancel, another process). */
  async update(db: Db, executionId: string, patch: Updateable<CloudTasksTable>): Promise<boolean> {
    const result = await db
      .updateTable('cloudTasks')
      .set(patch)
      .where('executionId', '=', executionId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Ends a run still waiting in Moonrelay's queue; false when it was sent (or ended) meanwhile. */
  async cancelWaiting(db: Db, executionId: string, patch: Updateable<CloudTasksTable>): Promise<boolean> {
    const result = await db
      .updateTable('cloudTasks')
      .set(patch)
      .where('executionId', '=', executionId)
      .where('state', '=', 'pending')
      .where('phase', '=', 'waiting')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Postpones the owner's due rows of these phases to `until` (a rate limit's window), saying why. */
  async postpone(db: Db, ownerId: string, phases: string[], until: string, reason?: string): Promise<void> {
    await db
      .updateTable('cloudTasks')
      .set({ nextAttemptAt: until, ...(reason === undefined ? {} : { waitingReason: reason }) })
      .where('ownerId', '=', ownerId)
      .where('state', '=', 'pending')
      .where('phase', 'in', phases)
      .where('nextAttemptAt', '<', until)
      .execute();
  },

  /** Owners with a run due now whose following lease is free, with or without a key (for the sweep). */
  dueOwners(db: Db, now: string, limit: number): Promise<string[]> {
    return keysRepo.leases.followingUntil.due(db, { table: 'cloudTasks', key: 'ownerId' }, now, limit);
  },

  async pruneDone(db: Db, before: string): Promise<void> {
    // The run keeps its output and error; the task's script and results are not needed once it ended.
    await db
      .updateTable('cloudTasks')
      .set({ script: '' })
      .where('state', '=', 'done')
      .where('doneAt', '<', before)
      .where('script', '!=', '')
      .execute();
  },
};

export const cloudLogsRepo = {
  async append(db: Db, rows: CloudTaskLogRow[]): Promise<void> {
    // A page read twice (a restart between reading it and noting its token) is kept once.
    await writeInChunks(db, rows, (chunk) =>
      db
        .insertInto('cloudTaskLogs')
        .values(chunk)
        .onConflict((oc) => oc.columns(['executionId', 'seq']).doNothing())
        .execute(),
    );
  },

  list(db: Db, executionId: string, limit: number): Promise<CloudTaskLogRow[]> {
    return db
      .selectFrom('cloudTaskLogs')
      .selectAll()
      .where('executionId', '=', executionId)
      .orderBy('seq')
      .limit(limit)
      .execute();
  },
};
