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
export interface PlayerWrite {
  owner: string;
  robloxUserId: string;
  name: string;
  displayName: string | null;
  accountAgeDays: number | null;
  at: string;
  /** Sessions opened for them in this batch. */
  opened: number;
}

/** Whole seconds between two ISO times (0 when the clock went back). */
const secondsBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

export const rosterWrites = {
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
   * each name seen. Callers pass only players that are new or changed.
   */
  async writePlayers(db: Db, writes: PlayerWrite[], newNames: PlayerWrite[]): Promise<void> {
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
      await sql`
        insert into players (user_id, roblox_user_id, name, name_key, display_name, display_name_key,
          account_age_days, first_seen, last_seen, sessions)
        select j.uid, j.rid, j.name, j.nkey, j.dn, j.dkey, j.age, j.at, j.at, j.opened
        from ${source} j where true order by j.n
        on conflict (user_id, roblox_user_id) do update set
          name = excluded.name, name_key = excluded.name_key,
          display_name = excluded.display_name, display_name_key = excluded.display_name_key,
          account_age_days = coalesce(excluded.account_age_days, players.account_age_days),
          last_seen = case when players.last_seen < excluded.last_seen then excluded.last_seen else players.last_seen end,
          sessions = players.sessions + excluded.sessions`.execute(db);
    }
    if (newNames.length > 0) {
      const source = rowsOf(
        db,
        { uid: 'text', rid: 'text', name: 'text', dn: 'text', at: 'text' },
        [...newNames].sort(byPlayer).map((w) => [w.owner, w.robloxUserId, w.name, w.displayName ?? '', w.at]),
      );
      await sql`
        insert into player_names (user_id, roblox_user_id, name, display_name, first_seen)
        select j.uid, j.rid, j.name, j.dn, j.at from ${source} j where true order by j.n
        on conflict do nothing`.execute(db);
    }
  },
};

/** By owner, then player id: the order rows are written (and locked) in. */
function byPlayer(a: { owner: string; robloxUserId: string }, b: { owner: string; robloxUserId: string }): number {
  if (a.owner !== b.owner) return a.owner < b.owner ? -1 : 1;
  return a.robloxUserId < b.robloxUserId ? -1 : a.robloxUserId > b.robloxUserId ? 1 : 0;
}
