import { inTransaction, type Db } from '../../db/database.ts';

export interface ApiKeyRow {
  id: string;
  userId: string;
  keyHash: string;
  keyCiphertext: string;
  createdAt: string;
}

export const apiKeysRepo = {
  /** A user has one live key: the new row replaces the old one, which stops working at once. */
  async replaceForUser(db: Db, row: ApiKeyRow): Promise<void> {
    await inTransaction(db, async (trx) => {
      await trx.deleteFrom('apiKeys').where('userId', '=', row.userId).execute();
      await trx.insertInto('apiKeys').values(row).execute();
    });
  },

  findByHash(db: Db, keyHash: string): Promise<{ id: string; userId: string } | undefined> {
    return db.selectFrom('apiKeys').select(['id', 'userId']).where('keyHash', '=', keyHash).executeTakeFirst();
  },

  async sealedKeyOf(db: Db, userId: string): Promise<string | undefined> {
    const row = await db.selectFrom('apiKeys').select('keyCiphertext').where('userId', '=', userId).executeTakeFirst();
    return row?.keyCiphertext;
  },
};
