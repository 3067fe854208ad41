import type { EventBus } from '../../platform/event-bus.ts';
import type { User } from '@moonrelay/contract/auth';
import { ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { AUDIT_ACTIONS, type AuditService } from '../audit/audit.service.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import { usersRepo, type UserRow } from './users.repo.ts';

export function createUsersService(deps: {
  db: Db;
  apiKeys: ApiKeysService;
  audit: AuditService;
  bus: EventBus;
  teams: Pick<TeamsService, 'settleBeforeAccountDeletion'>;
}) {
  const { db, apiKeys, audit, bus, teams } = deps;

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

  /** Replaces the user's personal key; `byAdmin` when an admin did it from the Users tab. */
  async function regenerateKey(
    userId: string,
    byAdmin = false,
    createdBy: string | null = null,
  ): Promise<{ apiKey: string; user: User }> {
    const row = await requireRow(userId);
    const apiKey = await apiKeys.issue(userId, undefined, createdBy);
    bus.publish({ type: 'api-key:regenerated', userId, byAdmin });
    return { apiKey, user: await toUser(row, apiKey) };
  }

  return {
    toUser,

    async profile(userId: string): Promise<User> {
      return toUser(await requireRow(userId));
    },

    regenerateKey,

    /**
     * Replaces the account's key: a person's own, or (made by `actorId`, a member) a team's game key.
     * The old key stops at once, and the audit log says who did it.
     */
    async regenerateOwnKey(userId: string, actorId: string = userId): Promise<{ apiKey: string; user: User }> {
      const result = await regenerateKey(userId, false, actorId);
      await audit.record({
        actor: { id: actorId, name: actorId === userId ? result.user.username : null },
        action: AUDIT_ACTIONS.accountKeyRegenerated,
        targetType: 'user',
        targetId: userId,
        teamId: userId,
      });
      return result;
    },

    /** Deletes the account with everything it owns; the audit entry keeps who it was. */
    async deleteOwnAccount(userId: string): Promise<void> {
      const row = await requireRow(userId);
      await teams.settleBeforeAccountDeletion(userId);
      const entry = await inTransaction(db, async (trx) => {
        await usersRepo.delete(trx, userId);
        apiKeys.forget(userId);
        return audit.record(
          {
            actor: { id: userId, name: row.username },
            action: AUDIT_ACTIONS.accountDeleted,
            targetType: 'user',
            targetId: userId,
            details: { username: row.username, email: row.email },
          },
          trx,
        );
      });
      audit.announce(entry);
      bus.publish({ type: 'session:ended', userId });
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
