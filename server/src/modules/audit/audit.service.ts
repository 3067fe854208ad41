import { TEAM_ACTIVITY_INVALID_CURSOR, type TeamActivityPage, type TeamActivityQuery } from '@moonrelay/contract/teams';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import crypto from 'node:crypto';
import type { AuditEntry, AuditPage, PageQuery } from '@moonrelay/contract/admin';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { auditRepo, type AuditRow } from './audit.repo.ts';

/**
 * What the audit log records (spec: every admin action, and the security events worth a look).
 * Names are `<who>.<what>`: admin.* by an admin in the panel, account.* by users on their own
 * account, security.* by the server, cli.* from the command line, moderation.* by owners (or admins)
 * on the players of their games (the target is the Roblox user id; the owner is in the details),
 * team.* and schedule.* by a team's members (the team's activity log lists them).
 */
export const AUDIT_ACTIONS = {
  adminKeyRegenerated: 'admin.key_regenerated',
  adminCommandSent: 'admin.command_sent',
  adminScriptExecuted: 'admin.script_executed',
  adminMassExecution: 'admin.mass_execution',
  adminRoleChanged: 'admin.role_changed',
  adminApiKeyRevoked: 'admin.api_key_revoked',
  accountKeyRegenerated: 'account.key_regenerated',
  accountDeleted: 'account.deleted',
  accountApiKeyCreated: 'account.api_key_created',
  accountApiKeyRevoked: 'account.api_key_revoked',
  keyChange: 'key.change',
  accountGoogleLinked: 'account.google_linked',
  accountGoogleUnlinked: 'account.google_unlinked',
  accountTwoFactorEnabled: 'account.two_factor_enabled',
  accountTwoFactorDisabled: 'account.two_factor_disabled',
  accountRecoveryCodeUsed: 'account.recovery_code_used',
  accountPasskeyAdded: 'account.passkey_added',
  accountPasskeyRemoved: 'account.passkey_removed',
  adminTwoFactorReset: 'admin.two_factor_reset',
  accountOpenCloudKeySaved: 'account.open_cloud_key_saved',
  accountOpenCloudKeyRemoved: 'account.open_cloud_key_removed',
  accountPasswordChanged: 'account.password_changed',
  accountEmailChanged: 'account.email_changed',
  accountSessionsEnded: 'account.sessions_ended',
  loginLocked: 'security.login_locked',
  cliRoleChanged: 'cli.role_changed',
  /** `npm run admin -- reset-password`: a new password, every session of the account ended. */
  cliPasswordReset: 'cli.password_reset',
  moderationNote: 'moderation.note',
  moderationWarning: 'moderation.warning',
  moderationKick: 'moderation.kick',
  moderationBan: 'moderation.ban',
  moderationBanEdited: 'moderation.ban_edited',
  moderationUnban: 'moderation.unban',
  /** A kick, warning, ban or unban's result came back (applied, or failed with Roblox's error). */
  moderationOutcome: 'moderation.outcome',
  teamCreated: 'team.created',
  teamDeleted: 'team.deleted',
  teamInvitationCreated: 'team.invitation_created',
  teamInvitationRevoked: 'team.invitation_revoked',
  teamMemberJoined: 'team.member_joined',
  teamMemberLeft: 'team.member_left',
  teamMemberRemoved: 'team.member_removed',
  teamMemberChanged: 'team.member_changed',
  /** A schedule set, changed (its timing, target, or paused and resumed) or deleted; runs as its maker. */
  scheduleCreated: 'schedule.created',
  scheduleChanged: 'schedule.changed',
  scheduleDeleted: 'schedule.deleted',
} as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export interface AuditActor {
  id: string | null;
  name: string | null;
}

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  targetType: 'user' | 'batch' | 'player' | 'team' | 'schedule';
  targetId: string | null;
  details?: Record<string, unknown>;
  /** The team (account) the action was made on: its activity log lists the entry. */
  teamId?: string | null;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actorId: row.actorId,
    actorName: row.actorName,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: row.createdAt,
  };
}

/** Code in an audit entry is cut to this many characters: enough to say what ran. */
export const AUDIT_CODE_EXCERPT = 200;

export function createAuditService(deps: { db: Db; bus: EventBus }) {
  const { bus } = deps;
  return {
    /**
     * Appends an entry and tells the admins' screens. Inside a transaction (`on` is one) the entry is
     * only written: the caller announces it after the commit, so no screen reads the state before it.
     */
    async record(entry: AuditRecord, on: Db = deps.db): Promise<AuditEntry> {
      const row: AuditRow = {
        id: crypto.randomUUID(),
        actorId: entry.actor.id,
        actorName: entry.actor.name,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        details: JSON.stringify(entry.details ?? {}),
        createdAt: nowIso(),
        teamId: entry.teamId ?? null,
      };
      await auditRepo.insert(on, row);
      const view = toAuditEntry(row);
      if (!on.isTransaction) bus.publish({ type: 'audit:entry', entry: view });
      return view;
    },

    /** Tells the admins' screens of an entry written inside a transaction that has now committed. */
    /** A team's activity log: its entries, newest first, a page after the cursor. */
    async teamActivity(teamId: string, query: TeamActivityQuery): Promise<TeamActivityPage> {
      const after = decodeCursor(query.cursor, TEAM_ACTIVITY_INVALID_CURSOR);
      const rows = await auditRepo.teamPage(deps.db, teamId, { ...query, after });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toAuditEntry),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last.createdAt, last.id) : null,
      };
    },

    announce(entry: AuditEntry): void {
      bus.publish({ type: 'audit:entry', entry });
    },

    async page(query: PageQuery): Promise<AuditPage> {
      const [rows, total] = await Promise.all([
        auditRepo.page(deps.db, (query.page - 1) * query.pageSize, query.pageSize),
        auditRepo.count(deps.db),
      ]);
      return { items: rows.map(toAuditEntry), total, page: query.page, pageSize: query.pageSize };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
