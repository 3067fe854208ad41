import QRCode from 'qrcode';
import type { CurrentProof, RecoveryCodes, TotpSetup, TwoFactorStatus } from '@moonrelay/contract/two-factor';
import { TWO_FACTOR, ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import { verifyPassword } from '../../security/passwords.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import {
  hashRecoveryCode,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  totpStepOf,
  totpUri,
} from '../../security/totp.ts';
import { AUDIT_ACTIONS, type AuditActor, type AuditService } from '../audit/audit.service.ts';
import { usersRepo, type UserRow } from '../users/users.repo.ts';
import { passkeysRepo } from './passkeys.repo.ts';
import { twoFactorRepo } from './two-factor.repo.ts';

interface Deps {
  db: Db;
  /** Seals authenticator secrets at rest, under its own label of the server secret. */
  box: SecretBox;
  audit: AuditService;
  /**
   * The login lockout's counter. Proofs asked for in Settings (the password or a code) count under
   * the account's own key, so a stolen session cannot guess its way to turning the factor off.
   */
  attempts: WindowCounter;
  /**
   * The same guesses counted over a day: past the short lockout's budget a few times, the account
   * stays locked until the day's window ends, so guesses at its code cannot go on at a steady pace.
   */
  dailyAttempts: WindowCounter;
  requireForAdmins: boolean;
  /** The name authenticator apps show above the codes. */
  issuer: string;
}

/** Which kind of code proved the second factor. */
export type CodeKind = 'totp' | 'recovery';

/** The second factors an account has, as login's challenge names them. */
export type FactorMethod = 'totp' | 'passkey';

/**
 * An account's second factor: setting up an authenticator app, its recovery codes, and checking a
 * code at sign-in or before a change in Settings.
 */
