import type { ExpressionBuilder, Insertable, Selectable, Updateable } from 'kysely';
import { writeInChunks } from '../../db/bulk-writes.ts';
import type { Db } from '../../db/database.ts';
import { leaseColumn } from '../../platform/outbox.ts';
import type {
  Database,
  OpenCloudActiveBansTable,
  OpenCloudBanLogsTable,
  OpenCloudKeysTable,
  OpenCloudUpdatesTable,
} from '../../db/schema.ts';

export type KeyRow = Selectable<OpenCloudKeysTable>;
export type UpdateRow = Selectable<OpenCloudUpdatesTable>;
export type BanLogRow = Selectable<OpenCloudBanLogsTable>;
export type ActiveBanRow = Selectable<OpenCloudActiveBansTable>;

const free =
  (column: 'sendingUntil' | 'importingUntil', now: string) => (eb: ExpressionBuilder<Database, 'openCloudKeys'>) =>
    eb.or([eb(column, 'is', null), eb(column, '<', now)]);

export const keysRepo = {
  find(db: Db, userId: string): Promise<KeyRow | undefined> {
    return db.selectFrom('openCloudKeys').selectAll().where('userId', '=', userId).executeTakeFirst();
  },

  /** Saves the user's key; a new universe starts its import afresh. */
  async put(
    db: Db,
    row: Pick<KeyRow, 'userId' | 'universeId' | 'keySealed' | 'maskedKey' | 'scopes'> &
      Partial<Pick<KeyRow, 'placeId' | 'placeVersion'>>,
    now: string,
  ) {
    const existing = await keysRepo.find(db, row.userId);
    if (!existing) {
      await db
        .insertInto('openCloudKeys')
        .values({
          ...row,
          sendingUntil: null,
          importingUntil: null,
          logsImportedUntil: null,
          lastImportAt: null,
          lastImportError: null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      return;
    }
    const sameUniverse = existing.universeId === row.universeId;
    await db
      .updateTable('openCloudKeys')
      .set({
        universeId: row.universeId,
        keySealed: row.keySealed,
        maskedKey: row.maskedKey,
        scopes: row.scopes,
        updatedAt: now,
        lastImportError: null,
        ...(sameUniverse ? {} : { logsImportedUntil: null, lastImportAt: null, placeId: null, placeVersion: null }),
        ...(row.placeId === undefined ? {} : { placeId: row.placeId, placeVersion: row.placeVersion ?? null }),
      })
      .where('userId', '=', row.userId)
      .execute();
  },

  async remove(db: Db, userId: string): Promise<boolean> {
    const result = await db.deleteFrom('openCloudKeys').where('userId', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async update(db: Db, userId: string, patch: Updateable<OpenCloudKeysTable>): Promise<void> {
    await db.updateTable('openCloudKeys').set(patch).where('userId', '=', userId).execute();
  },

  /** The owner's sending and importing leases, each taken in one statement so two processes never both hold it. */
  leases: {
    sendingUntil: leaseColumn('openCloudKeys', { key: 'userId', until: 'sendingUntil' }),
    followingUntil: leaseColumn('openCloudKeys', { key: 'userId', until: 'followingUntil' }),
    importingUntil: leaseColumn('openCloudKeys', { key: 'userId', until: 'importingUntil' }),
  },

  /** Takes the owner's sending (or importing) lease until `until` (the import gives its lease back itself). */
  lease(
    db: Db,
    userId: string,
    which: 'sendingUntil' | 'importingUntil',
    now: string,
    until: string,
  ): Promise<boolean> {
    return keysRepo.leases[which].take(db, userId, now, until);
  },

  /** Owners whose last import is older than `before` (or never ran) and nobody imports now. */
  async dueImports(db: Db, before: string, now: string, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('openCloudKeys')
      .select('userId')
      .where((eb) => eb.or([eb('lastImportAt', 'is', null), eb('lastImportAt', '<', before)]))
      .where(free('importingUntil', now))
      // A key Roblox says carries no ban scope (one for cloud runs only) has no bans to import.
      .where((eb) => eb.or([eb('scopes', 'is', null), eb('scopes', 'like', '%universe.user-restriction:%')]))
      .limit(limit)
      .execute();
    return rows.map((row) => row.userId);
  },
};

export const updatesRepo = {
  /** Queues an update; the same action id twice stores it once. Answers whether it was new. */
  async insert(db: Db, row: Insertable<OpenCloudUpdatesTable>): Promise<boolean> {
    const result = await db
      .insertInto('openCloudUpdates')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  find(db: Db, id: string): Promise<UpdateRow | undefined> {
    return db.selectFrom('openCloudUpdates').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The owner's waiting updates, oldest first. */
  pending(db: Db, ownerId: string, limit: number): Promise<UpdateRow[]> {
    return db
      .selectFrom('openCloudUpdates')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('state', '=', 'pending')
      .orderBy('seq')
      .limit(limit)
      .execute();
  },

  async update(db: Db, id: string, patch: Updateable<OpenCloudUpdatesTable>): Promise<void> {
    await db.updateTable('openCloudUpdates').set(patch).where('id', '=', id).execute();
  },

  /** Owners with an update due now whose sending lease is free, with or without a key (for the sweep). */
  dueOwners(db: Db, now: string, limit: number): Promise<string[]> {
    return keysRepo.leases.sendingUntil.due(db, { table: 'openCloudUpdates', key: 'ownerId' }, now, limit);
  },

  /** Settled updates whose outcome was not yet told (a process stopped between the two). */
  unreported(db: Db, limit: number): Promise<UpdateRow[]> {
    return db
      .selectFrom('openCloudUpdates')
      .selectAll()
      .where('state', '!=', 'pending')
      .where('reportedAt', 'is', null)
      .orderBy('seq')
      .limit(limit)
      .execute();
  },

  /** Settled and told, past a week: the queue stays small. */
  async pruneDone(db: Db, before: string): Promise<void> {
    await db
      .deleteFrom('openCloudUpdates')
      .where('state', '!=', 'pending')
      .where('reportedAt', 'is not', null)
      .where('doneAt', '<', before)
      .execute();
  },
};

export const sendsRepo = {
  async insert(db: Db, universeId: string, robloxUserId: string, sentAt: string): Promise<void> {
    await db.insertInto('openCloudSends').values({ universeId, robloxUserId, sentAt }).execute();
  },

  /** Send times of one user in the universe since `since`, oldest first. */
  async userSince(db: Db, universeId: string, robloxUserId: string, since: string): Promise<string[]> {
    const rows = await db
      .selectFrom('openCloudSends')
      .select('sentAt')
      .where('universeId', '=', universeId)
      .where('robloxUserId', '=', robloxUserId)
      .where('sentAt', '>', since)
      .orderBy('sentAt')
      .execute();
    return rows.map((row) => row.sentAt);
  },

  async universeSince(db: Db, universeId: string, since: string): Promise<string[]> {
    const rows = await db
      .selectFrom('openCloudSends')
      .select('sentAt')
      .where('universeId', '=', universeId)
      .where('sentAt', '>', since)
      .orderBy('sentAt')
      .execute();
    return rows.map((row) => row.sentAt);
  },

  async prune(db: Db, before: string): Promise<void> {
    await db.deleteFrom('openCloudSends').where('sentAt', '<', before).execute();
  },
};

export const bansRepo = {
  /** Adds history entries; one already imported (same user and time) is left as it is. Answers how many were new. */
  async insertLogs(db: Db, rows: BanLogRow[]): Promise<number> {
    let added = 0;
    for (const row of rows) {
      const result = await db
        .insertInto('openCloudBanLogs')
        .values(row)
        .onConflict((oc) => oc.columns(['ownerId', 'universeId', 'robloxUserId', 'createTime']).doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  },

  logs(db: Db, ownerId: string, universeId: string, limit: number): Promise<BanLogRow[]> {
    return db
      .selectFrom('openCloudBanLogs')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('universeId', '=', universeId)
      .orderBy('createTime', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  /** Replaces the owner's bans in force with what Roblox listed now. */
  async replaceActive(db: Db, ownerId: string, rows: ActiveBanRow[]): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('openCloudActiveBans').where('ownerId', '=', ownerId).execute();
      await writeInChunks(trx, rows, (chunk) => trx.insertInto('openCloudActiveBans').values(chunk).execute());
    });
  },

  /** Takes one player's ban off the imported list (it is being lifted); false when it was not there. */
  async removeActive(db: Db, ownerId: string, robloxUserId: string): Promise<boolean> {
    const result = await db
      .deleteFrom('openCloudActiveBans')
      .where('ownerId', '=', ownerId)
      .where('robloxUserId', '=', robloxUserId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  active(db: Db, ownerId: string, universeId: string, limit: number): Promise<ActiveBanRow[]> {
    return db
      .selectFrom('openCloudActiveBans')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('universeId', '=', universeId)
      .orderBy('startTime', 'desc')
      .orderBy('robloxUserId')
      .limit(limit)
      .execute();
  },
};
