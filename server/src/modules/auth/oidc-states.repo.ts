import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OidcStatesTable } from '../../db/schema.ts';

export type OidcStateRow = Selectable<OidcStatesTable>;

export const oidcStatesRepo = {
  async insert(db: Db, row: OidcStateRow): Promise<void> {
    await db.insertInto('oidcStates').values(row).execute();
  },

  /**
   * Reads and removes the attempt in one statement, so two requests carrying the same state
   * cannot both redeem it (on either engine: DELETE ... RETURNING).
   */
  take(db: Db, stateHash: string): Promise<OidcStateRow | undefined> {
    return db.deleteFrom('oidcStates').where('stateHash', '=', stateHash).returningAll().executeTakeFirst();
  },

  async deleteExpired(db: Db, now: string): Promise<number> {
    const result = await db.deleteFrom('oidcStates').where('expiresAt', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
