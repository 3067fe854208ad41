import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PlayersTable } from '../../db/schema.ts';

export type PlayerRow = Selectable<PlayersTable>;

/** A search that is a whole number is also a user id. */
const searchedId = (search: string) => (/^-?\d{1,16}$/.test(search) ? String(Number(search)) : null);

/**
 * A sort key the rows are sorted by after they are found, not read in: without it SQLite walks the
 * whole ordered index (every player online, or seen) testing each row against a search or server
 * that matches a few, instead of finding those few by their own index and sorting them.
 */
const sortedAfter = (column: RawBuilder<unknown>) => sql<string>`(${column} || '')`;

/**
 * The first text after every text that starts with `prefix` (its last character moved up one), so
 * that "starts with" is the index range [prefix, end); null when there is none.
 */
function prefixEnd(prefix: string): string | null {
  const chars = [...prefix];
  while (chars.length > 0) {
    const code = chars.pop()!.codePointAt(0)!;
    if (code < 0x10ffff) return chars.join('') + String.fromCodePoint(code === 0xd7ff ? 0xe000 : code + 1);
  }
  return null;
}

/**
 * The owner's players a search finds (decision 039): those whose name or display name starts with
 * it, ignoring case, and the one whose user id it is. Each part is a range of an index
 * (players_name_key, players_display_name_key, the key), so a search costs what it finds, not the
 * number of players seen.
 */
function matching(db: Db, userId: string, search: string) {
  const key = search.toLowerCase();
  const end = prefixEnd(key);
  const id = searchedId(search);
  const startsWith = (column: 'nameKey' | 'displayNameKey') => {
    let query = db.selectFrom('players').select('robloxUserId').where('userId', '=', userId).where(column, '>=', key);
    if (end !== null) query = query.where(column, '<', end);
    return query;
  };
  let found = startsWith('nameKey').union(startsWith('displayNameKey'));
  if (id !== null) {
    found = found.union(
      db.selectFrom('players').select('robloxUserId').where('userId', '=', userId).where('robloxUserId', '=', id),
    );
  }
  return found;
}

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
    let sessions = db.selectFrom('playerSessions').where('userId', '=', userId).where('leftAt', 'is', null);
    if (filter.serverId !== undefined) {
      query = query.where('s.serverId', '=', filter.serverId);
      sessions = sessions.where('serverId', '=', filter.serverId);
    }
    if (filter.search) {
      const search = filter.search;
      query = query.where('s.robloxUserId', 'in', matching(db, userId, search));
      sessions = sessions.where('robloxUserId', 'in', matching(db, userId, search));
    }
    const narrowed = filter.search !== undefined || filter.serverId !== undefined;
    return {
      // From the open sessions alone (every session has its player's record): an index count.
      count: async () =>
        Number((await sessions.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
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
          .orderBy(narrowed ? sortedAfter(sql.ref('s.joinedAt')) : 's.joinedAt', 'desc')
          .orderBy(narrowed ? sortedAfter(sql.ref('s.robloxUserId')) : 's.robloxUserId', 'desc')
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
    if (filter.search) query = query.where('robloxUserId', 'in', matching(db, userId, filter.search));
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
      .orderBy(filter.search ? sortedAfter(sql.ref('lastSeen')) : 'lastSeen', 'desc')
      .orderBy(filter.search ? sortedAfter(sql.ref('robloxUserId')) : 'robloxUserId', 'desc')
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
