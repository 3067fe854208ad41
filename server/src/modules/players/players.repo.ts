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
 * A search that starts this many of the owner's players' names (or display names) is broad. A
 * narrow one is found by the name indexes and sorted, which costs what it finds (up to this many,
 * a few tens of ms). A broad one (a typed "P" finds every one of two million players) walks the
 * list in its own order and tests each row instead: where matches are common a page fills within a
 * few hundred rows. The walk's worst case is a broad search whose matches all lie at the far end
 * of the order; it then reads the list that far (the owner's players, at most).
 */
export const BROAD_SEARCH_PLAYERS = 20_000;
/**
 * A broad search of the players online counts its matches up to this many and says it stopped
 * there ("1,000+"): an exact count would test every player online.
 */
export const ONLINE_MATCHES_COUNTED = 1_000;

/** Where a search turns broad, and how far a broad count of the players online goes. */
export interface SearchLimits {
  broadAt: number;
  countUpTo: number;
}
const SEARCH_LIMITS: SearchLimits = { broadAt: BROAD_SEARCH_PLAYERS, countUpTo: ONLINE_MATCHES_COUNTED };

interface Search {
  /** Lower-cased, for the name keys. */
  key: string;
  /** The first key past every key that starts with `key`, or null. */
  end: string | null;
  /** The user id the search also is, if it is a whole number. */
  id: string | null;
}

const searchOf = (search: string): Search => {
  const key = search.toLowerCase();
  return { key, end: prefixEnd(key), id: searchedId(search) };
};

/**
 * The owner's players a search finds (decision 039): those whose name or display name starts with
 * it, ignoring case, and the one whose user id it is. Each part is a range of an index
 * (players_name_key, players_display_name_key, the key), so a search costs what it finds, not the
 * number of players seen.
 */
function matching(db: Db, userId: string, { key, end, id }: Search) {
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

/**
 * The same test as `matching`, on one row of `players` (under `alias`), for a walk of a list. The
 * keys are read as values, not through their indexes: given the choice, SQLite gathers every match
 * by the name indexes and sorts them (690 ms for a typed "P" over two million players, 1 ms walked).
 */
function matchesRow(alias: 'p' | 'players', { key, end, id }: Search): RawBuilder<boolean> {
  const startsWith = (column: 'nameKey' | 'displayNameKey') => {
    const ref = sql`(${sql.ref(`${alias}.${column}`)} || '')`;
    return end === null ? sql`${ref} >= ${key}` : sql`(${ref} >= ${key} and ${ref} < ${end})`;
  };
  const tests = [startsWith('nameKey'), startsWith('displayNameKey')];
  if (id !== null) tests.push(sql`${sql.ref(`${alias}.robloxUserId`)} = ${id}`);
  return sql<boolean>`(${sql.join(tests, sql` or `)})`;
}

/**
 * Whether a search is broad: either name index holds at least `broadAt` keys in its range. Each
 * probe reads at most that many index entries.
 */
async function isBroad(db: Db, userId: string, { key, end }: Search, broadAt: number): Promise<boolean> {
  const probe = async (column: 'nameKey' | 'displayNameKey') => {
    let range = db
      .selectFrom('players')
      .select(sql.lit(1).as('one'))
      .where('userId', '=', userId)
      .where(column, '>=', key);
    if (end !== null) range = range.where(column, '<', end);
    const { n } = await db
      .selectFrom(range.limit(sql.lit(broadAt)).as('r'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n) >= broadAt;
  };
  return (await probe('nameKey')) || (await probe('displayNameKey'));
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

  /**
   * Players online now (open sessions), newest arrival first, after `cursor`; and how many, which
   * for a broad search over every server stops at ONLINE_MATCHES_COUNTED (`capped`).
   */
  async online(
    db: Db,
    userId: string,
    filter: { search?: string; serverId?: string; after?: { joinedAt: string; robloxUserId: string }; limit?: number },
    limits: SearchLimits = SEARCH_LIMITS,
  ) {
    const search = filter.search ? searchOf(filter.search) : null;
    const broad = search !== null && (await isBroad(db, userId, search, limits.broadAt));
    let query = db
      .selectFrom('playerSessions as s')
      .innerJoin('players as p', (join) =>
        join.onRef('p.userId', '=', 's.userId').onRef('p.robloxUserId', '=', 's.robloxUserId'),
      )
      .where('s.userId', '=', userId)
      .where('s.leftAt', 'is', null);
    // The open sessions alone answer the count (every session has its player's record).
    let sessions = db.selectFrom('playerSessions as s').where('s.userId', '=', userId).where('s.leftAt', 'is', null);
    if (filter.serverId !== undefined) {
      query = query.where('s.serverId', '=', filter.serverId);
      sessions = sessions.where('s.serverId', '=', filter.serverId);
    }
    if (search && broad) {
      query = query.where(matchesRow('p', search));
      // Each session's player looked up and tested on its own (LIMIT/OFFSET keep PostgreSQL from
      // joining the subquery): its planner otherwise hashed all two million players to count the
      // first thousand matches (770 ms against 3 ms).
      sessions = sessions.where((eb) =>
        eb.exists(
          eb
            .selectFrom('players as p')
            .select(sql.lit(1).as('one'))
            .whereRef('p.userId', '=', 's.userId')
            .whereRef('p.robloxUserId', '=', 's.robloxUserId')
            .where(matchesRow('p', search))
            .limit(sql.lit(1))
            .offset(sql.lit(0)),
        ),
      );
    } else if (search) {
      query = query.where('s.robloxUserId', 'in', matching(db, userId, search));
      sessions = sessions.where('s.robloxUserId', 'in', matching(db, userId, search));
    }
    // A server or a narrow search picks out few rows: found by their own index, then sorted. The
    // whole list, or a broad search of it, is read in its order until the page is full.
    const sortAfter = filter.serverId !== undefined || (search !== null && !broad);
    // How many open sessions match, up to `upTo` when given.
    const countOf = async (upTo?: number) => {
      let found = sessions.select(sql.lit(1).as('one'));
      if (upTo !== undefined) found = found.limit(sql.lit(upTo));
      const row = await db
        .selectFrom(found.as('c'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    return {
      count: async (): Promise<{ total: number; capped: boolean }> => {
        // A broad search over every server stops counting; one server's players are few.
        if (broad && filter.serverId === undefined) {
          const n = await countOf(limits.countUpTo + 1);
          return n > limits.countUpTo ? { total: limits.countUpTo, capped: true } : { total: n, capped: false };
        }
        return { total: await countOf(), capped: false };
      },
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
          .orderBy(sortAfter ? sortedAfter(sql.ref('s.joinedAt')) : 's.joinedAt', 'desc')
          .orderBy(sortAfter ? sortedAfter(sql.ref('s.robloxUserId')) : 's.robloxUserId', 'desc')
          .limit(sql.lit(Math.trunc(limit)))
          .execute();
      },
    };
  },

  /** Everyone seen, most recently seen first, after `cursor`. */
  async everyone(
    db: Db,
    userId: string,
    filter: { search?: string; after?: { lastSeen: string; robloxUserId: string }; limit: number },
    limits: SearchLimits = SEARCH_LIMITS,
  ): Promise<PlayerRow[]> {
    const search = filter.search ? searchOf(filter.search) : null;
    const broad = search !== null && (await isBroad(db, userId, search, limits.broadAt));
    let query = db.selectFrom('players').selectAll().where('userId', '=', userId);
    if (search && broad) query = query.where(matchesRow('players', search));
    else if (search) query = query.where('robloxUserId', 'in', matching(db, userId, search));
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('lastSeen', '<', after.lastSeen),
          eb.and([eb('lastSeen', '=', after.lastSeen), eb('robloxUserId', '<', after.robloxUserId)]),
        ]),
      );
    }
    // As online(): a narrow search is found, then sorted; a broad one is read in order.
    const sortAfter = search !== null && !broad;
    return query
      .orderBy(sortAfter ? sortedAfter(sql.ref('lastSeen')) : 'lastSeen', 'desc')
      .orderBy(sortAfter ? sortedAfter(sql.ref('robloxUserId')) : 'robloxUserId', 'desc')
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
