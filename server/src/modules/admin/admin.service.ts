import type {
  AdminConnection,
  AdminConnectionList,
  AdminUserPage,
  PageQuery,
  RecentExecutionPage,
} from '@moonrelay/contract/admin';
import { roleOf, type AdminTeamPage } from '@moonrelay/contract/teams';
import { isLive } from '../../platform/presence.ts';
import { decodePermissions, listOf } from '../../security/team-permissions.ts';
import { SCOPED_KEYS_PER_USER, type ApiKeyList } from '@moonrelay/contract/api-keys';
import type { ExecutionResponse } from '@moonrelay/contract/executions';
import type { GameCommandRequest, GameCommandResponse, PlayerData } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { Presence } from '../../platform/presence.ts';
import type { ApiKeysService } from '../api-keys/api-keys.service.ts';
import { AUDIT_ACTIONS, AUDIT_CODE_EXCERPT, type AuditActor, type AuditService } from '../audit/audit.service.ts';
import type { ExecutionsService } from '../executions/executions.service.ts';
import { COMMAND_QUEUED } from '../game/commands.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { usersRepo } from '../users/users.repo.ts';
import type { UsersService } from '../users/users.service.ts';
import { adminRepo } from './admin.repo.ts';

/** Saved game servers read for the Connections tab, newest first. */
const SAVED_CONNECTIONS_LIMIT = 1_000;

const codeExcerpt = (code: string) => code.slice(0, AUDIT_CODE_EXCERPT);

/** What the audit keeps of a command: its type and data, with code cut to an excerpt. */
export function commandDetails(command: GameCommandRequest): Record<string, unknown> {
  const data = command.data && 'code' in command.data ? { code: codeExcerpt(command.data.code) } : command.data;
  return { type: command.type, data: data ?? {}, serverId: command.serverId ?? null };
}

/**
 * The admin panel's server side. Routes have already checked that the caller is an admin; this
 * module acts on other users' accounts and games and writes every action to the audit log.
 */
