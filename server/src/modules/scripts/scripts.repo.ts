import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ScriptsTable } from '../../db/schema.ts';

export type ScriptRow = Selectable<ScriptsTable>;
export type ScriptPatch = Updateable<Omit<ScriptsTable, 'id' | 'userId' | 'createdAt' | 'version'>>;

/** Every query is scoped by owner: a script id alone never reaches another user's row. */
export const scriptsRepo = {
  listForUser(db: Db, userId: string): Promise<ScriptRow[]> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .execute();
  },

  findForUser(db: Db, userId: string, id: string): Promise<ScriptRow | undefined> {
    return db.selectFrom('scripts').selectAll().where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  },

  /** Names are not unique: the most recently updated script of that name. */
  findByNameForUser(db: Db, userId: string, name: string): Promise<ScriptRow | undefined> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .where('name', '=', name)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .executeTakeFirst();
  },

  /** The auto-execute scripts of that name, newest first: the ones a game key may fetch by name. */
  listAutoExecuteByNameForUser(db: Db, userId: string, name: string): Promise<ScriptRow[]> {
    return db
      .selectFrom('scripts')
      .selectAll()
      .where('userId', '=', userId)
      .where('name', '=', name)
      .where('isAutoExecute', '=', 1)
      .orderBy('updatedAt', 'desc')
      .orderBy('id')
      .execute();
  },

  async insert(db: Db, row: ScriptRow): Promise<void> {
    await db.insertInto('scripts').values(row).execute();
  },

  /**
   * Changes the script and answers it as changed; `newVersion` bumps its version number in the same
   * statement, so concurrent saves never share a number.
   */
  updateForUser(
    db: Db,
    userId: string,
    id: string,
    patch: ScriptPatch,
    newVersion: boolean,
    /** Only while the script is still at this version (a save made on it); any version without. */
    atVersion?: number,
  ): Promise<ScriptRow | undefined> {
    let update = db
      .updateTable('scripts')
      .set(newVersion ? { ...patch, version: sql<number>`version + 1` } : patch)
      .where('id', '=', id)
      .where('userId', '=', userId);
    if (atVersion !== undefined) update = update.where('version', '=', atVersion);
    return update.returningAll().executeTakeFirst();
  },

  async deleteForUser(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('scripts').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
