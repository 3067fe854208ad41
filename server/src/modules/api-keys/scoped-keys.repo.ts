import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ScopedApiKeysTable } from '../../db/schema.ts';

export type ScopedKeyRow = Selectable<ScopedApiKeysTable>;

export const scopedKeysRepo = {
  insert(db: Db, row: ScopedKeyRow): Promise<unknown> {
    return db.insertInto('scopedApiKeys').values(row).execute();
  },

  findByHash(db: Db, keyHash: string): Promise<ScopedKeyRow | undefined> {
    return db.selectFrom('scopedApiKeys').selectAll().where('keyHash', '=', keyHash).executeTakeFirst();
  },

  /** The user's keys that are not revoked, newest first. */
  listLive(db: Db, userId: string): Promise<ScopedKeyRow[]> {
    return db
      .selectFrom('scopedApiKeys')
      .selectAll()
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** Keys the user made (not revoked, the integration key aside): what the per-user limit counts. */
  async countMade(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('scopedApiKeys')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .where('integration', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /**
   * Takes the user's row lock for the rest of the transaction, so that two keys created at once are
   * counted one after the other (PostgreSQL row lock; SQLite writes one transaction at a time anyway).
   */
  async lockUser(trx: Db, userId: string): Promise<boolean> {
    const result = await trx
      .updateTable('users')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  findLiveIntegration(db: Db, userId: string): Promise<ScopedKeyRow | undefined> {
    return db
      .selectFrom('scopedApiKeys')
      .selectAll()
      .where('userId', '=', userId)
      .where('integration', '=', 1)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
  },

  /** Revokes a live key of the user; answers its row, or undefined when there is none to revoke. */
  async revoke(db: Db, userId: string, keyId: string, at: string): Promise<ScopedKeyRow | undefined> {
    return db
      .updateTable('scopedApiKeys')
      .set({ revokedAt: at, keyCiphertext: null })
      .where('id', '=', keyId)
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .returningAll()
      .executeTakeFirst();
  },

  async touch(db: Db, keyId: string, at: string, ip: string): Promise<void> {
    await db.updateTable('scopedApiKeys').set({ lastUsedAt: at, lastUsedIp: ip }).where('id', '=', keyId).execute();
  },
};
