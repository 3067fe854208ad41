import { sql, SqliteAdapter, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * The roster's writes as set-based statements: each takes all the rows of a batch of reports (many
 * servers, many owners) as one JSON parameter, so a batch costs a few statements whatever its size,
 * and each statement's text is the same every time (SQLite keeps it prepared, see database.ts).
 * Rows go in the order given (callers sort them by owner and player id), so two PostgreSQL
 * transactions touching the same players take their row locks in the same order.
 */

type Kind = 'text' | 'integer';
type Columns = Record<string, Kind>;

const isSqlite = (db: Db) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * The class of the transaction-scoped advisory locks on game servers ("MRgs" in ASCII), apart from
 * other advisory locks of Moonrelay's (users.repo.ts uses "MRfa" as a single key).
 */
const SERVER_LOCK_CLASS = 0x4d526773;

/**
 * A table of `rows` (arrays, in `columns` order) to select from, with `n` its position.
 * SQLite: json_each; PostgreSQL: jsonb_array_elements with ordinality.
 */
function rowsOf(db: Db, columns: Columns, rows: unknown[][]): RawBuilder<unknown> {
  const json = JSON.stringify(rows);
  const names = Object.keys(columns);
  if (isSqlite(db)) {
    const picks = names.map((name, index) => sql`json_extract(value, ${sql.lit(`$[${index}]`)}) as ${sql.raw(name)}`);
    return sql`(select ${sql.join(picks)}, key as n from json_each(${json}))`;
  }
  const picks = names.map(
    (name, index) =>
      sql`(e.v ->> ${sql.lit(index)})::${sql.raw(columns[name] === 'integer' ? 'integer' : 'text')} as ${sql.raw(name)}`,
  );
  return sql`(select ${sql.join(picks)}, e.n from jsonb_array_elements(${json}::jsonb) with ordinality as e(v, n))`;
}

export interface OpenSession {
  owner: string;
  serverId: string;
  robloxUserId: string;
}
export interface EndedSession {
  owner: string;
  robloxUserId: string;
  joinedAt: string;
  leftAt: string;
}
export interface StoredPlayer {
  owner: string;
  robloxUserId: string;
  name: string;
  displayName: string | null;
  accountAgeDays: number | null;
}
/** A player as the pruning walks them: by last seen, then owner and id. */
export interface PruneCursor {
  owner: string;
  robloxUserId: string;
  lastSeen: string;
}
export interface PlayerWrite {
  owner: string;
  robloxUserId: string;
  name: string;
  displayName: string | null;
  accountAgeDays: number | null;
  at: string;
  /** Sessions opened for them in this batch. */
  opened: number;
  /** No record of theirs was found when the batch read them (a new player). */
  created: boolean;
}

/** Whole seconds between two ISO times (0 when the clock went back). */
const secondsBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

