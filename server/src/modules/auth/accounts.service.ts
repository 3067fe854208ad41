import crypto from 'node:crypto';
import type { AuthResponse, LoginRequest, RegisterRequest } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { WindowCounter } from '../../platform/rate-limits.ts';
import { hashPassword, spendPasswordCheck, verifyPassword } from '../../security/passwords.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import { usersRepo } from '../users/users.repo.ts';
import type { UsersService } from '../users/users.service.ts';
import type { SessionsService } from './sessions.service.ts';

interface Deps {
  db: Db;
  users: UsersService;
  sessions: SessionsService;
  apiKeys: ApiKeysService;
  /** Failed logins per account; at its limit further attempts are refused until the window ends. */
  loginFailures: WindowCounter;
  adminEmails: readonly string[];
}

/**
 * Registration and sign-in. The first account on a fresh instance becomes admin, as does any
 * account whose email is listed in ADMIN_EMAILS (checked at registration and at each login).
 * Login answers the same text, in about the same time, for an unknown account and a wrong password.
 */
export function createAccountsService(deps: Deps) {
  const { db, users, sessions, apiKeys, loginFailures, adminEmails } = deps;
  const isListedAdmin = (email: string) => adminEmails.includes(email);

  return {
    async register(input: RegisterRequest): Promise<AuthResponse> {
      const email = input.email.toLowerCase();
      const usernameKey = input.username.toLowerCase();
      const taken = await usersRepo.existing(db, email, usernameKey);
      if (taken.email) throw new AppError(409, ERRORS.emailTaken);
      if (taken.username) throw new AppError(409, ERRORS.usernameTaken);

      const passwordHash = await hashPassword(input.password);
      const now = nowIso();
      try {
        return await inTransaction(db, async (trx) => {
          const isFirstAccount = (await usersRepo.count(trx)) === 0;
          const row = {
            id: crypto.randomUUID(),
            email,
            username: input.username,
            usernameKey,
            name: input.name,
            passwordHash,
            googleId: null,
            isAdmin: isFirstAccount || isListedAdmin(email) ? (1 as const) : (0 as const),
            createdAt: now,
            updatedAt: now,
          };
          await usersRepo.insert(trx, row);
          const apiKey = await apiKeys.issue(row.id, trx);
          const token = await sessions.create(row.id, trx);
          return { token, user: await users.toUser(row, apiKey) };
        });
      } catch (error) {
        // Two registrations raced past the check above.
        const column = uniqueViolation(error);
        if (column === 'email') throw new AppError(409, ERRORS.emailTaken);
        if (column === 'username_key') throw new AppError(409, ERRORS.usernameTaken);
        throw error;
      }
    },

    async login(input: LoginRequest): Promise<AuthResponse> {
      const row = await usersRepo.findByEmailOrUsername(db, input.emailOrUsername);
      // Throttle by account when it exists (so email and username share one budget), else by what was typed.
      const throttleKey = row ? `user:${row.id}` : `name:${input.emailOrUsername.trim().toLowerCase()}`;
      const throttle = await loginFailures.peek(throttleKey);
      if (!throttle.allowed) {
        const retryAfter = String(Math.max(1, Math.ceil(throttle.resetMs / 1000)));
        throw new AppError(429, ERRORS.tooManyLoginAttempts, { headers: { 'Retry-After': retryAfter } });
      }

      const valid =
        row?.passwordHash != null
          ? await verifyPassword(row.passwordHash, input.password)
          : await spendPasswordCheck(input.password);
      if (!row || !valid) {
        await loginFailures.hit(throttleKey);
        throw new AppError(401, ERRORS.invalidCredentials);
      }
      await loginFailures.reset(throttleKey);

      if (row.isAdmin === 0 && isListedAdmin(row.email)) {
        await usersRepo.setAdmin(db, row.id, true, nowIso());
        row.isAdmin = 1;
      }
      const token = await sessions.create(row.id);
      return { token, user: await users.toUser(row) };
    },

    logout(sessionId: string): Promise<void> {
      return sessions.revoke(sessionId);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
