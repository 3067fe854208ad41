import { inTransaction, type Db } from '../../db/database.ts';

export interface ApiKeyRow {
  id: string;
  userId: string;
  keyHash: string;
  keyCiphertext: string;
  createdAt: string;
  /** The member who made a team's game key; null for an account's own. */
  createdBy: string | null;
}

export const apiKeysRepo = {
  /** A user has one live key: the new row replaces the old one, which stops working at once. */
  async replaceForUser(db: Db, row: ApiKeyRow): Promise<void> {
    await inTransaction(db, async (trx) => {
      await trx.deleteFrom('apiKeys').where('userId', '=', row.userId).execute();
      await trx.insertInto('apiKeys').values(row).execute();
    });
  },

  findByHash(db: Db, keyHash: string): Promise<{ id: string; userId: string; createdBy: string | null } | undefined> {
    return db
      .selectFrom('apiKeys')
      .select(['id', 'userId', 'createdBy'])
      .where('keyHash', '=', keyHash)
      .executeTakeFirst();
  },

  async sealedKeyOf(db: Db, userId: string): Promise<string | undefined> {
    const row = await db.selectFrom('apiKeys').select('keyCiphertext').where('userId', '=', userId).executeTakeFirst();
    return row?.keyCiphertext;
  },
};