export function createAdminService(deps: {
  db: Db;
  apiKeys: ApiKeysService;
  users: UsersService;
  audit: AuditService;
  presence: Presence;
  gameLink: GameLinkService;
  executions: ExecutionsService;
  luaTools: HttpLuaTools;
  bus: EventBus;
}) {
  const { db, apiKeys, audit, bus } = deps;

  async function requireUser(userId: string) {
    const row = await usersRepo.findById(db, userId);
    if (!row) throw new AppError(404, ERRORS.userNotFound);
    return row;
  }

  return {
    audit: (query: PageQuery) => audit.page(query),

    /** A user's scoped API keys, as they see them in Settings. */
    async apiKeys(userId: string): Promise<ApiKeyList> {
      await requireUser(userId);
      return { items: await apiKeys.list(userId), limit: SCOPED_KEYS_PER_USER };
    },

    /** Revokes one of a user's scoped keys: it stops working at once. Audited. */
    async revokeApiKey(actor: AuditActor, userId: string, keyId: string): Promise<{ success: true; message: string }> {
      const user = await requireUser(userId);
      const revoked = await apiKeys.revoke(userId, keyId);
      await audit.record({
        actor,
        action: AUDIT_ACTIONS.adminApiKeyRevoked,
        targetType: 'user',
        targetId: userId,
        details: { username: user.username, keyId: revoked.id, keyName: revoked.name },
      });
      return { success: true, message: 'API key revoked' };
    },

    async teams(query: PageQuery): Promise<AdminTeamPage> {
      const [rows, total] = await Promise.all([
        adminRepo.teamsPage(db, (query.page - 1) * query.pageSize, query.pageSize),
        adminRepo.countUsers(db, 'team'),
      ]);
      const members = await adminRepo.membersOf(
        db,
        rows.map((row) => row.id),
      );
      const items = rows.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: row.createdAt,
        scriptCount: Number(row.scriptCount ?? 0),
        members: members
          .filter((member) => member.teamId === row.id)
          .map((member) => {
            const permissions = listOf(decodePermissions(member.permissions));
            return { userId: member.userId, username: member.username, role: roleOf(permissions), permissions };
          }),
      }));
      return { items, total, page: query.page, pageSize: query.pageSize };
    },

    async users(query: PageQuery): Promise<AdminUserPage> {
      const [rows, total] = await Promise.all([
        adminRepo.usersPage(db, (query.page - 1) * query.pageSize, query.pageSize),
        adminRepo.countUsers(db),
      ]);
      const items = await Promise.all(
        rows.map(async (row) => ({
          id: row.id,
          name: row.name,
          username: row.username,
          email: row.email,
          isAdmin: row.isAdmin === 1,
          apiKey: await apiKeys.reveal(row.id),
          scriptCount: Number(row.scriptCount ?? 0),
          createdAt: row.createdAt,
        })),
      );
      return { items, total, page: query.page, pageSize: query.pageSize };
    },

    /** Every known game server: live ones from presence, the rest from their last saved ping. */
    async connections(query: PageQuery): Promise<AdminConnectionList> {
      const nowMs = Date.now();
      const byKey = new Map<string, Omit<AdminConnection, 'userName' | 'userEmail' | 'isTeam'>>();
      for (const saved of await adminRepo.savedGameServers(db, SAVED_CONNECTIONS_LIMIT)) {
        byKey.set(`${saved.userId}\n${saved.serverId}`, {
          userId: saved.userId,
          serverId: saved.serverId,
          isConnected: false,
          lastPing: saved.lastPing,
          gameData: saved.gameData ? (JSON.parse(saved.gameData) as PlayerData) : null,
        });
      }
      for (const live of await deps.presence.listAll()) {
        byKey.set(`${live.userId}\n${live.serverId}`, {
          userId: live.userId,
          serverId: live.serverId,
          isConnected: isLive(live, nowMs),
          lastPing: new Date(live.lastPingMs).toISOString(),
          gameData: live.gameData,
        });
      }
      const all = [...byKey.values()].sort(
        (a, b) => Number(b.isConnected) - Number(a.isConnected) || (a.lastPing < b.lastPing ? 1 : -1),
      );
      const pageItems = all.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
      const names = new Map(
        (await adminRepo.namesOf(db, [...new Set(pageItems.map((c) => c.userId))])).map((u) => [u.id, u]),
      );
      const items = pageItems
        .filter((c) => names.has(c.userId))
        .map((c) => {
          const account = names.get(c.userId)!;
          const isTeam = account.kind === 'team';
          // A team's row carries a made-up address only so the accounts table's columns stay filled.
          return { ...c, userName: account.name, userEmail: isTeam ? null : account.email, isTeam };
        });
      return { items, connected: all.filter((c) => c.isConnected).length, total: all.length };
    },

    async recentExecutions(query: PageQuery): Promise<RecentExecutionPage> {
      const [rows, total] = await Promise.all([
        adminRepo.recentExecutionsPage(db, (query.page - 1) * query.pageSize, query.pageSize),
        adminRepo.countExecutions(db),
      ]);
      const items = rows.map((row) => ({
        id: row.id,
        userId: row.userId,
        userName: row.userName,
        targetId: row.userId,
        adminId: row.initiatedBy,
        adminName: row.adminName,
        details: {
          ...(row.scriptName ? { script: row.scriptName } : {}),
          code: codeExcerpt(row.codeExcerpt),
          ...(row.serverId ? { serverId: row.serverId } : {}),
        },
        scriptId: row.scriptId,
        scriptName: row.scriptName,
        target: row.target,
        status: row.status,
        codeExcerpt: row.codeExcerpt,
        output: row.output,
        error: row.error,
        durationMs: row.durationMs,
        createdAt: row.createdAt,
      }));
      return { items, total, page: query.page, pageSize: query.pageSize };
    },

    async regenerateKey(actor: AuditActor, userId: string): Promise<{ newApiKey: string }> {
      await requireUser(userId);
      const { apiKey } = await deps.users.regenerateKey(userId, true);
      await audit.record({ actor, action: AUDIT_ACTIONS.adminKeyRegenerated, targetType: 'user', targetId: userId });
      return { newApiKey: apiKey };
    },

    async command(actor: AuditActor, userId: string, command: GameCommandRequest): Promise<GameCommandResponse> {
      await requireUser(userId);
      if (command.type === 'execute' || command.type === 'script') {
        await deps.luaTools.assertValidSyntax(command.data.code);
      }
      const sent = await deps.gameLink.send(userId, command, 'admin');
      const ids = sent.ids;
      await audit.record({
        actor,
        action: AUDIT_ACTIONS.adminCommandSent,
        targetType: 'user',
        targetId: userId,
        details: { ...commandDetails(command), commandIds: ids },
      });
      return { queued: true, message: COMMAND_QUEUED, ...sent };
    },

    async executeScript(
      actor: AuditActor,
      userId: string,
      code: string,
      serverId?: string,
    ): Promise<ExecutionResponse> {
      await requireUser(userId);
      const result = await deps.executions.runCode(userId, code, 'game', serverId, {
        initiatedBy: actor.id ?? undefined,
      });
      await audit.record({
        actor,
        action: AUDIT_ACTIONS.adminScriptExecuted,
        targetType: 'user',
        targetId: userId,
        details: { code: codeExcerpt(code), executionId: result.executionId, gameConnected: result.gameConnected },
      });
      return result;
    },

    /** Promotes or demotes; the last admin cannot be demoted (checked and changed in one transaction). */
    async setRole(actor: AuditActor, userId: string, isAdmin: boolean): Promise<{ success: true }> {
      const entry = await inTransaction(db, async (trx) => {
        const row = await usersRepo.findById(trx, userId);
        if (!row) throw new AppError(404, ERRORS.userNotFound);
        if (!isAdmin && row.isAdmin === 1 && (await adminRepo.lockAdmins(trx)) <= 1) {
          throw new AppError(409, ERRORS.lastAdmin);
        }
        await usersRepo.setAdmin(trx, userId, isAdmin, nowIso());
        return audit.record(
          {
            actor,
            action: AUDIT_ACTIONS.adminRoleChanged,
            targetType: 'user',
            targetId: userId,
            details: { isAdmin, username: row.username },
          },
          trx,
        );
      });
      audit.announce(entry);
      // Open admin screens of that user gain or lose the admins' live events now, not at their next reconnect.
      bus.publish({ type: 'user:role', userId, isAdmin });
      return { success: true };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
