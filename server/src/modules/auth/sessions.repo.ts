import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;

export const sessionsRepo = {
  async insert(db: Db, row: SessionRow): Promise<void> {
    await db.insertInto('sessions').values(row).execute();
  },

  /**
   * The session with its user's admin flag and since when they have a second factor (a confirmed
   * authenticator app, else their first passkey; null: none): one read answers both "who" and "may they".
   */
  findByTokenHash(
    db: Db,
    tokenHash: string,
  ): Promise<(SessionRow & { isAdmin: number; twoFactorSince: string | null }) | undefined> {
    return db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .leftJoin('totpFactors', 'totpFactors.userId', 'sessions.userId')
      .selectAll('sessions')
      .select((eb) => [
        'users.isAdmin',
        eb.fn
          .coalesce(
            'totpFactors.confirmedAt',
            eb
              .selectFrom('passkeys')
              .select((sub) => sub.fn.min<string>('passkeys.createdAt').as('since'))
              .whereRef('passkeys.userId', '=', 'sessions.userId'),
          )
          .as('twoFactorSince'),
      ])
      .where('sessions.tokenHash', '=', tokenHash)
      .executeTakeFirst();
  },

  /** Of these sessions, the ones not expired at `now`, each with its user's admin flag. */
  async live(db: Db, ids: string[], now: string): Promise<{ id: string; isAdmin: number }[]> {
    const rows: { id: string; isAdmin: number }[] = [];
    // Chunked: SQLite caps the number of bound parameters in one statement.
    for (let start = 0; start < ids.length; start += 500) {
      rows.push(
        ...(await db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.userId')
          .select(['sessions.id', 'users.isAdmin'])
          .where('sessions.id', 'in', ids.slice(start, start + 500))
          .where('sessions.expiresAt', '>', now)
          .execute()),
      );
    }
    return rows;
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
