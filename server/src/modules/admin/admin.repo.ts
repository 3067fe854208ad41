import { SqliteAdapter } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The admin panel's reads across users: every query is paged or bounded. */
export const adminRepo = {
  usersPage(db: Db, offset: number, limit: number) {
    return (
      db
        .selectFrom('users')
        .select((eb) => [
          'users.id',
          'users.name',
          'users.username',
          'users.email',
          'users.isAdmin',
          'users.createdAt',
          eb
            .selectFrom('scripts')
            .select((sub) => sub.fn.countAll<string | number>().as('count'))
            .whereRef('scripts.userId', '=', 'users.id')
            .as('scriptCount'),
        ])
        // People only: a team's account is listed on the Teams tab (docs/decisions/049).
        .where('users.kind', '=', 'person')
        .orderBy('users.createdAt', 'desc')
        .orderBy('users.id')
        .offset(offset)
        .limit(limit)
        .execute()
    );
  },

  async countUsers(db: Db, kind: 'person' | 'team' = 'person'): Promise<number> {
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('kind', '=', kind)
      .executeTakeFirstOrThrow();
    return Number(count);
  },

  teamsPage(db: Db, offset: number, limit: number) {
    return db
      .selectFrom('users')
      .select((eb) => [
        'users.id',
        'users.name',
        'users.createdAt',
        eb
          .selectFrom('scripts')
          .select((sub) => sub.fn.countAll<string | number>().as('count'))
          .whereRef('scripts.userId', '=', 'users.id')
          .as('scriptCount'),
      ])
      .where('users.kind', '=', 'team')
      .orderBy('users.createdAt', 'desc')
      .orderBy('users.id')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  /** The members of the listed teams, in one query. */
  membersOf(db: Db, teamIds: string[]) {
    if (teamIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('teamMembers')
      .innerJoin('users', 'users.id', 'teamMembers.userId')
      .select(['teamMembers.teamId', 'teamMembers.userId', 'users.username', 'teamMembers.permissions'])
      .where('teamMembers.teamId', 'in', teamIds)
      .orderBy('teamMembers.joinedAt')
      .execute();
  },

  /**
   * The admins, locked until the transaction ends on PostgreSQL, so two concurrent demotions cannot
   * both see "another admin remains" (SQLite runs one write transaction at a time anyway).
   */
  async lockAdmins(db: Db): Promise<number> {
    const query = db.selectFrom('users').select('id').where('isAdmin', '=', 1);
    const rows = await (db.getExecutor().adapter instanceof SqliteAdapter ? query : query.forUpdate()).execute();
    return rows.length;
  },

  namesOf(db: Db, userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('users').select(['id', 'name', 'email', 'kind']).where('id', 'in', userIds).execute();
  },

  existingUserIds(db: Db, userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('users').select('id').where('id', 'in', userIds).execute();
  },

  /** The saved presence of every game server (the Connections tab after a restart). */
  savedGameServers(db: Db, limit: number) {
    return db.selectFrom('gameServers').selectAll().orderBy('lastPing', 'desc').limit(limit).execute();
  },

  /** Runs admins started on users' games, newest first, with the admin's name while the account exists. */
  recentExecutionsPage(db: Db, offset: number, limit: number) {
    return db
      .selectFrom('executions')
      .innerJoin('users', 'users.id', 'executions.userId')
      .leftJoin('users as admins', 'admins.id', 'executions.initiatedBy')
      .leftJoin('scripts', 'scripts.id', 'executions.scriptId')
      .selectAll('executions')
      .select(['users.name as userName', 'scripts.name as scriptName', 'admins.name as adminName'])
      .where('executions.initiatedBy', 'is not', null)
      .orderBy('executions.createdAt', 'desc')
      .orderBy('executions.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  async countExecutions(db: Db): Promise<number> {
    const { count } = await db
      .selectFrom('executions')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('initiatedBy', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  },
};
