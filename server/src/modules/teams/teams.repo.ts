import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TeamInvitationsTable } from '../../db/schema.ts';

export type InvitationRow = Selectable<TeamInvitationsTable>;

export interface MembershipRow {
  teamId: string;
  name: string;
  permissions: string;
  createdAt: string;
  members: number;
}

export interface MemberRow {
  userId: string;
  name: string;
  username: string;
  permissions: string;
  joinedAt: string;
}

export const teamsRepo = {
  /** The teams (not the personal one) a person belongs to, with their permissions in each. */
  async memberships(db: Db, userId: string): Promise<MembershipRow[]> {
    const rows = await db
      .selectFrom('teamMembers')
      .innerJoin('users', 'users.id', 'teamMembers.teamId')
      .select((eb) => [
        'teamMembers.teamId',
        'users.name',
        'teamMembers.permissions',
        'users.createdAt',
        eb
          .selectFrom('teamMembers as counted')
          .select((count) => count.fn.countAll<string | number>().as('n'))
          .whereRef('counted.teamId', '=', 'users.id')
          .as('members'),
      ])
      .where('teamMembers.userId', '=', userId)
      .orderBy('users.name')
      .orderBy('users.id')
      .execute();
    return rows.map((row) => ({ ...row, members: Number(row.members ?? 0) }));
  },

  async permissionsOf(db: Db, teamId: string, userId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('teamMembers')
      .select('permissions')
      .where('teamId', '=', teamId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row?.permissions;
  },

  team(db: Db, teamId: string) {
    return db
      .selectFrom('users')
      .select(['id', 'name', 'createdAt'])
      .where('id', '=', teamId)
      .where('kind', '=', 'team')
      .executeTakeFirst();
  },

  members(db: Db, teamId: string): Promise<MemberRow[]> {
    return db
      .selectFrom('teamMembers')
      .innerJoin('users', 'users.id', 'teamMembers.userId')
      .select(['teamMembers.userId', 'users.name', 'users.username', 'teamMembers.permissions', 'teamMembers.joinedAt'])
      .where('teamMembers.teamId', '=', teamId)
      .orderBy('teamMembers.joinedAt')
      .orderBy('teamMembers.userId')
      .execute();
  },

  /** Teams a person holds every permission of (their personal team aside): what the creation limit counts. */
  async countOwned(db: Db, userId: string, allPermissions: string): Promise<number> {
    const row = await db
      .selectFrom('teamMembers')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('userId', '=', userId)
      .where('permissions', '=', allPermissions)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /** Members and open invitations of a team: what the size limit counts. */
  async countSeats(db: Db, teamId: string, now: string): Promise<number> {
    const members = await db
      .selectFrom('teamMembers')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('teamId', '=', teamId)
      .executeTakeFirstOrThrow();
    const open = await db
      .selectFrom('teamInvitations')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('teamId', '=', teamId)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirstOrThrow();
    return Number(members.count) + Number(open.count);
  },

  /** Holders of every permission: a team's owners. */
  async countOwners(db: Db, teamId: string, allPermissions: string): Promise<number> {
    const row = await db
      .selectFrom('teamMembers')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('teamId', '=', teamId)
      .where('permissions', '=', allPermissions)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  /**
   * Takes the team's row lock for the rest of the transaction, so that two changes of its members
   * (two owners demoting each other) are judged one after the other (PostgreSQL row lock; SQLite
   * writes one transaction at a time anyway).
   */
  async lockTeam(trx: Db, teamId: string): Promise<boolean> {
    const result = await trx
      .updateTable('users')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', teamId)
      .where('kind', '=', 'team')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  addMember(db: Db, row: { teamId: string; userId: string; permissions: string; joinedAt: string }) {
    return db.insertInto('teamMembers').values(row).execute();
  },

  async setPermissions(db: Db, teamId: string, userId: string, permissions: string): Promise<boolean> {
    const result = await db
      .updateTable('teamMembers')
      .set({ permissions })
      .where('teamId', '=', teamId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async removeMember(db: Db, teamId: string, userId: string): Promise<boolean> {
    const result = await db
      .deleteFrom('teamMembers')
      .where('teamId', '=', teamId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  insertInvitation(db: Db, row: InvitationRow) {
    return db.insertInto('teamInvitations').values(row).execute();
  },

  openInvitations(db: Db, teamId: string, now: string): Promise<InvitationRow[]> {
    return db
      .selectFrom('teamInvitations')
      .selectAll()
      .where('teamId', '=', teamId)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .execute();
  },

  invitationByHash(db: Db, tokenHash: string): Promise<InvitationRow | undefined> {
    return db.selectFrom('teamInvitations').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
  },

  /** Uses the invitation up, if nobody has yet: true for the one caller that did. */
  async useInvitation(db: Db, id: string, userId: string, at: string): Promise<boolean> {
    const result = await db
      .updateTable('teamInvitations')
      .set({ usedAt: at, usedBy: userId })
      .where('id', '=', id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async deleteInvitation(db: Db, teamId: string, id: string): Promise<boolean> {
    const result = await db
      .deleteFrom('teamInvitations')
      .where('id', '=', id)
      .where('teamId', '=', teamId)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async deleteTeam(db: Db, teamId: string): Promise<boolean> {
    const result = await db.deleteFrom('users').where('id', '=', teamId).where('kind', '=', 'team').executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Teams where the person is the only holder of every permission and other members remain. */
  soleOwnerOf(db: Db, userId: string, allPermissions: string) {
    return db
      .selectFrom('teamMembers as mine')
      .innerJoin('users', 'users.id', 'mine.teamId')
      .select(['users.id', 'users.name'])
      .where('mine.userId', '=', userId)
      .where('mine.permissions', '=', allPermissions)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('teamMembers as other')
              .select('other.userId')
              .whereRef('other.teamId', '=', 'mine.teamId')
              .where('other.userId', '!=', userId)
              .where('other.permissions', '=', allPermissions),
          ),
        ),
      )
      .execute();
  },
};
