import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;

export const sessionsRepo = {
  async insert(db: Db, row: SessionRow): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  /** The session with its user's admin flag: one read answers both "who" and "may they". */
  findByTokenHash(db: Db, tokenHash: string): Promise<(SessionRow & { isAdmin: number }) | undefined> {
    return db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .selectAll('sessions')
      .select('users.isAdmin')
      .where('sessions.tokenHash', '=', tokenHash)
      .executeTakeFirst();
  },

  async touch(db: Db, id: string, lastUsedAt: string, expiresAt: string): Promise<void> {
    await db.updateTable('sessions').set({ lastUsedAt, expiresAt }).where('id', '=', id).execute();
  },

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  async deleteExpired(db: Db, now: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('expiresAt', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
