import {
  PLAYERS_PAGE_MAX,
  type OnlinePlayer,
  type PlayerRecord,
  type PlayerSummary,
} from '@moonrelay/contract/players';
import type { Db } from '../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/app-error.ts';
import { playersRepo, type PlayerRow } from './players.repo.ts';

export const PLAYER_NOT_FOUND = 'Player not found';
export const PLAYERS_OF_ANOTHER_USER = "Only admins can see another user's players";
export const INVALID_CURSOR = 'cursor: not a cursor this list gave';
const DEFAULT_PAGE = 50;
const RECENT_SESSIONS = 100;

/** Who asks: the signed-in user (or the owner of the key) and whether they are an admin. */
export interface PlayersViewer {
  userId: string;
  isAdmin: boolean;
}

/**
 * Whose players the viewer may see and act on: their own, or (admins only) the given owner's. Every
 * players route asks here, so that sharing a game with a team of moderators changes this one place.
 */
export function playersOwner(viewer: PlayersViewer, ownerId: string | undefined): string {
  if (ownerId === undefined || ownerId === viewer.userId) return viewer.userId;
  if (!viewer.isAdmin) throw new AppError(403, PLAYERS_OF_ANOTHER_USER);
  return ownerId;
}

const summary = (row: PlayerRow, online: boolean): PlayerSummary => ({
  userId: Number(row.robloxUserId),
  name: row.name,
  displayName: row.displayName,
  accountAgeDays: row.accountAgeDays,
  firstSeen: row.firstSeen,
  lastSeen: row.lastSeen,
  playSeconds: Number(row.playSeconds),
  sessions: Number(row.sessions),
  online,
});

export function createPlayersService(deps: { db: Db }) {
  const { db } = deps;
  const pageSize = (limit: number | undefined) => Math.min(limit ?? DEFAULT_PAGE, PLAYERS_PAGE_MAX);

  return {
    /** Everyone online across the owner's servers, newest arrival first, with how many in all. */
    async online(
      ownerId: string,
      query: { q?: string; serverId?: string; limit?: number; cursor?: string },
    ): Promise<{ players: OnlinePlayer[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
      const after = decodeCursor(query.cursor, INVALID_CURSOR);
      const limit = pageSize(query.limit);
      const online = await playersRepo.online(db, ownerId, {
        search: query.q || undefined,
        serverId: query.serverId,
        after: after && { joinedAt: after.time, robloxUserId: after.id },
      });
      const [rows, count] = await Promise.all([online.page(limit + 1), online.count()]);
      const more = rows.length > limit;
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return {
        players: shown.map((row) => ({
          userId: Number(row.robloxUserId),
          name: row.name,
          displayName: row.displayName,
          accountAgeDays: row.accountAgeDays,
          serverId: row.serverId,
          joinedAt: row.joinedAt,
        })),
        total: count.total,
        totalCapped: count.capped,
        nextCursor: more && last ? encodeCursor(last.joinedAt, last.robloxUserId) : null,
      };
    },

    /** Everyone ever seen in the owner's games, most recently seen first. */
    async everyone(
      ownerId: string,
      query: { q?: string; limit?: number; cursor?: string },
    ): Promise<{ players: PlayerSummary[]; nextCursor: string | null }> {
      const after = decodeCursor(query.cursor, INVALID_CURSOR);
      const limit = pageSize(query.limit);
      const rows = await playersRepo.everyone(db, ownerId, {
        search: query.q || undefined,
        after: after && { lastSeen: after.time, robloxUserId: after.id },
        limit: limit + 1,
      });
      const shown = rows.slice(0, limit);
      const online = await playersRepo.onlineAmong(
        db,
        ownerId,
        shown.map((row) => row.robloxUserId),
      );
      const last = shown.at(-1);
      return {
        players: shown.map((row) => summary(row, online.has(row.robloxUserId))),
        nextCursor: rows.length > limit && last ? encodeCursor(last.lastSeen, last.robloxUserId) : null,
      };
    },

    /** One player's record: totals, names seen and latest sessions. */
    async record(ownerId: string, robloxUserId: number): Promise<PlayerRecord> {
      const id = String(robloxUserId);
      const row = await playersRepo.find(db, ownerId, id);
      if (!row) throw new AppError(404, PLAYER_NOT_FOUND);
      const [names, sessions] = await Promise.all([
        playersRepo.names(db, ownerId, id),
        playersRepo.sessions(db, ownerId, id, RECENT_SESSIONS),
      ]);
      return {
        ...summary(
          row,
          sessions.some((session) => session.leftAt === null),
        ),
        namesSeen: names.map((name) => ({ ...name, displayName: name.displayName || null })),
        recentSessions: sessions,
      };
    },
  };
}

export type PlayersService = ReturnType<typeof createPlayersService>;
