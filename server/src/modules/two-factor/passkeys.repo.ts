import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PasskeyChallengesTable, PasskeysTable } from '../../db/schema.ts';

export type PasskeyRow = Selectable<PasskeysTable>;
export type ChallengePurpose = PasskeyChallengesTable['purpose'];

export const passkeysRepo = {
  listOf(db: Db, userId: string): Promise<PasskeyRow[]> {
    return db.selectFrom('passkeys').selectAll().where('userId', '=', userId).orderBy('createdAt').execute();
  },

  async countOf(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  findByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
    return db.selectFrom('passkeys').selectAll().where('credentialId', '=', credentialId).executeTakeFirst();
  },

  /** The account's passkey with this credential id; another account's is not found. */
  findOwned(db: Db, userId: string, credentialId: string): Promise<PasskeyRow | undefined> {
    return db
      .selectFrom('passkeys')
      .selectAll()
      .where('userId', '=', userId)
      .where('credentialId', '=', credentialId)
      .executeTakeFirst();
  },

  async credentialTaken(db: Db, credentialId: string): Promise<boolean> {
    return (
      (await db.selectFrom('passkeys').select('id').where('credentialId', '=', credentialId).executeTakeFirst()) !==
      undefined
    );
  },

  async insert(db: Db, row: PasskeyRow): Promise<void> {
    await db.insertInto('passkeys').values(row).execute();
  },

  /**
   * Records a sign-in with the counter the authenticator reported, only if the stored counter is still
   * the one the assertion was checked against: of two assertions checked at once, one wins.
   */
  async recordUse(db: Db, id: string, seenCounter: number, newCounter: number, now: string): Promise<boolean> {
    const result = await db
      .updateTable('passkeys')
      .set({ counter: newCounter, lastUsedAt: now })
      .where('id', '=', id)
      .where('counter', '=', seenCounter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async remove(db: Db, userId: string, id: string): Promise<boolean> {
    const result = await db.deleteFrom('passkeys').where('userId', '=', userId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },

  async removeAll(db: Db, userId: string): Promise<number> {
    await db.deleteFrom('passkeyChallenges').where('userId', '=', userId).execute();
    const result = await db.deleteFrom('passkeys').where('userId', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** Stores a challenge handed out (null user: a first-factor sign-in), dropping expired ones. */
  async putChallenge(
    db: Db,
    userId: string | null,
    challenge: string,
    purpose: ChallengePurpose,
    now: string,
    expiresAt: string,
  ): Promise<void> {
    await db.deleteFrom('passkeyChallenges').where('expiresAt', '<=', now).execute();
    await db.insertInto('passkeyChallenges').values({ challenge, userId, purpose, expiresAt }).execute();
  },

  /**
   * Deletes the challenge if it is the account's (null: no account's), for this purpose and live;
   * true for the one request that did.
   */
  async spendChallenge(
    db: Db,
    userId: string | null,
    challenge: string,
    purpose: ChallengePurpose,
    now: string,
  ): Promise<boolean> {
    const result = await db
      .deleteFrom('passkeyChallenges')
      .where('challenge', '=', challenge)
      .where('userId', userId === null ? 'is' : '=', userId)
      .where('purpose', '=', purpose)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};
