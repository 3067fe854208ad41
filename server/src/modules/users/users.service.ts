import type { User } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import { usersRepo, type UserRow } from './users.repo.ts';

export function createUsersService(deps: { db: Db; apiKeys: ApiKeysService }) {
  const { db, apiKeys } = deps;

  async function toUser(row: UserRow, apiKey?: string | null): Promise<User> {
    return {
      id: row.id,
      name: row.name,
      username: row.username,
      email: row.email,
      googleId: row.googleId,
      apiKey: apiKey === undefined ? await apiKeys.reveal(row.id) : apiKey,
      createdAt: row.createdAt,
      isAdmin: row.isAdmin === 1,
    };
  }

  async function requireRow(userId: string): Promise<UserRow> {
    const row = await usersRepo.findById(db, userId);
    // The principal was valid a moment ago; the account was deleted in between.
    if (!row) throw new AppError(401, ERRORS.authenticationFailed);
    return row;
  }

  return {
    toUser,

    async profile(userId: string): Promise<User> {
      return toUser(await requireRow(userId));
    },

    async regenerateKey(userId: string): Promise<{ apiKey: string; user: User }> {
      const row = await requireRow(userId);
      const apiKey = await apiKeys.issue(userId);
      return { apiKey, user: await toUser(row, apiKey) };
    },

    async deleteAccount(userId: string): Promise<void> {
      await usersRepo.delete(db, userId);
    },

    /** Makes an account admin; answers undefined when no account matches the email or username. */
    async promote(identifier: string): Promise<UserRow | undefined> {
      const row = await usersRepo.findByEmailOrUsername(db, identifier);
      if (!row) return undefined;
      await usersRepo.setAdmin(db, row.id, true, nowIso());
      return { ...row, isAdmin: 1 };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
