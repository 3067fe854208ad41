import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { containsIgnoringCase } from '../../db/like.ts';
import type { PlayersTable } from '../../db/schema.ts';

export type PlayerRow = Selectable<PlayersTable>;

/** A search that is a whole number is also a user id. */
const searchedId = (search: string) => (/^-?\d{1,16}$/.test(search) ? String(Number(search)) : null);

export const playersRepo = {
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
