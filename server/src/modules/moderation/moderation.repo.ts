import { isoPlus, nowIso } from '../../db/time.ts';
import type { Insertable, Selectable } from 'kysely';
import { whereInChunks, writeInChunks } from '../../db/bulk-writes.ts';
import { inTransaction, type Db } from '../../db/database.ts';
import type { ModerationActionsTable } from '../../db/schema.ts';

export type ModerationRow = Selectable<ModerationActionsTable>;

/** The game command kinds a moderation row may be carried by. */
const CARRIED_BY_GAME = ['ban', 'unban'] as const;
/** A ban that is not failed and not ended (expiry is checked by the caller, in one place). */
const IN_FORCE = ['pending', 'applied'] as const;

/** Where a page of the ban list starts: after this ban (by creation time, then id, newest first). */
export interface BanPosition {
  createdAt: string;
  id: string;
}

/**
 * When a timed ban runs out, from when it took effect (applied) or, while pending, from when it was
 * asked for; null for a permanent ban and for every other kind.
 */
export function endOf(
  row: Pick<ModerationRow, 'kind' | 'durationSeconds' | 'createdAt' | 'completedAt'>,
): string | null {
  if (row.kind !== 'ban' || row.durationSeconds === null) return null;
  return isoPlus(row.completedAt ?? row.createdAt, row.durationSeconds * 1000);
}

/** An owner's bans not failed, not ended and not run out by `now` (the ban list's rows). */
function bansInForce(db: Db, userId: string, now: string) {
  return db
    .selectFrom('moderationActions as m')
    .where('m.userId', '=', userId)
    .where('m.kind', '=', 'ban')
    .where('m.endedBy', 'is', null)
    .where('m.state', 'in', IN_FORCE)
    .where((eb) => eb.or([eb('m.endsAt', 'is', null), eb('m.endsAt', '>', now)]));
}