export const rosterWrites = {
  /** SQLite: one writer at a time, so nothing needs holding against another transaction. */
  isSqlite,

  /** The open sessions of these servers. */
  async openOn(db: Db, servers: { owner: string; serverId: string }[]): Promise<OpenSession[]> {
    if (servers.length === 0) return [];
    const source = rowsOf(
      db,
      { uid: 'text', sid: 'text' },
      servers.map((s) => [s.owner, s.serverId]),
    );
    const { rows } = await sql<{ uid: string; sid: string; rid: string }>`
      select s.user_id as uid, s.server_id as sid, s.roblox_user_id as rid
      from ${source} j join player_sessions s
        on s.user_id = j.uid and s.server_id = j.sid and s.left_at is null`.execute(db);
    return rows.map((row) => ({ owner: row.uid, serverId: row.sid, robloxUserId: row.rid }));
  },

  /** The stored records of these players (those that have one). */
  async players(db: Db, ids: { owner: string; robloxUserId: string }[]): Promise<StoredPlayer[]> {
    if (ids.length === 0) return [];
    const source = rowsOf(
      db,
      { uid: 'text', rid: 'text' },
      ids.map((id) => [id.owner, id.robloxUserId]),
    );
    const { rows } = await sql<{ uid: string; rid: string; name: string; dn: string | null; age: number | null }>`
      select p.user_id as uid, p.roblox_user_id as rid, p.name as name, p.display_name as dn,
        p.account_age_days as age
      from ${source} j join players p on p.user_id = j.uid and p.roblox_user_id = j.rid`.execute(db);
    return rows.map((row) => ({
      owner: row.uid,
      robloxUserId: row.rid,
      name: row.name,
      displayName: row.dn,
      accountAgeDays: row.age === null ? null : Number(row.age),
    }));
  },

  /**
   * PostgreSQL: holds these servers until the transaction ends, so instances applying pings of one
   * server at once take turns, and each counts the sessions the other opened (the limit of 700 a
   * server). Locks are taken in key order, so two transactions never wait on each other for them.
   * SQLite has one writer at a time already.
   */
  async lockServers(db: Db, servers: { owner: string; serverId: string }[]): Promise<void> {
    if (servers.length === 0 || isSqlite(db)) return;
    const source = rowsOf(
      db,
      { uid: 'text', sid: 'text' },
      servers.map((s) => [s.owner, s.serverId]),
    );
    await sql`select pg_advisory_xact_lock(${sql.lit(SERVER_LOCK_CLASS)}, k.key)
      from (select distinct hashtext(j.uid || chr(10) || j.sid) as key from ${source} j) k
      order by k.key`.execute(db);
  },

  /** How many sessions are open on each of these servers (servers without any are left out). */
  async openCounts(db: Db, servers: { owner: string; serverId: string }[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (servers.length === 0) return counts;
    const source = rowsOf(
      db,
      { uid: 'text', sid: 'text' },
      servers.map((s) => [s.owner, s.serverId]),
    );
    const { rows } = await sql<{ uid: string; sid: string; open: string | number }>`
      select j.uid as uid, j.sid as sid,
        (select count(*) from player_sessions s
          where s.user_id = j.uid and s.server_id = j.sid and s.left_at is null) as open
      from ${source} j`.execute(db);
    for (const row of rows) counts.set(`${row.uid}\n${row.sid}`, Number(row.open));
    return counts;
  },

  /** Which of these (player, server) pairs have an open session. */
  async openAmong(db: Db, pairs: { owner: string; serverId: string; robloxUserId: string }[]): Promise<OpenSession[]> {
    if (pairs.length === 0) return [];
    const source = rowsOf(
      db,
      { uid: 'text', sid: 'text', rid: 'text' },
      pairs.map((p) => [p.owner, p.serverId, p.robloxUserId]),
    );
    const { rows } = await sql<{ uid: string; sid: string; rid: string }>`
      select s.user_id as uid, s.server_id as sid, s.roblox_user_id as rid
      from ${source} j join player_sessions s
        on s.user_id = j.uid and s.server_id = j.sid and s.roblox_user_id = j.rid and s.left_at is null`.execute(db);
    return rows.map((row) => ({ owner: row.uid, serverId: row.sid, robloxUserId: row.rid }));
  },

  /**
   * How many player records each of these owners has (PLAYER_RECORDS_MAX). On PostgreSQL the
   * owners' count rows stay locked until the transaction ends, so instances recording new players
   * of one owner take turns and each sees the other's. An owner without a count row (players
   * written before the row existed) gets one, counted from their records.
   */
  async recordCounts(db: Db, owners: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (owners.length === 0) return counts;
    const sorted = [...new Set(owners)].sort();
    const lock = isSqlite(db) ? sql`` : sql`for update`;
    const read = async (ids: string[]) => {
      const source = rowsOf(
        db,
        { uid: 'text' },
        ids.map((id) => [id]),
      );
      const { rows } = await sql<{ uid: string; records: string | number }>`
        select user_id as uid, records from player_record_counts
        where user_id in (select j.uid from ${source} j) order by user_id ${lock}`.execute(db);
      for (const row of rows) counts.set(row.uid, Number(row.records));
    };
    await read(sorted);
    const missing = sorted.filter((owner) => !counts.has(owner));
    if (missing.length > 0) {
      const source = rowsOf(
        db,
        { uid: 'text' },
        missing.map((id) => [id]),
      );
      await sql`
        insert into player_record_counts (user_id, records)
        select j.uid, (select count(*) from players p where p.user_id = j.uid) from ${source} j
        where true order by j.n
        on conflict (user_id) do nothing`.execute(db);
      await read(missing);
    }
    return counts;
  },

  /** Adds players recorded (or, negative, deleted) to their owners' counts. */
  async addRecords(db: Db, changes: Map<string, number>): Promise<void> {
    const rows = [...changes].filter(([, change]) => change !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (rows.length === 0) return;
    const source = rowsOf(db, { uid: 'text', change: 'integer' }, rows);
    await sql`
      update player_record_counts set records = player_record_counts.records + j.change
      from ${source} j where player_record_counts.user_id = j.uid`.execute(db);
  },

  /**
   * Up to `limit` players not seen since `before`, from the longest unseen, after `after` (the last
   * one a previous batch looked at): candidates for pruning, which `pruneRecords` checks again.
   */
  async unseenSince(db: Db, before: string, after: PruneCursor | undefined, limit: number): Promise<PruneCursor[]> {
    const { rows } = await sql<{ uid: string; rid: string; seen: string }>`
      select user_id as uid, roblox_user_id as rid, last_seen as seen from players
      where last_seen < ${before}
        ${after ? sql`and (last_seen, user_id, roblox_user_id) > (${after.lastSeen}, ${after.owner}, ${after.robloxUserId})` : sql``}
      order by last_seen, user_id, roblox_user_id limit ${sql.lit(limit)}`.execute(db);
    return rows.map((row) => ({ owner: row.uid, robloxUserId: row.rid, lastSeen: row.seen }));
  },

  /**
   * Deletes the records of these players that are still unseen since `before`, not online, and
   * have no moderation history and no ban in force on Roblox; with them their names and sessions,
   * and their owners' counts go down. Answers how many went. The conditions are checked in the
   * delete itself: a player who came back meanwhile (PostgreSQL waits for that transaction and
   * checks the row again) stays.
   */
  async pruneRecords(db: Db, candidates: PruneCursor[], before: string): Promise<number> {
    if (candidates.length === 0) return 0;
    // The owners' counts first, as the roster takes them before players' rows (no lock cycle).
    await rosterWrites.recordCounts(
      db,
      candidates.map((c) => c.owner),
    );
    const source = rowsOf(
      db,
      { uid: 'text', rid: 'text' },
      [...candidates].sort(byPlayer).map((c) => [c.owner, c.robloxUserId]),
    );
    const { rows } = await sql<{ uid: string; rid: string }>`
      delete from players
      where (user_id, roblox_user_id) in (select j.uid, j.rid from ${source} j)
        and last_seen < ${before}
        and not exists (select 1 from player_sessions s where s.user_id = players.user_id
          and s.roblox_user_id = players.roblox_user_id and s.left_at is null)
        and not exists (select 1 from moderation_actions m where m.user_id = players.user_id
          and m.roblox_user_id = players.roblox_user_id)
        and not exists (select 1 from open_cloud_active_bans b where b.owner_id = players.user_id
          and b.roblox_user_id = players.roblox_user_id)
      returning user_id as uid, roblox_user_id as rid`.execute(db);
    if (rows.length === 0) return 0;
    const gone = rowsOf(
      db,
      { uid: 'text', rid: 'text' },
      rows.map((row) => [row.uid, row.rid]),
    );
    await sql`delete from player_sessions
      where (user_id, roblox_user_id) in (select j.uid, j.rid from ${gone} j)`.execute(db);
    await sql`delete from player_names
      where (user_id, roblox_user_id) in (select j.uid, j.rid from ${gone} j)`.execute(db);
    const perOwner = new Map<string, number>();
    for (const row of rows) perOwner.set(row.uid, (perOwner.get(row.uid) ?? 0) - 1);
    await rosterWrites.addRecords(db, perOwner);
    return rows.length;
  },

  /**
   * Opens a session for each (player, server) without an open one (the partial unique index skips
   * the others, also those another transaction opened meanwhile); answers those opened.
   */
  async openSessions(
    db: Db,
    sessions: { owner: string; serverId: string; robloxUserId: string; at: string }[],
  ): Promise<OpenSession[]> {
    if (sessions.length === 0) return [];
    const source = rowsOf(
      db,
      { id: 'text', uid: 'text', rid: 'text', sid: 'text', at: 'text' },
      sessions.map((s) => [crypto.randomUUID(), s.owner, s.robloxUserId, s.serverId, s.at]),
    );
    // `where true`: SQLite needs it to tell the upsert's ON CONFLICT from a join's ON.
    const { rows } = await sql<{ uid: string; rid: string; sid: string }>`
      insert into player_sessions (id, user_id, roblox_user_id, server_id, joined_at)
      select j.id, j.uid, j.rid, j.sid, j.at from ${source} j where true order by j.n
      on conflict (user_id, server_id, roblox_user_id) where left_at is null do nothing
      returning user_id as uid, roblox_user_id as rid, server_id as sid`.execute(db);
    return rows.map((row) => ({ owner: row.uid, serverId: row.sid, robloxUserId: row.rid }));
  },

  /**
   * Ends open sessions, each at its own time: of these players on these servers, or (without a
   * player) of everyone on the server. Answers the sessions ended.
   */
  async endSessions(
    db: Db,
    ends: { owner: string; serverId: string; robloxUserId: string | null; at: string }[],
  ): Promise<EndedSession[]> {
    if (ends.length === 0) return [];
    const source = rowsOf(
      db,
      { uid: 'text', sid: 'text', rid: 'text', at: 'text' },
      ends.map((e) => [e.owner, e.serverId, e.robloxUserId, e.at]),
    );
    const { rows } = await sql<{ uid: string; rid: string; joined: string; lft: string }>`
      update player_sessions set left_at = j.at from ${source} j
      where player_sessions.user_id = j.uid and player_sessions.server_id = j.sid
        and (j.rid is null or player_sessions.roblox_user_id = j.rid) and player_sessions.left_at is null
      returning player_sessions.user_id as uid, player_sessions.roblox_user_id as rid,
        player_sessions.joined_at as joined, player_sessions.left_at as lft`.execute(db);
    return rows.map((row) => ({ owner: row.uid, robloxUserId: row.rid, joinedAt: row.joined, leftAt: row.lft }));
  },

  /** Adds ended stays to their players' play time, and moves their last seen up to the leaving. */
  async addStays(db: Db, ended: EndedSession[]): Promise<void> {
    if (ended.length === 0) return;
    const totals = new Map<string, { owner: string; robloxUserId: string; seconds: number; at: string }>();
    for (const session of ended) {
      const key = `${session.owner}\n${session.robloxUserId}`;
      const total = totals.get(key) ?? { owner: session.owner, robloxUserId: session.robloxUserId, seconds: 0, at: '' };
      total.seconds += secondsBetween(session.joinedAt, session.leftAt);
      if (session.leftAt > total.at) total.at = session.leftAt;
      totals.set(key, total);
    }
    const source = rowsOf(
      db,
      { uid: 'text', rid: 'text', secs: 'integer', at: 'text' },
      [...totals.values()].sort(byPlayer).map((t) => [t.owner, t.robloxUserId, t.seconds, t.at]),
    );
    await sql`
      update players set play_seconds = players.play_seconds + j.secs,
        last_seen = case when players.last_seen < j.at then j.at else players.last_seen end
      from ${source} j where players.user_id = j.uid and players.roblox_user_id = j.rid`.execute(db);
  },

  /**
   * Creates or updates player records (names, account age, last seen, sessions opened), and notes
   * each name seen. Callers pass only players that are new or changed. Answers how many records
   * each owner gained: on PostgreSQL as the database saw it (a record another instance pruned
   * after this batch read it is created again, and counted), on SQLite from `created` (one
   * writer: what the batch read still holds).
   */
  async writePlayers(db: Db, writes: PlayerWrite[], newNames: PlayerWrite[]): Promise<Map<string, number>> {
    const created = new Map<string, number>();
    const names = new Map(newNames.map((w) => [`${w.owner}\n${w.robloxUserId}`, w]));
    if (writes.length > 0) {
      const source = rowsOf(
        db,
        {
          uid: 'text',
          rid: 'text',
          name: 'text',
          nkey: 'text',
          dn: 'text',
          dkey: 'text',
          age: 'integer',
          at: 'text',
          opened: 'integer',
        },
        [...writes]
          .sort(byPlayer)
          .map((w) => [
            w.owner,
            w.robloxUserId,
            w.name,
            w.name.toLowerCase(),
            w.displayName,
            w.displayName?.toLowerCase() ?? null,
            w.accountAgeDays,
            w.at,
            w.opened,
          ]),
      );
      const { rows } = await sql`
        insert into players (user_id, roblox_user_id, name, name_key, display_name, display_name_key,
          account_age_days, first_seen, last_seen, sessions)
        select j.uid, j.rid, j.name, j.nkey, j.dn, j.dkey, j.age, j.at, j.at, j.opened
        from ${source} j where true order by j.n
        on conflict (user_id, roblox_user_id) do update set
          name = excluded.name, name_key = excluded.name_key,
          display_name = excluded.display_name, display_name_key = excluded.display_name_key,
          account_age_days = coalesce(excluded.account_age_days, players.account_age_days),
          last_seen = case when players.last_seen < excluded.last_seen then excluded.last_seen else players.last_seen end,
          sessions = players.sessions + excluded.sessions
        ${isSqlite(db) ? sql`` : sql`returning user_id as uid, roblox_user_id as rid, (xmax = 0) as created`}`.execute(
        db,
      );
      if (isSqlite(db)) {
        for (const write of writes) if (write.created) created.set(write.owner, (created.get(write.owner) ?? 0) + 1);
      } else {
        const byKey = new Map(writes.map((w) => [`${w.owner}\n${w.robloxUserId}`, w]));
        for (const row of rows as { uid: string; rid: string; created: boolean }[]) {
          if (!row.created) continue;
          created.set(row.uid, (created.get(row.uid) ?? 0) + 1);
          // A record made afresh keeps its name among the names seen, also when the batch took it for known.
          const key = `${row.uid}\n${row.rid}`;
          if (!names.has(key)) names.set(key, byKey.get(key)!);
        }
      }
    }
    if (names.size > 0) {
      const source = rowsOf(
        db,
        { uid: 'text', rid: 'text', name: 'text', dn: 'text', at: 'text' },
        [...names.values()].sort(byPlayer).map((w) => [w.owner, w.robloxUserId, w.name, w.displayName ?? '', w.at]),
      );
      await sql`
        insert into player_names (user_id, roblox_user_id, name, display_name, first_seen)
        select j.uid, j.rid, j.name, j.dn, j.at from ${source} j where true order by j.n
        on conflict do nothing`.execute(db);
    }
    return created;
  },
};

/** By owner, then player id: the order rows are written (and locked) in. */
function byPlayer(a: { owner: string; robloxUserId: string }, b: { owner: string; robloxUserId: string }): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1;
  return a.robloxUserId < b.robloxUserId ? -1 : a.robloxUserId > b.robloxUserId ? 1 : 0;
}
