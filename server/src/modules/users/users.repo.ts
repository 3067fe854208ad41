import { sql, SqliteAdapter, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

/** The advisory lock key that serialises the first-account check ("MRfa" in ASCII). */
const FIRST_ACCOUNT_LOCK = 0x4d526661;

export const usersRepo = {
  async insert(db: Db, row: UserRow): Promise<void> {
    await db.insertInto('users').values(row).execute();
  },

  async count(db: Db): Promise<number> {
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  },

  /** Whether any account exists: one row read, whatever the count. */
  async anyExists(db: Db): Promise<boolean> {
    return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
  },

  /**
   * Whether the account about to be created in this transaction is the instance's first. On
   * PostgreSQL the check holds a transaction-scoped advisory lock first, so registrations that arrive
   * together count one after another (under READ COMMITTED each would otherwise count zero and all
   * become admin); SQLite runs one write transaction at a time anyway.
   */
  async isFirstAccount(trx: Db): Promise<boolean> {
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql`SELECT pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`.execute(trx);
    }
    return (await usersRepo.count(trx)) === 0;
  },

  /**
   * The name a person is shown by where they acted (an audit entry, a run, a share), or null for an
   * account that is gone.
   */
  async usernameOf(db: Db, id: string): Promise<string | null> {
    return (await db.selectFrom('users').select('username').where('id', '=', id).executeTakeFirst())?.username ?? null;
  },

  findById(db: Db, id: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Emails are stored lower-cased and usernames are compared by their lower-cased key. */
  findByEmailOrUsername(db: Db, identifier: string): Promise<UserRow | undefined> {
    const key = identifier.trim().toLowerCase();
    return (
      db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb('email', '=', key), eb('usernameKey', '=', key)]))
        // A team's account is never signed in to: people act on it as its members.
        .where('kind', '=', 'person')
        .executeTakeFirst()
    );
  },

  async existing(db: Db, email: string, usernameKey: string): Promise<{ email: boolean; username: boolean }> {
    const rows = await db
      .selectFrom('users')
      .select(['email', 'usernameKey'])
      .where((eb) => eb.or([eb('email', '=', email), eb('usernameKey', '=', usernameKey)]))
      .execute();
    return {
      email: rows.some((row) => row.email === email),
      username: rows.some((row) => row.usernameKey === usernameKey),
    };
  },

  findByGoogleId(db: Db, googleId: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('googleId', '=', googleId).executeTakeFirst();
  },

  async usernameKeyTaken(db: Db, usernameKey: string): Promise<boolean> {
    const row = await db.selectFrom('users').select('id').where('usernameKey', '=', usernameKey).executeTakeFirst();
    return row !== undefined;
  },

  /**
   * Links (or, with null, unlinks) the identity. Linking only succeeds while the account has none,
   * so two concurrent links cannot overwrite each other; answers whether the row changed.
   */
  async setGoogleId(db: Db, id: string, googleId: string | null, at: string): Promise<boolean> {
    const result = await db
      .updateTable('users')
      .set({ googleId, updatedAt: at })
      .where('id', '=', id)
      .where('googleId', googleId === null ? 'is not' : 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async setPasswordHash(db: Db, id: string, passwordHash: string, at: string): Promise<void> {
    await db.updateTable('users').set({ passwordHash, updatedAt: at }).where('id', '=', id).execute();
  },

  async setEmail(db: Db, id: string, email: string, at: string): Promise<void> {
    await db.updateTable('users').set({ email, updatedAt: at }).where('id', '=', id).execute();
  },

  async setAdmin(db: Db, id: string, isAdmin: boolean, at: string): Promise<void> {
    await db
      .updateTable('users')
      .set({ isAdmin: isAdmin ? 1 : 0, updatedAt: at })
      .where('id', '=', id)
      .execute();
  },

  /** Sessions, the API key and scripts go with it (ON DELETE CASCADE). */
  async delete(db: Db, id: string): Promise<boolean> {
    const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