export const moderationRepo = {
  /** All the rows or none (a ban of many players is recorded whole, or refused). */
  async insert(db: Db, rows: Insertable<ModerationActionsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    // A ban's end is worked out here, whoever made the row.
    const stored = rows.map((row) => ({
      ...row,
      endsAt: endOf({
        kind: row.kind,
        durationSeconds: row.durationSeconds ?? null,
        createdAt: row.createdAt,
        completedAt: row.completedAt ?? null,
      }),
    }));
    await inTransaction(db, (trx) =>
      writeInChunks(trx, stored, (chunk) => trx.insertInto('moderationActions').values(chunk).execute()),
    );
  },

  find(db: Db, id: string): Promise<ModerationRow | undefined> {
    return db.selectFrom('moderationActions').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** A player's actions, newest first. */
  history(db: Db, userId: string, robloxUserId: string, limit: number): Promise<ModerationRow[]> {
    return db
      .selectFrom('moderationActions')
      .selectAll()
      .where('userId', '=', userId)
      .where('robloxUserId', '=', robloxUserId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /**
   * The bans not failed and not replaced or lifted (of these players, or all of the owner's), newest
   * first. The players may be every ban imported from Roblox, so as many as the game has.
   */
  async unendedBans(
    db: Db,
    userId: string,
    robloxUserIds?: string[],
  ): Promise<(ModerationRow & { name: string | null })[]> {
    const query = db
      .selectFrom('moderationActions as m')
      .leftJoin('players as p', (join) =>
        join.onRef('p.userId', '=', 'm.userId').onRef('p.robloxUserId', '=', 'm.robloxUserId'),
      )
      .selectAll('m')
      .select('p.name')
      .where('m.userId', '=', userId)
      .where('m.kind', '=', 'ban')
      .where('m.state', 'in', IN_FORCE)
      .where('m.endedBy', 'is', null)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc');
    if (!robloxUserIds) return query.execute();
    const rows = await whereInChunks(db, robloxUserIds, (ids) => query.where('m.robloxUserId', 'in', ids).execute());
    // Each chunk came back newest first; together they are put in that order again.
    return rows.sort(newestFirst);
  },

  /**
   * A page of the owner's bans in force (`limit` rows at most), newest first, after `after`, with
   * the player's name where seen. Walks the index (user_id, kind, ended_by, created_at, id) from the
   * cursor down, passing over the failed bans and those whose time ran out.
   */
  bansPage(
    db: Db,
    userId: string,
    now: string,
    after: BanPosition | undefined,
    limit: number,
  ): Promise<(ModerationRow & { name: string | null })[]> {
    let query = bansInForce(db, userId, now)
      .leftJoin('players as p', (join) =>
        join.onRef('p.userId', '=', 'm.userId').onRef('p.robloxUserId', '=', 'm.robloxUserId'),
      )
      .selectAll('m')
      .select('p.name');
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('m.createdAt', '<', after.createdAt),
          eb.and([eb('m.createdAt', '=', after.createdAt), eb('m.id', '<', after.id)]),
        ]),
      );
    }
    return query.orderBy('m.createdAt', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
  },

  /** How many bans of the owner's are in force (every page of the ban list together). */
  async countBans(db: Db, userId: string, now: string): Promise<number> {
    const row = await bansInForce(db, userId, now)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    // PostgreSQL answers a count as bigint text.
    return Number(row.n);
  },

  /** Marks a ban as replaced (an edit) or lifted (an unban) by another action. */
  async endBan(db: Db, banId: string, endedBy: string): Promise<boolean> {
    // Guarded: of two edits or unbans of one ban sent at once, one ends it; the other is told so.
    const result = await db
      .updateTable('moderationActions')
      .set({ endedBy })
      .where('id', '=', banId)
      .where('endedBy', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Of these players, those with an unban still waiting for its path (lifting a ban made elsewhere). */
  async pendingUnbans(db: Db, userId: string, robloxUserIds?: string[]): Promise<Set<string>> {
    const query = db
      .selectFrom('moderationActions')
      .select('robloxUserId')
      .where('userId', '=', userId)
      .where('kind', '=', 'unban')
      .where('state', '=', 'pending');
    const rows = robloxUserIds
      ? await whereInChunks(db, robloxUserIds, (ids) => query.where('robloxUserId', 'in', ids).execute())
      : await query.execute();
    return new Set(rows.map((row) => row.robloxUserId));
  },

  /** Bans and unbans waiting for a live game server of this owner, oldest first. */
  /** Bans and unbans on the Open Cloud path still waiting for Roblox, made before `before` (oldest first). */
  waitingForOpenCloud(db: Db, before: string): Promise<ModerationRow[]> {
    return db
      .selectFrom('moderationActions')
      .selectAll()
      .where('state', '=', 'pending')
      .where('path', '=', 'open_cloud')
      .where('createdAt', '<=', before)
      .orderBy('createdAt')
      .limit(200)
      .execute();
  },

  waitingForGame(db: Db, userId: string): Promise<ModerationRow[]> {
    return db
      .selectFrom('moderationActions')
      .selectAll()
      .where('state', '=', 'pending')
      .where('userId', '=', userId)
      .where('path', '=', 'game')
      .where('kind', 'in', CARRIED_BY_GAME)
      .where('commandId', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  },

  /** Owners with bans or unbans waiting for a live game server. */
  async ownersWaiting(db: Db): Promise<string[]> {
    const rows = await db
      .selectFrom('moderationActions')
      .select('userId')
      .distinct()
      .where('state', '=', 'pending')
      .where('path', '=', 'game')
      .where('kind', 'in', CARRIED_BY_GAME)
      .where('commandId', 'is', null)
      .execute();
    return rows.map((row) => row.userId);
  },

  /**
   * Gives waiting rows to a command. The UPDATE repeats "still waiting", so two dispatchers racing
   * (two instances, or a connect and a sweep) cannot both send a row: each row goes to one command.
   */
  claim(db: Db, ids: string[], commandId: string): Promise<ModerationRow[]> {
    return db
      .updateTable('moderationActions')
      .set({ commandId, claimedAt: nowIso() })
      .where('id', 'in', ids)
      .where('state', '=', 'pending')
      .where('commandId', 'is', null)
      .returningAll()
      .execute();
  },

  /** The pending rows a command carries. */
  pendingForCommand(db: Db, commandId: string): Promise<ModerationRow[]> {
    return db
      .selectFrom('moderationActions')
      .selectAll()
      .where('commandId', '=', commandId)
      .where('state', '=', 'pending')
      .execute();
  },

  /** The command never ran: its rows wait for a server again. */
  async release(db: Db, commandId: string): Promise<void> {
    await db
      .updateTable('moderationActions')
      .set({ commandId: null, claimedAt: null, serverId: null })
      .where('commandId', '=', commandId)
      .where('state', '=', 'pending')
      .execute();
  },

  /**
   * Records an outcome once: a row that is no longer pending is left as it is (answers undefined).
   * A timed ban's time runs from now, when it took effect.
   */
  async complete(
    db: Db,
    id: string,
    outcome: { state: 'applied' | 'failed'; error: string | null; serverId?: string | null },
    now: string,
  ): Promise<ModerationRow | undefined> {
    // A row's kind and length never change: read first, they give the end to write with the outcome.
    const row = await db
      .selectFrom('moderationActions')
      .select(['kind', 'durationSeconds', 'createdAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const endsAt = endOf({ ...row, completedAt: now });
    return db
      .updateTable('moderationActions')
      .set((eb) => ({
        state: outcome.state,
        error: outcome.error,
        completedAt: now,
        endsAt,
        // The game server that carried it out, once known.
        serverId: outcome.serverId ? eb.val(outcome.serverId) : eb.ref('serverId'),
      }))
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * Pending rows whose command has finished (or is gone), with that command: what a crash between a
   * command's result and its rows' update leaves behind, settled by the sweep from the stored result.
   */
  /**
   * Pending rows whose command finished without their outcome stored, and rows claimed before
   * `claimedBefore` whose command never appeared (the process died between the claim and the
   * command). A fresh claim is not among them: its command is being written as this runs.
   */
  stranded(db: Db, claimedBefore: string) {
    return db
      .selectFrom('moderationActions as m')
      .leftJoin('gameCommands as c', 'c.id', 'm.commandId')
      .select(['m.commandId', 'c.id as foundId', 'c.type', 'c.status', 'c.output', 'c.error', 'c.serverId'])
      .distinct()
      .where('m.state', '=', 'pending')
      .where('m.commandId', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('c.id', 'is', null), eb('m.claimedAt', '<', claimedBefore)]),
          eb('c.status', 'not in', ['queued', 'delivered']),
        ]),
      )
      .execute();
  },

  /** The server a player is on now (their newest open session), if any. */
  async onlineServer(db: Db, userId: string, robloxUserId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('playerSessions')
      .select('serverId')
      .where('userId', '=', userId)
      .where('robloxUserId', '=', robloxUserId)
      .where('leftAt', 'is', null)
      .orderBy('joinedAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.serverId;
  },

  async knownPlayers(db: Db, userId: string, robloxUserIds: string[]): Promise<Map<string, string>> {
    const rows = await whereInChunks(db, robloxUserIds, (ids) =>
      db
        .selectFrom('players')
        .select(['robloxUserId', 'name'])
        .where('userId', '=', userId)
        .where('robloxUserId', 'in', ids)
        .execute(),
    );
    return new Map(rows.map((row) => [row.robloxUserId, row.name]));
  },
};

/** The order unendedBans answers in: by creation time, then id, newest first. */
function newestFirst(a: ModerationRow, b: ModerationRow): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
