import type {
  ChangeEmailRequest,
  ChangePasswordRequest,
  EndedSessions,
  SudoMethod,
  SudoStatus,
} from '@moonrelay/contract/sessions';
import type { CurrentProof, PasskeyLoginRequest } from '@moonrelay/contract/two-factor';
import type { User } from '@moonrelay/contract/auth';
import { ERRORS, SESSIONS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { requireRecentProof } from '../../http/endpoint.ts';
import type { Principal } from '../../http/context.ts';
import { hashPassword, verifyPassword } from '../../security/passwords.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import type { PasskeysService } from '../two-factor/passkeys.service.ts';
import type { RelyingParty } from '../two-factor/relying-party.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import { usersRepo, type UserRow } from '../users/users.repo.ts';
import type { UsersService } from '../users/users.service.ts';
import type { SessionsService } from './sessions.service.ts';

interface Deps {
  db: Db;
  sessions: SessionsService;
  twoFactor: Pick<
    TwoFactorService,
    'methodsOf' | 'proveCurrent' | 'spendProofAttempt' | 'clearProofAttempts' | 'userOrThrow'
  >;
  passkeys: Pick<PasskeysService, 'signInOptions' | 'verifySignIn'>;
  users: Pick<UsersService, 'toUser'>;
  audit: AuditService;
}

type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/**
 * What a signed-in person does to keep their account theirs: see and end their sessions, prove it is
 * them again before a change that hands the account over (sudo mode, 10 minutes), and change the
 * password (which signs every other session out) or the email.
 */
export function createAccountSecurity(deps: Deps) {
  const { db, sessions, twoFactor, audit } = deps;
  const actorOf = (row: UserRow) => ({ id: row.id, name: row.username });

  /** The ways this account can prove itself: with neither a password nor a factor, only a fresh sign-in. */
  async function sudoMethods(userId: string): Promise<SudoMethod[]> {
    const row = await usersRepo.findById(db, userId);
    if (!row) return [];
    const factors = await twoFactor.methodsOf(userId);
    const methods: SudoMethod[] = [
      ...(row.passwordHash !== null ? (['password'] as const) : []),
      ...(factors.includes('totp') ? (['code'] as const) : []),
      ...(factors.includes('passkey') ? (['passkey'] as const) : []),
    ];
    return methods.length > 0 ? methods : ['sign-in'];
  }

  async function statusOf(userId: string, untilMs: number): Promise<SudoStatus> {
    return { until: untilMs > Date.now() ? new Date(untilMs).toISOString() : null, methods: await sudoMethods(userId) };
  }

  return {
    sudoMethods,

    sudoStatus: (principal: SessionPrincipal) => statusOf(principal.userId, principal.sudoUntilMs ?? 0),

    /** The password, an authenticator code or a recovery code: counted in the account's lockout. */
    async proveWithSecret(principal: SessionPrincipal, proof: CurrentProof): Promise<SudoStatus> {
      const row = await twoFactor.userOrThrow(principal.userId);
      await twoFactor.proveCurrent(row, proof);
      return statusOf(row.id, await sessions.proved(principal.sessionId));
    },

    passkeyOptions: (principal: SessionPrincipal, rp: RelyingParty) =>
      deps.passkeys.signInOptions(principal.userId, rp),

    async proveWithPasskey(
      principal: SessionPrincipal,
      credential: PasskeyLoginRequest['credential'],
      rp: RelyingParty,
    ): Promise<SudoStatus> {
      await twoFactor.spendProofAttempt(principal.userId);
      const refusal = await deps.passkeys.verifySignIn(principal.userId, credential, rp);
      if (refusal !== null) throw new AppError(403, refusal);
      await twoFactor.clearProofAttempts(principal.userId);
      return statusOf(principal.userId, await sessions.proved(principal.sessionId));
    },

    list: (principal: SessionPrincipal) => sessions.list(principal.userId, principal.sessionId),

    async endOne(principal: SessionPrincipal, sessionId: string): Promise<EndedSessions> {
      if (!(await sessions.end(principal.userId, sessionId))) throw new AppError(404, SESSIONS.sessionNotFound);
      return { success: true, ended: 1, message: SESSIONS.endedOne };
    },

    async endOthers(principal: SessionPrincipal): Promise<EndedSessions> {
      const ended = await sessions.endOthers(principal.userId, principal.sessionId);
      const row = await twoFactor.userOrThrow(principal.userId);
      if (ended > 0) {
        await audit.record({
          actor: actorOf(row),
          action: AUDIT_ACTIONS.accountSessionsEnded,
          targetType: 'user',
          targetId: row.id,
          details: { username: row.username, ended },
        });
      }
      return { success: true, ended, message: SESSIONS.endedOthers(ended) };
    },

    /**
     * A new password, proved by the current one (counted in the account's lockout) or by the
     * session's proof from the last 10 minutes. Every other session ends with the old password: a
     * person changes it because someone else may know it.
     */
    async changePassword(
      principal: SessionPrincipal,
      input: ChangePasswordRequest,
      methodsOf: () => Promise<SudoMethod[]>,
    ): Promise<EndedSessions> {
      const row = await twoFactor.userOrThrow(principal.userId);
      if (input.currentPassword !== undefined) {
        if (row.passwordHash === null) throw new AppError(400, SESSIONS.noCurrentPassword);
        await twoFactor.spendProofAttempt(row.id);
        if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
          throw new AppError(403, SESSIONS.wrongCurrentPassword);
        }
        await twoFactor.clearProofAttempts(row.id);
      } else {
        await requireRecentProof(principal, methodsOf);
      }
      if (row.passwordHash !== null && (await verifyPassword(row.passwordHash, input.newPassword))) {
        throw new AppError(400, SESSIONS.samePassword);
      }
      const passwordHash = await hashPassword(input.newPassword);
      const ended = await inTransaction(db, async (trx) => {
        await usersRepo.setPasswordHash(trx, row.id, passwordHash, nowIso());
        return sessions.endOthers(row.id, principal.sessionId, trx);
      });
      await sessions.proved(principal.sessionId);
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountPasswordChanged,
        targetType: 'user',
        targetId: row.id,
        details: { username: row.username, hadPassword: row.passwordHash !== null, endedSessions: ended },
      });
      return { success: true, ended, message: SESSIONS.passwordChanged(ended) };
    },

    /** A new sign-in email (sudo mode is checked by the route). Taken by another account: 409. */
    async changeEmail(principal: SessionPrincipal, input: ChangeEmailRequest): Promise<User> {
      const row = await twoFactor.userOrThrow(principal.userId);
      const email = input.email.toLowerCase();
      if (email === row.email) throw new AppError(400, SESSIONS.sameEmail);
      if ((await usersRepo.existing(db, email, '')).email) throw new AppError(409, ERRORS.emailTaken);
      const now = nowIso();
      try {
        await usersRepo.setEmail(db, row.id, email, now);
      } catch (error) {
        // Another account took it between the check and the write.
        if (uniqueViolation(error) === 'email') throw new AppError(409, ERRORS.emailTaken);
        throw error;
      }
      await audit.record({
        actor: actorOf(row),
        action: AUDIT_ACTIONS.accountEmailChanged,
        targetType: 'user',
        targetId: row.id,
        details: { username: row.username, from: row.email, to: email },
      });
      return deps.users.toUser({ ...row, email, updatedAt: now });
    },
  };
}

export type AccountSecurity = ReturnType<typeof createAccountSecurity>;
