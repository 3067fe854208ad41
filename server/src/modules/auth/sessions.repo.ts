import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SessionsTable } from '../../db/schema.ts';
import { whereInChunks } from '../../db/bulk-writes.ts';

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

  /** Of these sessions, the ones not expired at `now`, each with its user's admin flag and how it signed in. */
  live(db: Db, ids: string[], now: string): Promise<{ id: string; isAdmin: number; secondFactor: string | null }[]> {
    return whereInChunks(db, ids, (chunk) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.userId')
        .select(['sessions.id', 'users.isAdmin', 'sessions.secondFactor'])
        .where('sessions.id', 'in', chunk)
        .where('sessions.expiresAt', '>', now)
        .execute(),
    );
  },

  /**
   * The account's sessions not expired at `now`, most recently used first, at most `limit` (a
   * script that signs in on every run leaves hundreds; "sign out all others" ends them all).
   */
  listOf(db: Db, userId: string, now: string, limit: number): Promise<SessionRow[]> {
    return db
      .selectFrom('sessions')
      .selectAll()
      .where('userId', '=', userId)
      .where('expiresAt', '>', now)
      .orderBy('lastUsedAt', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async touch(db: Db, id: string, lastUsedAt: string, expiresAt: string, lastAddress: string | null): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ lastUsedAt, expiresAt, ...(lastAddress ? { lastAddress } : {}) })
      .where('id', '=', id)
      .execute();
  },

  async setProved(db: Db, id: string, provedAt: string): Promise<void> {
    await db.updateTable('sessions').set({ provedAt }).where('id', '=', id).execute();
  },

  async setSecondFactor(db: Db, id: string, secondFactor: string): Promise<void> {
    await db.updateTable('sessions').set({ secondFactor }).where('id', '=', id).execute();
  },

  async delete(db: Db, id: string): Promise<void> {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
  },

  /** Deletes one session of this user; answers whether it was theirs and existed. */
  async deleteOf(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('sessions').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Deletes every session of the user but `keepId`; answers how many live ones ended. */
  async deleteOthers(db: Db, userId: string, keepId: string, now: string): Promise<number> {
    const live = await db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .where('id', '!=', keepId)
      .where('expiresAt', '>', now)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('sessions').where('userId', '=', userId).where('id', '!=', keepId).execute();
    return Number(live.count);
  },

  async deleteExpired(db: Db, now: string): Promise<number> {
    const result = await db.deleteFrom('sessions').where('expiresAt', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
