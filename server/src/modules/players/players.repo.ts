import { sql, type Selectable } from 'kysely';
import type { RosterPlayer } from '@moonrelay/contract/players';
import type { Db } from '../../db/database.ts';
import { containsIgnoringCase } from '../../db/like.ts';
import type { PlayersTable } from '../../db/schema.ts';

export type PlayerRow = Selectable<PlayersTable>;

/** Whole seconds between two ISO times (0 when the clock went back). */
const secondsBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

/** A search that is a whole number is also a user id. */
const searchedId = (search: string) => (/^-?\d{1,16}$/.test(search) ? String(Number(search)) : null);

export const playersRepo = {
  /** The Roblox ids with an open session on this server. */
  async openOnServer(db: Db, userId: string, serverId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('playerSessions')
      .select('robloxUserId')
      .where('userId', '=', userId)
      .where('serverId', '=', serverId)
      .where('leftAt', 'is', null)
      .execute();
    return rows.map((row) => row.robloxUserId);
  },

  /** Creates or refreshes the players' records (names, account age, last seen). */
  async upsertPlayers(db: Db, userId: string, players: RosterPlayer[], now: string): Promise<void> {
    if (players.length === 0) return;
    await db
      .insertInto('players')
      .values(
        players.map((player) => ({
          userId,
          robloxUserId: String(player.userId),
          name: player.name,
          displayName: player.displayName ?? null,
          accountAgeDays: player.accountAgeDays ?? null,
          firstSeen: now,
          lastSeen: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['userId', 'robloxUserId']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          displayName: eb.ref('excluded.displayName'),
          accountAgeDays: eb.fn.coalesce('excluded.accountAgeDays', 'players.accountAgeDays'),
          lastSeen: eb.ref('excluded.lastSeen'),
        })),
      )
      .execute();
    await db
      .insertInto('playerNames')
      .values(
        players.map((player) => ({
          userId,
          robloxUserId: String(player.userId),
          name: player.name,
          displayName: player.displayName ?? '',
          firstSeen: now,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  },

  /** Opens a session for each player without one on this server; answers whose were opened. */
  async openSessions(db: Db, userId: string, serverId: string, ids: string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const opened = await db
      .insertInto('playerSessions')
      .values(ids.map((robloxUserId) => ({ id: crypto.randomUUID(), userId, robloxUserId, serverId, joinedAt: now })))
      .onConflict((oc) => oc.columns(['userId', 'serverId', 'robloxUserId']).where('leftAt', 'is', null).doNothing())
      .returning('robloxUserId')
      .execute();
    const openedIds = opened.map((row) => row.robloxUserId);
    if (openedIds.length > 0) {
      await db
        .updateTable('players')
        .set((eb) => ({ sessions: eb('sessions', '+', 1) }))
        .where('userId', '=', userId)
        .where('robloxUserId', 'in', openedIds)
        .execute();
    }
    return openedIds;
  },

  /**
   * Ends the open sessions on this server (of these players, or of everyone there) at `at`, and adds
   * each stay to its player's play time. Answers how many ended.
   */
  async closeSessions(db: Db, userId: string, serverId: string, ids: string[] | 'all', at: string): Promise<number> {
    if (ids !== 'all' && ids.length === 0) return 0;
    let query = db
      .updateTable('playerSessions')
      .set({ leftAt: at })
      .where('userId', '=', userId)
      .where('serverId', '=', serverId)
      .where('leftAt', 'is', null);
    if (ids !== 'all') query = query.where('robloxUserId', 'in', ids);
    const closed = await query.returning(['robloxUserId', 'joinedAt']).execute();
    // In id order, so two transactions touching the same players lock them in the same order.
    closed.sort((a, b) => (a.robloxUserId < b.robloxUserId ? -1 : 1));
    for (const session of closed) {
      await db
        .updateTable('players')
        .set((eb) => ({
          playSeconds: eb('playSeconds', '+', secondsBetween(session.joinedAt, at)),
          lastSeen: sql<string>`case when ${eb.ref('lastSeen')} < ${at} then ${at} else ${eb.ref('lastSeen')} end`,
        }))
        .where('userId', '=', userId)
        .where('robloxUserId', '=', session.robloxUserId)
        .execute();
    }
    return closed.length;
  },

  /** Servers with players online, per owner (of these owners only, when given). */
  serversWithOpenSessions(db: Db, userIds?: string[]): Promise<{ userId: string; serverId: string }[]> {
    let query = db.selectFrom('playerSessions').select(['userId', 'serverId']).where('leftAt', 'is', null);
    if (userIds) query = query.where('userId', 'in', userIds);
    return query.groupBy(['userId', 'serverId']).execute();
  },

  /** Deletes finished sessions that ended before `before`, a batch at a time; answers how many. */
  async pruneSessions(db: Db, before: string, batch = 500): Promise<number> {
    let deleted = 0;
    for (;;) {
      const ids = db.selectFrom('playerSessions').select('id').where('leftAt', '<', before).limit(batch);
      const result = await db.deleteFrom('playerSessions').where('id', 'in', ids).executeTakeFirst();
      const count = Number(result.numDeletedRows);
      deleted += count;
      if (count < batch) return deleted;
    }
  },

  /** Players online now (open sessions), newest arrival first, after `cursor`. */
  online(
    db: Db,
    userId: string,
    filter: { search?: string; serverId?: string; after?: { joinedAt: string; robloxUserId: string }; limit?: number },
  ) {
    let query = db
      .selectFrom('playerSessions as s')
      .innerJoin('players as p', (join) =>
        join.onRef('p.userId', '=', 's.userId').onRef('p.robloxUserId', '=', 's.robloxUserId'),
      )
      .where('s.userId', '=', userId)
      .where('s.leftAt', 'is', null);
    if (filter.serverId !== undefined) query = query.where('s.serverId', '=', filter.serverId);
    if (filter.search) {
      const search = filter.search;
      const id = searchedId(search);
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase(eb.ref('p.name'), search),
          containsIgnoringCase(eb.ref('p.displayName'), search),
          ...(id === null ? [] : [eb('s.robloxUserId', '=', id)]),
        ]),
      );
    }
    return {
      count: async () =>
        Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
      page: async (limit: number) => {
        let paged = query;
        const after = filter.after;
        if (after) {
          paged = paged.where((eb) =>
            eb.or([
              eb('s.joinedAt', '<', after.joinedAt),
              eb.and([eb('s.joinedAt', '=', after.joinedAt), eb('s.robloxUserId', '<', after.robloxUserId)]),
            ]),
          );
        }
        return paged
          .select(['s.robloxUserId', 's.serverId', 's.joinedAt', 'p.name', 'p.displayName', 'p.accountAgeDays'])
          .orderBy('s.joinedAt', 'desc')
          .orderBy('s.robloxUserId', 'desc')
          .limit(sql.lit(Math.trunc(limit)))
          .execute();
      },
    };
  },

  /** Everyone seen, most recently seen first, after `cursor`. */
  everyone(
    db: Db,
    userId: string,
    filter: { search?: string; after?: { lastSeen: string; robloxUserId: string }; limit: number },
  ): Promise<PlayerRow[]> {
    let query = db.selectFrom('players').selectAll().where('userId', '=', userId);
    if (filter.search) {
      const search = filter.search;
      const id = searchedId(search);
      query = query.where((eb) =>
        eb.or([
          containsIgnoringCase(eb.ref('name'), search),
          containsIgnoringCase(eb.ref('displayName'), search),
          ...(id === null ? [] : [eb('robloxUserId', '=', id)]),
        ]),
      );
    }
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('lastSeen', '<', after.lastSeen),
          eb.and([eb('lastSeen', '=', after.lastSeen), eb('robloxUserId', '<', after.robloxUserId)]),
        ]),
      );
    }
    return query
      .orderBy('lastSeen', 'desc')
      .orderBy('robloxUserId', 'desc')
      .limit(sql.lit(Math.trunc(filter.limit)))
      .execute();
  },

  /** Which of these players have an open session. */
  async onlineAmong(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .selectFrom('playerSessions')
      .select('robloxUserId')
      .where('userId', '=', userId)
      .where('robloxUserId', 'in', ids)
      .where('leftAt', 'is', null)
      .execute();
    return new Set(rows.map((row) => row.robloxUserId));
  },

  find(db: Db, userId: string, robloxUserId: string): Promise<PlayerRow | undefined> {
    return db
      .selectFrom('players')
      .selectAll()
      .where('userId', '=', userId)
      .where('robloxUserId', '=', robloxUserId)
      .executeTakeFirst();
  },

  names(db: Db, userId: string, robloxUserId: string) {
    return db
      .selectFrom('playerNames')
      .select(['name', 'displayName', 'firstSeen'])
      .where('userId', '=', userId)
      .where('robloxUserId', '=', robloxUserId)
      .orderBy('firstSeen')
      .orderBy('name')
      .execute();
  },

  sessions(db: Db, userId: string, robloxUserId: string, limit: number) {
    return db
      .selectFrom('playerSessions')
      .select(['serverId', 'joinedAt', 'leftAt'])
      .where('userId', '=', userId)
      .where('robloxUserId', '=', robloxUserId)
      .orderBy('joinedAt', 'desc')
      .limit(sql.lit(Math.trunc(limit)))
      .execute();
  },
};
