import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TempScriptsTable } from '../../db/schema.ts';

export type TempScriptRow = Selectable<TempScriptsTable>;

export const tempScriptsRepo = {
  /** Keeps the code once per user: an existing row with the same code is answered instead. */
  async keep(db: Db, row: TempScriptRow): Promise<TempScriptRow> {
    await db
      .insertInto('tempScripts')
      .values(row)
      .onConflict((conflict) => conflict.columns(['userId', 'codeHash']).doNothing())
      .execute();
    const kept = await db
      .selectFrom('tempScripts')
      .selectAll()
      .where('userId', '=', row.userId)
      .where('codeHash', '=', row.codeHash)
      .executeTakeFirstOrThrow();
    return kept;
  },

  async codeOf(db: Db, userId: string, id: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('tempScripts')
      .select('code')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row?.code;
  },

  /** Deletes one of the user's kept scripts; false when they have none by that id. */
  async remove(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('tempScripts')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  /** The id of the user's current API key (a regenerated key has a new id). */
  async currentApiKeyId(db: Db, userId: string): Promise<string | undefined> {
    const row = await db.selectFrom('apiKeys').select('id').where('userId', '=', userId).executeTakeFirst();
    return row?.id;
  },
};
