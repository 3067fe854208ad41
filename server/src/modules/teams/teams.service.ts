import crypto from 'node:crypto';
import {
  INVITATION_LIFETIME_HOURS,
  MEMBERS_PER_TEAM,
  ROLE_PERMISSIONS,
  roleOf,
  TEAM_ERRORS,
  TEAMS_PER_PERSON,
  type CreatedInvitation,
  type InvitationPreview,
  type Grant,
  type TeamDetails,
  type TeamInvitation,
  type TeamMember,
  type TeamPermission,
  type TeamSummary,
} from '@moonrelay/contract/teams';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import { sha256Hex } from '../../security/digest.ts';
import {
  ALL_PERMISSIONS_TEXT,
  decodePermissions,
  encodePermissions,
  holds,
  listOf,
  missingPermission,
  type HeldPermissions,
} from '../../security/team-permissions.ts';
import { AUDIT_ACTIONS, type AuditAction, type AuditService } from '../audit/audit.service.ts';
import { teamsRepo, type InvitationRow } from './teams.repo.ts';
import { usersRepo } from '../users/users.repo.ts';

/** Who is changing a team: the person, and what they hold in it now. */
export interface TeamActor {
  userId: string;
  held: HeldPermissions;
}

const permissionsOfGrant = (grant: Grant): TeamPermission[] =>
  grant.role ? [...ROLE_PERMISSIONS[grant.role]] : [...new Set(grant.permissions ?? [])];

/** A member may hand out, or change a member who has, only permissions they hold themself. */
function requireHeld(actor: TeamActor, permissions: Iterable<TeamPermission>): void {
  for (const permission of permissions) {
    if (!holds(actor.held, permission)) throw new AppError(403, TEAM_ERRORS.cannotGrant);
  }
}

