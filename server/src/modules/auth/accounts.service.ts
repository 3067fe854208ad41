import crypto from 'node:crypto';
import type { AuthResponse, LoginRequest, RegisterRequest } from '@moonrelay/contract/auth';
import type { LoginResponse, TwoFactorLoginRequest } from '@moonrelay/contract/two-factor';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@moonrelay/contract/constants';
import { ERRORS, TWO_FACTOR } from '@moonrelay/contract/messages';
import { z } from 'zod';
import { inTransaction, type Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { hashPassword, spendPasswordCheck, verifyPassword } from '../../security/passwords.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import { usersRepo, type UserRow } from '../users/users.repo.ts';
import type { UsersService } from '../users/users.service.ts';
import type { VerifiedIdentity } from './oidc-client.ts';
import type { Device, SessionSecondFactor, SessionsService, SignIn } from './sessions.service.ts';
import type { Challenges } from '../two-factor/challenges.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';

interface Deps {
  db: Db;
  users: UsersService;
  sessions: SessionsService;
  apiKeys: ApiKeysService;
  /**
   * Login attempts per identifier typed, counted before the password is checked and cleared by a
   * success; past its limit further attempts are refused until the window ends.
   */
  loginAttempts: WindowCounter;
  audit: AuditService;
  /** Tells the socket hubs of a session ended, so its sockets close at once. */
  bus: EventBus;
  adminEmails: readonly string[];
  twoFactor: Pick<TwoFactorService, 'methodsOf' | 'spendCode' | 'spendProofAttempt' | 'clearProofAttempts'>;
  challenges: Challenges;
}

/**
 * Registration and sign-in. The first account on a fresh instance becomes admin, as does any
 * account whose email is listed in ADMIN_EMAILS (checked at registration and at each login).
 * Login answers the same text, in about the same time, for an unknown account and a wrong password.
 */
export function createAccountsService(deps: Deps) {
  const { db, users, sessions, apiKeys, loginAttempts, adminEmails } = deps;
  const isListedAdmin = (email: string) => adminEmails.includes(email);

  /** Counts one attempt at the identifier's lockout, before anything is checked; 429 past its limit. */
  async function spendLoginAttempt(throttleKey: string) {
    const attempt = await loginAttempts.hit(throttleKey);
    if (!attempt.allowed) {
      const retryAfter = Math.max(1, Math.ceil(attempt.resetMs / 1000));
      throw new AppError(429, ERRORS.tooManyLoginAttempts(retryAfter), {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    return attempt;
  }

  /**
   * The attempt that used the last of the budget locks the identifier: one entry per lockout,
   * since each count is handed out once. A security event worth an admin's look.
   */
  async function recordLockout(row: UserRow, attempt: { remaining: number; limit: number }): Promise<void> {
    if (attempt.remaining !== 0) return;
    await deps.audit.record({
      actor: { id: null, name: null },
      action: AUDIT_ACTIONS.loginLocked,
      targetType: 'user',
      targetId: row.id,
      details: { username: row.username, failures: attempt.limit },
    });
  }

  /** A session for an account that proved itself; ADMIN_EMAILS is applied as at every login. */
  async function signInExisting(row: UserRow, signIn: SignIn): Promise<AuthResponse> {
    if (row.isAdmin === 0 && isListedAdmin(row.email)) {
      await usersRepo.setAdmin(db, row.id, true, nowIso());
      row.isAdmin = 1;
    }
    const token = await sessions.create(row.id, signIn);
    return { token, user: await users.toUser(row) };
  }

  /**
   * After a first step (the password, or the identity provider): an account with a second factor
   * answers a challenge for it, any other a session. Both paths ask the same of the same account.
   */
  async function afterFirstStep(
    row: UserRow,
    via: 'password' | 'google',
    throttleKey: string,
    device: Device,
  ): Promise<LoginResponse> {
    const methods = await deps.twoFactor.methodsOf(row.id);
    if (methods.length > 0) {
      // The count is not cleared by the first step alone: were it, passing it again would win a
      // fresh budget of guesses at the code. The second step clears it.
      return {
        twoFactorRequired: true,
        methods,
        challenge: await deps.challenges.issue({ userId: row.id, throttleKey, via }),
      };
    }
    await loginAttempts.reset(throttleKey);
    return signInExisting(row, { signedInWith: via, secondFactor: null, device });
  }

  /**
   * A username for a new identity: the email's local part (or the name) reduced to the allowed
   * characters and 3 to 30 long, then `_2`, `_3`, ... (and past 20, a random number) until free.
   */
  async function freeUsername(identity: VerifiedIdentity, email: string): Promise<string> {
    const clean = (text: string) => text.replace(/\+.*$/, '').replace(/[^A-Za-z0-9_-]+/g, '');
    let base = clean(email.split('@')[0] ?? '');
    if (base.length < USERNAME_MIN_LENGTH) base = clean((identity.name ?? '').replace(/\s+/g, '_'));
    if (base.length < USERNAME_MIN_LENGTH) base = `user${base}`;
    base = base.slice(0, USERNAME_MAX_LENGTH);
    for (let n = 1; ; n += 1) {
      const suffix = n === 1 ? '' : n <= 20 ? `_${n}` : `_${crypto.randomInt(1000, 1_000_000)}`;
      const candidate = base.slice(0, USERNAME_MAX_LENGTH - suffix.length) + suffix;
      if (!(await usersRepo.usernameKeyTaken(db, candidate.toLowerCase()))) return candidate;
    }
  }

  /**
   * A new account's first moments, in the caller's transaction: the row (an admin if it is the first
   * account or its email is listed in ADMIN_EMAILS), its API key, a session.
   */
  async function openNewAccount(
    trx: Db,
    account: Pick<UserRow, 'email' | 'username' | 'name' | 'passwordHash' | 'googleId'>,
    signIn: SignIn,
  ): Promise<AuthResponse> {
    const isFirstAccount = await usersRepo.isFirstAccount(trx);
    const now = nowIso();
    const row: UserRow = {
      ...account,
      id: crypto.randomUUID(),
      usernameKey: account.username.toLowerCase(),
      isAdmin: isFirstAccount || isListedAdmin(account.email) ? 1 : 0,
      createdAt: now,
      updatedAt: now,
      kind: 'person',
    };
    await usersRepo.insert(trx, row);
    const apiKey = await apiKeys.issue(row.id, trx);
    const token = await sessions.create(row.id, signIn, trx);
    return { token, user: await users.toUser(row, apiKey) };
  }

  /**
   * Finishes a login whose first step passed: the challenge it answered, then the second factor.
   * Each try counts in the identifier's lockout and in the account's own (whichever identifier
   * or provider it came through, with a day's budget besides) before the factor is checked; a
   * refusal answers 401 with why, and only a finished sign-in clears the counts.
   */
  async function secondStep(
    challenge: string,
    factor: SessionSecondFactor,
    prove: (row: UserRow) => Promise<string | null>,
    device: Device,
  ): Promise<AuthResponse> {
    const claims = await deps.challenges.verify(challenge);
    if (!claims) throw new AppError(401, TWO_FACTOR.challengeInvalid);
    const attempt = await spendLoginAttempt(claims.throttleKey);
    await deps.twoFactor.spendProofAttempt(claims.userId);
    const row = await usersRepo.findById(db, claims.userId);
    if (!row) throw new AppError(401, TWO_FACTOR.challengeInvalid);
    const refusal = await prove(row);
    if (refusal !== null) {
      await recordLockout(row, attempt);
      throw new AppError(401, refusal);
    }
    await loginAttempts.reset(claims.throttleKey);
    await deps.twoFactor.clearProofAttempts(row.id);
    return signInExisting(row, { signedInWith: claims.via, secondFactor: factor, device });
  }

  return {
    async register(input: RegisterRequest, device: Device): Promise<AuthResponse> {
      const email = input.email.toLowerCase();
      const usernameKey = input.username.toLowerCase();
      const taken = await usersRepo.existing(db, email, usernameKey);
      if (taken.email) throw new AppError(409, ERRORS.emailTaken);
      if (taken.username) throw new AppError(409, ERRORS.usernameTaken);

      const passwordHash = await hashPassword(input.password);
      try {
        return await inTransaction(db, (trx) =>
          openNewAccount(
            trx,
            { email, username: input.username, name: input.name, passwordHash, googleId: null },
            { signedInWith: 'registration', secondFactor: null, device },
          ),
        );
      } catch (error) {
        // Two registrations raced past the check above.
        const column = uniqueViolation(error);
        if (column === 'email') throw new AppError(409, ERRORS.emailTaken);
        if (column === 'username_key') throw new AppError(409, ERRORS.usernameTaken);
        throw error;
      }
    },

    async login(input: LoginRequest, device: Device): Promise<LoginResponse> {
      // Counted by what was typed, never by the account it names: a lockout that spanned the email and
      // the username would tell whoever locked one that the other belongs to the same account. Each
      // attempt is counted before its password is checked, atomically in the counter's store, so a
      // burst sent at once makes at most the limit's checks however many requests it holds.
      const throttleKey = `name:${input.emailOrUsername.trim().toLowerCase()}`;
      const attempt = await spendLoginAttempt(throttleKey);

      const row = await usersRepo.findByEmailOrUsername(db, input.emailOrUsername);
      const valid =
        row?.passwordHash != null
          ? await verifyPassword(row.passwordHash, input.password)
          : await spendPasswordCheck(input.password);
      if (!row || !valid) {
        if (row) await recordLockout(row, attempt);
        throw new AppError(401, ERRORS.invalidCredentials);
      }
      return afterFirstStep(row, 'password', throttleKey, device);
    },

    /** The second step of a login whose account has two-factor sign-in: the challenge and a code. */
    loginWithCode(input: TwoFactorLoginRequest, device: Device): Promise<AuthResponse> {
      return secondStep(
        input.challenge,
        'code',
        async (row) => ((await deps.twoFactor.spendCode(row, input.code)) === null ? TWO_FACTOR.wrongCode : null),
        device,
      );
    },

    /** The account a live password-step challenge names, or 401: a passkey's options are made for it. */
    async challengedUser(challenge: string): Promise<string> {
      const claims = await deps.challenges.verify(challenge);
      if (!claims) throw new AppError(401, TWO_FACTOR.challengeInvalid);
      return claims.userId;
    },

    /**
     * The second step with a passkey: `prove` checks its answer for the account the challenge names and
     * answers why it was refused, or null. Counted in the same lockout as a code.
     */
    loginWithSecondFactor(
      challenge: string,
      prove: (row: UserRow) => Promise<string | null>,
      device: Device,
    ): Promise<AuthResponse> {
      return secondStep(challenge, 'passkey', prove, device);
    },

    /** A session for the account a passkey that verified its user named ("Sign in with a passkey"). */
    async signInAs(userId: string, device: Device): Promise<AuthResponse> {
      const row = await usersRepo.findById(db, userId);
      if (!row) throw new AppError(401, TWO_FACTOR.passkeyUnknownAnywhere);
      // A passkey that verified its user is both factors.
      return signInExisting(row, { signedInWith: 'passkey', secondFactor: 'passkey', device });
    },

    /**
     * Signs in the account linked to a verified identity, creating one on its first sign-in. An
     * existing account with the same email is never joined on the strength of the email alone
     * (whoever controls the identity's email would take over the account): its owner signs in with
     * the password and links the identity from Settings.
     */
    async signInWithIdentity(identity: VerifiedIdentity, device: Device): Promise<LoginResponse> {
      const linked = await usersRepo.findByGoogleId(db, identity.sub);
      // The provider vouches for the first step only: an account with a second factor is asked for
      // it, as after its password. Guesses count against the identity's own lockout and the account's.
      if (linked) return afterFirstStep(linked, 'google', `identity:${identity.sub}`, device);

      if (!identity.email || identity.emailVerified === false) throw new AppError(400, ERRORS.identityEmailMissing);
      const email = identity.email.toLowerCase();
      if (email.length > EMAIL_MAX_LENGTH || !z.email().safeParse(email).success) {
        throw new AppError(400, ERRORS.identityEmailMissing);
      }
      if ((await usersRepo.existing(db, email, '')).email) throw new AppError(409, ERRORS.identityEmailTaken);

      for (let attempt = 0; ; attempt += 1) {
        const username = await freeUsername(identity, email);
        try {
          return await inTransaction(db, (trx) =>
            openNewAccount(
              trx,
              {
                email,
                username,
                name: (identity.name ?? username).slice(0, NAME_MAX_LENGTH),
                passwordHash: null,
                googleId: identity.sub,
              },
              { signedInWith: 'google', secondFactor: null, device },
            ),
          );
        } catch (error) {
          // A concurrent first sign-in of the same identity won the race: sign in to its account.
          const column = uniqueViolation(error);
          if (column === 'google_id') {
            const winner = await usersRepo.findByGoogleId(db, identity.sub);
            if (winner) return afterFirstStep(winner, 'google', `identity:${identity.sub}`, device);
          }
          if (column === 'email') throw new AppError(409, ERRORS.identityEmailTaken);
          // Someone registered the derived username in between: derive another.
          if (column === 'username_key' && attempt < 3) continue;
          throw error;
        }
      }
    },

    async logout(userId: string, sessionId: string): Promise<void> {
      await sessions.revoke(sessionId);
      deps.bus.publish({ type: 'session:ended', userId, sessionId });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
