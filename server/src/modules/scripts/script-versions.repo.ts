import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ScriptVersionsTable } from '../../db/schema.ts';

export type ScriptVersionRow = Selectable<ScriptVersionsTable>;

/** The list's columns: everything but the code, whose size and line count are answered instead. */
const summaryColumns = [
  'scriptVersions.number',
  'scriptVersions.name',
  'scriptVersions.savedVia',
  'scriptVersions.savedByKey',
  'scriptVersions.restoredFrom',
  'scriptVersions.codeBytes',
  'scriptVersions.lines',
  'scriptVersions.createdAt',
] as const;

/**
 * Versions are reached through their script (whose owner the service has checked): a version's
 * number alone never names another user's code.
 */
export const scriptVersionsRepo = {
  async insert(db: Db, row: Insertable<ScriptVersionsTable>): Promise<void> {
    await db.insertInto('scriptVersions').values(row).execute();
  },

  /** Drops the versions numbered below `keepFrom` (the oldest past the kept count). */
  async pruneBelow(db: Db, scriptId: string, keepFrom: number): Promise<number> {
    if (keepFrom <= 1) return 0;
    const result = await db
      .deleteFrom('scriptVersions')
      .where('scriptId', '=', scriptId)
      .where('number', '<', keepFrom)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /**
   * Newest first, with the saver's name. The code's size and lines were counted at save: a hundred
   * versions of a 1 MiB script are listed without reading their code.
   */
  list(db: Db, scriptId: string) {
    return db
      .selectFrom('scriptVersions')
      .leftJoin('users', 'users.id', 'scriptVersions.savedBy')
      .select(summaryColumns)
      .select('users.name as savedByName')
      .where('scriptVersions.scriptId', '=', scriptId)
      .orderBy('scriptVersions.number', 'desc')
      .execute();
  },

  find(db: Db, scriptId: string, number: number) {
    return db
      .selectFrom('scriptVersions')
      .leftJoin('users', 'users.id', 'scriptVersions.savedBy')
      .selectAll('scriptVersions')
      .select('users.name as savedByName')
      .where('scriptVersions.scriptId', '=', scriptId)
      .where('scriptVersions.number', '=', number)
      .executeTakeFirst();
  },
};