export function createTwoFactorService(deps: Deps) {
  const { db, box, audit, attempts } = deps;
  const actorOf = (row: UserRow) => ({ id: row.id, name: row.username });

  async function userOrThrow(userId: string): Promise<UserRow> {
    const row = await usersRepo.findById(db, userId);
    if (!row) throw new AppError(401, ERRORS.authenticationFailed);
    return row;
  }

  /**
   * Counts one guess at the account's proof (a code at sign-in, the password or a code in Settings or
   * to confirm it is you), whichever identifier or session it came through: past the short budget
   * 429 until its window ends, and past the day's budget until that one does.
   */
  async function spendProofAttempt(userId: string): Promise<void> {
    // A guess the short lockout refuses is not a guess made: only those it lets through count for the day.
    const short = await attempts.hit(`user:${userId}`);
    const attempt = short.allowed ? await deps.dailyAttempts.hit(`user:${userId}`) : short;
    if (!attempt.allowed) {
      const retryAfter = Math.max(1, Math.ceil(attempt.resetMs / 1000));
      throw new AppError(429, ERRORS.tooManyLoginAttempts(retryAfter), {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
  }

  /** A proof succeeded: the account's guesses start again from nothing. */
  async function clearProofAttempts(userId: string): Promise<void> {
    await attempts.reset(`user:${userId}`);
    await deps.dailyAttempts.reset(`user:${userId}`);
  }

  async function methodsOf(userId: string): Promise<FactorMethod[]> {
    const totp = (await twoFactorRepo.findTotp(db, userId))?.confirmedAt != null;
    const passkeys = await passkeysRepo.countOf(db, userId);
    return [...(totp ? (['totp'] as const) : []), ...(passkeys > 0 ? (['passkey'] as const) : [])];
  }

  async function status(userId: string, isAdmin: boolean): Promise<TwoFactorStatus> {
    const factor = await twoFactorRepo.findTotp(db, userId);
    const totp = factor?.confirmedAt != null;
    const passkeys = await passkeysRepo.countOf(db, userId);
    return {
      totp,
      recoveryCodesLeft: totp ? await twoFactorRepo.recoveryCodesLeft(db, userId) : 0,
      passkeys,
      requiredForAdmins: deps.requireForAdmins,
      setupRequired: deps.requireForAdmins && isAdmin && !totp && passkeys === 0,
    };
  }

  /**
   * Whether `code` is a current authenticator code or an unused recovery code of the account, and
   * spends it: an authenticator code's step and a recovery code are each accepted once, by whichever
   * request records them first.
   */
  async function spendCode(row: UserRow, typed: string): Promise<CodeKind | null> {
    const factor = await twoFactorRepo.findTotp(db, row.id);
    if (factor?.confirmedAt == null) return null;
    const code = typed.replace(/\s/g, '');
    if (/^\d{6}$/.test(code)) {
      const step = await totpStepOf(box.open(factor.secretSealed), code);
      return step !== null && (await twoFactorRepo.spendTimeStep(db, row.id, step)) ? 'totp' : null;
    }
    const recovery = normalizeRecoveryCode(code);
    if (!recovery) return null;
    if (!(await twoFactorRepo.spendRecoveryCode(db, row.id, hashRecoveryCode(recovery), nowIso()))) return null;
    await audit.record({
      actor: actorOf(row),
      action: AUDIT_ACTIONS.accountRecoveryCodeUsed,
      targetType: 'user',
      targetId: row.id,
      details: { username: row.username, left: await twoFactorRepo.recoveryCodesLeft(db, row.id) },
    });
    return 'recovery';
  }

  /**
   * Checks the proof asked for before a change in Settings, counted in the account's lockout: the
   * current password, or a current code (authenticator or recovery). Sent both, either proves it: the
   * one field of Settings takes whichever the user has, and a password that looks like a code is
   * still a password. Throws 403 (or 429) when nothing proves it; answers what did. 'recent': the
   * session proved itself in the last 10 minutes, which the route checked.
   */
  async function proveCurrent(row: UserRow, proof: CurrentProof | 'recent'): Promise<'password' | 'code' | 'recent'> {
    // The session proved itself in the last 10 minutes (sudo mode, checked by the route).
    if (proof === 'recent') return 'recent';
    await spendProofAttempt(row.id);
    let proved: 'password' | 'code' | null = null;
    if (
      proof.password !== undefined &&
      row.passwordHash !== null &&
      (await verifyPassword(row.passwordHash, proof.password))
    )
      proved = 'password';
    else if (proof.code !== undefined && (await spendCode(row, proof.code)) !== null) proved = 'code';
    if (proved === null) {
      const message =
        proof.password !== undefined && proof.code !== undefined
          ? TWO_FACTOR.wrongProof
          : proof.password !== undefined
            ? TWO_FACTOR.wrongPassword
            : TWO_FACTOR.wrongCode;
      throw new AppError(403, message);
    }
    await clearProofAttempts(row.id);
    return proved;
  }

  return {
    status,
    spendCode,
    proveCurrent,
    spendProofAttempt,
    clearProofAttempts,
    methodsOf,
    userOrThrow,

    /** Whether sign-in asks this account for a second factor (an authenticator app or a passkey). */
    async isOn(userId: string): Promise<boolean> {
      return (await methodsOf(userId)).length > 0;
    },

    /**
     * The recovery path of last resort: an admin removes a user's authenticator app, recovery codes
     * and passkeys, so the password alone signs in again. Audited under the admin's name.
     */
    async resetByAdmin(actor: AuditActor, userId: string): Promise<{ success: true; message: string }> {
      const row = await usersRepo.findById(db, userId);
      if (!row) throw new AppError(404, ERRORS.userNotFound);
      const had = await methodsOf(userId);
      const totpPending = (await twoFactorRepo.findTotp(db, userId)) !== undefined;
      if (had.length === 0 && !totpPending) throw new AppError(409, TWO_FACTOR.adminResetNothing);
      const passkeys = await inTransaction(db, async (trx) => {
        await twoFactorRepo.deleteTotp(trx, userId);
        return passkeysRepo.removeAll(trx, userId);
      });
      await audit.record({
        actor,
        action: AUDIT_ACTIONS.adminTwoFactorReset,
        targetType: 'user',
        targetId: userId,
        details: { username: row.username, removed: had, passkeys },
      });
      return { success: true, message: TWO_FACTOR.adminResetDone };
    },

    async startTotp(userId: string, password: string): Promise<TotpSetup> {
      const row = await userOrThrow(userId);
      if (row.passwordHash === null) throw new AppError(409, TWO_FACTOR.noPasswordToConfirm);
      await spendProofAttempt(userId);
      if (!(await verifyPassword(row.passwordHash, password))) throw new AppError(403, TWO_FACTOR.wrongPassword);
      await clearProofAttempts(userId);
      if ((await twoFactorRepo.findTotp(db, userId))?.confirmedAt != null)
        throw new AppError(409, TWO_FACTOR.alreadyOn);
      const secret = newTotpSecret();
      await inTransaction(db, (trx) => twoFactorRepo.putPendingTotp(trx, userId, box.seal(secret), nowIso()));
      const otpauthUrl = totpUri(secret, row.email, deps.issuer);
      return { secret, otpauthUrl, qrCodeDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
    },

    async confirmTotp(userId: string, isAdmin: boolean, code: string): Promise<RecoveryCodes> {
      const row = await userOrThrow(userId);
      const factor = await twoFactorRepo.findTotp(db, userId);
      if (!factor) throw new AppError(409, TWO_FACTOR.noPendingSetup);
      if (factor.confirmedAt !== null) throw new AppError(409, TWO_FACTOR.alreadyOn);
      const step = await totpStepOf(box.open(factor.secretSealed), code.replace(/\s/g, ''));
      if (step === null) throw new AppError(400, TWO_FACTOR.wrongSetupCode);
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const now = nowIso();
      const confirmed = await inTransaction(db, async (trx) => {
        // The step of the confirming code is spent too: it cannot then sign in.
        if (!(await twoFactorRepo.spendTimeStep(trx, userId, step, now))) return false;
        await twoFactorRepo.replaceRecoveryCodes(trx, userId, recoveryCodes.map(hashRecoveryCode), now);
        return true;
      });
      // Another confirmation with the same code got there first.
      if (!confirmed) throw new AppError(409, TWO_FACTOR.alreadyOn);
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountTwoFactorEnabled,
        targetType: 'user',
        targetId: row.id,
        details: { username: row.username, method: 'totp' },
      });
      return { recoveryCodes, status: await status(userId, isAdmin) };
    },

    async disableTotp(userId: string, isAdmin: boolean, proof: CurrentProof | 'recent'): Promise<TwoFactorStatus> {
      const row = await userOrThrow(userId);
      if ((await twoFactorRepo.findTotp(db, userId))?.confirmedAt == null) throw new AppError(409, TWO_FACTOR.notOn);
      const provedWith = await proveCurrent(row, proof);
      await inTransaction(db, (trx) => twoFactorRepo.deleteTotp(trx, userId));
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountTwoFactorDisabled,
        targetType: 'user',
        targetId: row.id,
        details: {
          username: row.username,
          method: 'totp',
          provedWith,
        },
      });
      return status(userId, isAdmin);
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
