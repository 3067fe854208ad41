import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import { writeInChunks } from '../../db/bulk-writes.ts';
import type { Db } from '../../db/database.ts';
import type { TotpFactorsTable } from '../../db/schema.ts';

export type TotpFactorRow = Selectable<TotpFactorsTable>;

export const twoFactorRepo = {
  findTotp(db: Db, userId: string): Promise<TotpFactorRow | undefined> {
    return db.selectFrom('totpFactors').selectAll().where('userId', '=', userId).executeTakeFirst();
  },

  /** A new pending factor, replacing any earlier one that was never confirmed. */
  async putPendingTotp(db: Db, userId: string, secretSealed: string, now: string): Promise<void> {
    await db.deleteFrom('totpFactors').where('userId', '=', userId).where('confirmedAt', 'is', null).execute();
    await db
      .insertInto('totpFactors')
      .values({ userId, secretSealed, confirmedAt: null, lastTimeStep: null, createdAt: now })
      .execute();
  },

  /**
   * Records that a code of `timeStep` was accepted, only if no code of that step or a later one was:
   * of two requests carrying the same code, exactly one updates the row. `pending` confirms the
   * factor in the same write.
   */
  async spendTimeStep(db: Db, userId: string, timeStep: number, confirmAt?: string): Promise<boolean> {
    const result = await db
      .updateTable('totpFactors')
      .set({ lastTimeStep: timeStep, ...(confirmAt ? { confirmedAt: confirmAt } : {}) })
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('lastTimeStep', 'is', null), eb('lastTimeStep', '<', timeStep)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async deleteTotp(db: Db, userId: string): Promise<void> {
    await db.deleteFrom('totpFactors').where('userId', '=', userId).execute();
    await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  },

  async replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[], now: string): Promise<void> {
    await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
    await writeInChunks(
      db,
      codeHashes.map((codeHash) => ({ id: crypto.randomUUID(), userId, codeHash, usedAt: null, createdAt: now })),
      (chunk) => db.insertInto('recoveryCodes').values(chunk).execute(),
    );
  },

  /** Marks the code used if it is unused; true for the one request that did. */
  async spendRecoveryCode(db: Db, userId: string, codeHash: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('recoveryCodes')
      .set({ usedAt: now })
      .where('userId', '=', userId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async recoveryCodesLeft(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('recoveryCodes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', userId)
      .where('usedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },
};