export function createTeamsService(deps: { db: Db; bus: EventBus; audit: Pick<AuditService, 'record'> }) {
  const { db, bus, audit } = deps;
  /** An entry of the team's activity log, naming the person who acted. */
  const record = async (teamId: string, actorId: string, action: AuditAction, details: Record<string, unknown>) => {
    await audit.record({
      actor: { id: actorId, name: await usersRepo.usernameOf(db, actorId) },
      action,
      targetType: 'team',
      targetId: teamId,
      teamId,
      details,
    });
  };
  /**
   * Told on the bus: the person's open sockets are judged again and their keys' bounds read afresh,
   * on every instance, and the team's notifications say what happened.
   */
  const changed = async (
    teamId: string,
    userId: string,
    change: 'joined' | 'left' | 'removed' | 'changed' | 'deleted',
    permissions: readonly TeamPermission[] | null,
  ) => {
    const username = await usersRepo.usernameOf(db, userId);
    bus.publish({
      type: 'team:membership',
      teamId,
      userId,
      change,
      username,
      role: permissions ? roleOf(permissions) : null,
    });
  };

  async function personalSummary(userId: string): Promise<TeamSummary> {
    const person = await db
      .selectFrom('users')
      .select(['id', 'name', 'createdAt'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      id: person.id,
      name: person.name,
      personal: true,
      role: 'owner',
      permissions: listOf('all'),
      members: 1,
      createdAt: person.createdAt,
    };
  }

  const toInvitation = (row: InvitationRow): TeamInvitation => {
    const permissions = listOf(decodePermissions(row.permissions));
    return {
      id: row.id,
      role: roleOf(permissions),
      permissions,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    };
  };

  /** The team's row, if the person is one of its members; 404 otherwise (the same for a team that does not exist). */
  async function teamOf(teamId: string) {
    const team = await teamsRepo.team(db, teamId);
    if (!team) throw new AppError(404, TEAM_ERRORS.notFound);
    return team;
  }

  /**
   * Judges a change of a member's permissions inside the team's lock: the change itself, then
   * that an owner remains. Answers the member's old permissions.
   */
  async function changeUnderLock(
    trx: Db,
    teamId: string,
    asking: TeamActor,
    userId: string,
    next: TeamPermission[] | null,
  ): Promise<ReadonlySet<TeamPermission>> {
    if (!(await teamsRepo.lockTeam(trx, teamId))) throw new AppError(404, TEAM_ERRORS.notFound);
    // What the actor holds is read again under the lock: a change that landed first (another owner
    // demoting them a moment ago) counts.
    const actorNow = await teamsRepo.permissionsOf(trx, teamId, asking.userId);
    if (actorNow === undefined) throw new AppError(404, TEAM_ERRORS.notFound);
    const actor: TeamActor = { userId: asking.userId, held: decodePermissions(actorNow) };
    if (userId !== actor.userId && !holds(actor.held, 'members.manage')) {
      throw new AppError(403, missingPermission('members.manage'));
    }
    const current = await teamsRepo.permissionsOf(trx, teamId, userId);
    if (current === undefined) throw new AppError(404, TEAM_ERRORS.memberNotFound);
    const before = decodePermissions(current);
    // Leaving needs nothing; changing someone else needs to hold what they hold.
    if (userId !== actor.userId) requireHeld(actor, before);
    if (next) requireHeld(actor, next);
    const wasOwner = current === ALL_PERMISSIONS_TEXT;
    const staysOwner = next !== null && encodePermissions(next) === ALL_PERMISSIONS_TEXT;
    if (wasOwner && !staysOwner && (await teamsRepo.countOwners(trx, teamId, ALL_PERMISSIONS_TEXT)) <= 1) {
      throw new AppError(409, TEAM_ERRORS.lastOwner);
    }
    if (next) await teamsRepo.setPermissions(trx, teamId, userId, encodePermissions(next));
    else await teamsRepo.removeMember(trx, teamId, userId);
    return before;
  }

  return {
    /**
     * What the person holds on the team: 'all' on their own account, their membership's permissions
     * on a team, null when they are not a member (or the team does not exist). Read on every
     * request that names a team, so a removal or a change counts from the very next one.
     */
    async accessOf(userId: string, teamId: string): Promise<HeldPermissions | null> {
      if (teamId === userId) return 'all';
      const stored = await teamsRepo.permissionsOf(db, teamId, userId);
      return stored === undefined ? null : decodePermissions(stored);
    },

    /** The person's teams: their personal team first. */
    async list(userId: string): Promise<TeamSummary[]> {
      const teams = (await teamsRepo.memberships(db, userId)).map((row): TeamSummary => {
        const permissions = listOf(decodePermissions(row.permissions));
        return {
          id: row.teamId,
          name: row.name,
          personal: false,
          role: roleOf(permissions),
          permissions,
          members: row.members,
          createdAt: row.createdAt,
        };
      });
      return [await personalSummary(userId), ...teams];
    },

    async create(userId: string, name: string): Promise<TeamSummary> {
      const id = crypto.randomUUID();
      const now = nowIso();
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('users')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', userId)
          .execute();
        if ((await teamsRepo.countOwned(trx, userId, ALL_PERMISSIONS_TEXT)) >= TEAMS_PER_PERSON) {
          throw new AppError(409, TEAM_ERRORS.tooManyTeams);
        }
        // A team account has no way to sign in: no password, no identity provider, and an address
        // and username key no person can register (the .invalid domain, a ':' in the key).
        await trx
          .insertInto('users')
          .values({
            id,
            email: `team-${id}@teams.moonrelay.invalid`,
            username: name,
            usernameKey: `team:${id}`,
            name,
            passwordHash: null,
            googleId: null,
            isAdmin: 0,
            kind: 'team',
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        await teamsRepo.addMember(trx, { teamId: id, userId, permissions: ALL_PERMISSIONS_TEXT, joinedAt: now });
      });
      await record(id, userId, AUDIT_ACTIONS.teamCreated, { name });
      return { id, name, personal: false, role: 'owner', permissions: listOf('all'), members: 1, createdAt: now };
    },

    async details(teamId: string, viewer: TeamActor): Promise<TeamDetails> {
      if (teamId === viewer.userId) {
        const personal = await personalSummary(teamId);
        const me = await db
          .selectFrom('users')
          .select(['id', 'name', 'username', 'createdAt'])
          .where('id', '=', teamId)
          .executeTakeFirstOrThrow();
        return {
          ...personal,
          memberList: [
            {
              userId: me.id,
              name: me.name,
              username: me.username,
              role: 'owner',
              permissions: listOf('all'),
              joinedAt: me.createdAt,
            },
          ],
          invitations: [],
        };
      }
      const team = await teamOf(teamId);
      const memberList = (await teamsRepo.members(db, teamId)).map((row): TeamMember => {
        const permissions = listOf(decodePermissions(row.permissions));
        return { ...row, role: roleOf(permissions), permissions };
      });
      const invitations = holds(viewer.held, 'members.manage')
        ? (await teamsRepo.openInvitations(db, teamId, nowIso())).map(toInvitation)
        : [];
      const permissions = listOf(viewer.held);
      return {
        id: team.id,
        name: team.name,
        personal: false,
        role: roleOf(permissions),
        permissions,
        members: memberList.length,
        createdAt: team.createdAt,
        memberList,
        invitations,
      };
    },

    async invite(teamId: string, actor: TeamActor, grant: Grant): Promise<CreatedInvitation> {
      if (teamId === actor.userId) throw new AppError(409, TEAM_ERRORS.personalTeam);
      const permissions = permissionsOfGrant(grant);
      requireHeld(actor, permissions);
      const token = crypto.randomBytes(24).toString('base64url');
      const now = new Date();
      const row: InvitationRow = {
        id: crypto.randomUUID(),
        teamId,
        tokenHash: sha256Hex(token),
        permissions: encodePermissions(permissions),
        createdBy: actor.userId,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_HOURS * 3600_000).toISOString(),
        usedAt: null,
        usedBy: null,
      };
      await inTransaction(db, async (trx) => {
        if (!(await teamsRepo.lockTeam(trx, teamId))) throw new AppError(404, TEAM_ERRORS.notFound);
        if ((await teamsRepo.countSeats(trx, teamId, row.createdAt)) >= MEMBERS_PER_TEAM) {
          throw new AppError(409, TEAM_ERRORS.tooManyMembers);
        }
        await teamsRepo.insertInvitation(trx, row);
      });
      const invitation = toInvitation(row);
      await record(teamId, actor.userId, AUDIT_ACTIONS.teamInvitationCreated, {
        invitationId: row.id,
        role: invitation.role,
        permissions: invitation.permissions,
      });
      return { ...invitation, token };
    },

    async revokeInvitation(teamId: string, actor: TeamActor, invitationId: string): Promise<void> {
      if (!(await teamsRepo.deleteInvitation(db, teamId, invitationId))) {
        throw new AppError(404, TEAM_ERRORS.invitationInvalid);
      }
      await record(teamId, actor.userId, AUDIT_ACTIONS.teamInvitationRevoked, { invitationId });
    },

    /** What the link offers, checked as joining would check it, using nothing up. */
    async preview(token: string): Promise<InvitationPreview> {
      const invitation = await teamsRepo.invitationByHash(db, sha256Hex(token));
      if (!invitation) throw new AppError(404, TEAM_ERRORS.invitationInvalid);
      if (invitation.usedAt) throw new AppError(410, TEAM_ERRORS.invitationUsed);
      if (invitation.expiresAt <= nowIso()) throw new AppError(410, TEAM_ERRORS.invitationExpired);
      const team = await teamsRepo.team(db, invitation.teamId);
      if (!team) throw new AppError(404, TEAM_ERRORS.invitationInvalid);
      const invitedBy = await usersRepo.usernameOf(db, invitation.createdBy);
      const permissions = listOf(decodePermissions(invitation.permissions));
      return {
        teamName: team.name,
        role: roleOf(permissions),
        permissions,
        invitedBy,
        expiresAt: invitation.expiresAt,
      };
    },

    /** Joins the team the link invites into, once: two people with one link, one of them joins. */
    async accept(userId: string, token: string): Promise<TeamSummary> {
      const invitation = await teamsRepo.invitationByHash(db, sha256Hex(token));
      if (!invitation) throw new AppError(404, TEAM_ERRORS.invitationInvalid);
      if (invitation.usedAt) throw new AppError(410, TEAM_ERRORS.invitationUsed);
      if (invitation.expiresAt <= nowIso()) throw new AppError(410, TEAM_ERRORS.invitationExpired);
      const now = nowIso();
      await inTransaction(db, async (trx) => {
        if (!(await teamsRepo.lockTeam(trx, invitation.teamId))) throw new AppError(404, TEAM_ERRORS.invitationInvalid);
        if ((await teamsRepo.permissionsOf(trx, invitation.teamId, userId)) !== undefined) {
          throw new AppError(409, TEAM_ERRORS.alreadyMember);
        }
        if (!(await teamsRepo.useInvitation(trx, invitation.id, userId, now))) {
          throw new AppError(410, TEAM_ERRORS.invitationUsed);
        }
        await teamsRepo.addMember(trx, {
          teamId: invitation.teamId,
          userId,
          permissions: invitation.permissions,
          joinedAt: now,
        });
      });
      const joinedAs = listOf(decodePermissions(invitation.permissions));
      await changed(invitation.teamId, userId, 'joined', joinedAs);
      await record(invitation.teamId, userId, AUDIT_ACTIONS.teamMemberJoined, {
        invitationId: invitation.id,
        role: roleOf(joinedAs),
        permissions: joinedAs,
      });
      const summary = (await this.list(userId)).find((team) => team.id === invitation.teamId);
      if (!summary) throw new AppError(404, TEAM_ERRORS.notFound);
      return summary;
    },

    async updateMember(teamId: string, actor: TeamActor, userId: string, grant: Grant): Promise<TeamMember> {
      if (teamId === actor.userId) throw new AppError(409, TEAM_ERRORS.personalTeam);
      const next = permissionsOfGrant(grant);
      const before = await inTransaction(db, (trx) => changeUnderLock(trx, teamId, actor, userId, next));
      await changed(teamId, userId, 'changed', next);
      await record(teamId, actor.userId, AUDIT_ACTIONS.teamMemberChanged, {
        userId,
        from: roleOf(listOf(before)),
        to: roleOf(next),
        permissions: listOf(new Set(next)),
      });
      const member = (await teamsRepo.members(db, teamId)).find((row) => row.userId === userId);
      if (!member) throw new AppError(404, TEAM_ERRORS.memberNotFound);
      const permissions = listOf(decodePermissions(member.permissions));
      return { ...member, role: roleOf(permissions), permissions };
    },

    /** Removes a member, or (their own id) leaves. Removing someone else needs members.manage. */
    async removeMember(teamId: string, actor: TeamActor, userId: string): Promise<void> {
      if (teamId === actor.userId) throw new AppError(409, TEAM_ERRORS.personalTeam);
      if (userId !== actor.userId && !holds(actor.held, 'members.manage')) {
        throw new AppError(403, missingPermission('members.manage'));
      }
      await inTransaction(db, (trx) => changeUnderLock(trx, teamId, actor, userId, null));
      const left = userId === actor.userId;
      await changed(teamId, userId, left ? 'left' : 'removed', null);
      await record(teamId, actor.userId, left ? AUDIT_ACTIONS.teamMemberLeft : AUDIT_ACTIONS.teamMemberRemoved, {
        userId,
      });
    },

    async remove(teamId: string, actor: TeamActor): Promise<void> {
      if (teamId === actor.userId) throw new AppError(409, TEAM_ERRORS.personalTeam);
      const members = await teamsRepo.members(db, teamId);
      if (!(await teamsRepo.deleteTeam(db, teamId))) throw new AppError(404, TEAM_ERRORS.notFound);
      for (const member of members) await changed(teamId, member.userId, 'deleted', null);
      await record(teamId, actor.userId, AUDIT_ACTIONS.teamDeleted, { members: members.length });
    },

    /**
     * Before a person's account goes: the teams they alone own go with it when nobody else is in
     * them; a team with other members must first get another owner (409 naming it), as on GitHub.
     */
    async settleBeforeAccountDeletion(userId: string): Promise<void> {
      const owned = await teamsRepo.soleOwnerOf(db, userId, ALL_PERMISSIONS_TEXT);
      for (const team of owned) {
        if ((await teamsRepo.members(db, team.id)).length > 1) {
          throw new AppError(409, `${TEAM_ERRORS.lastOwnerOfPrefix}${team.name}: make another member its owner first`);
        }
      }
      for (const team of owned) await teamsRepo.deleteTeam(db, team.id);
    },
  };
}

export type TeamsService = ReturnType<typeof createTeamsService>;
