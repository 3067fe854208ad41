import { z } from 'zod';
import { GAME_PLAYER_NAME_MAX_CHARS, ROSTER_MAX_PLAYERS } from './constants.ts';

/**
 * Players: who is in the user's games. Each game server reports its roster on its pings (the whole
 * roster when it connects or when Moonrelay asks for it, then joins and leaves as they happen), and
 * every Roblox user seen gets a record with their sessions (docs/protocol.md, "Roster").
 */

/** Sessions older than this are pruned (the player's record and totals stay). */
export const PLAYER_SESSION_RETENTION_DAYS_DEFAULT = 90;
/** The most players one page of a list answers. */
export const PLAYERS_PAGE_MAX = 200;

/** A Roblox user id: positive in a live game, negative for Studio's test players. */
const RobloxUserIdSchema = z.number().int().min(-1e15).max(1e15);

export const RosterPlayerSchema = z
  .object({
    userId: RobloxUserIdSchema,
    name: z.string().min(1).max(GAME_PLAYER_NAME_MAX_CHARS),
    displayName: z.string().max(GAME_PLAYER_NAME_MAX_CHARS).optional(),
    /** Player.AccountAge: days since the account was made. */
    accountAgeDays: z.number().int().min(0).max(100_000).optional(),
  })
  .meta({ id: 'RosterPlayer' });
export type RosterPlayer = z.infer<typeof RosterPlayerSchema>;

const tooManyPlayers = `at most ${ROSTER_MAX_PLAYERS} players (the largest Roblox server)`;

/**
 * The roster part of a ping. `players` is the whole roster (on connect, or when the last answer
 * asked for it with `rosterWanted`); `joined` and `left` are what changed since the last accepted
 * ping. Sending the same change twice (a ping whose answer was lost) changes nothing. A script that
 * keeps a roster sends `count` on every ping, changes or not: that is how Moonrelay knows it can
 * ask this server for its whole roster.
 */
export const RosterReportSchema = z
  .object({
    /** Players on the server now. */
    count: z.number().int().min(0).max(ROSTER_MAX_PLAYERS, tooManyPlayers),
    players: z.array(RosterPlayerSchema).max(ROSTER_MAX_PLAYERS, tooManyPlayers).optional(),
    joined: z.array(RosterPlayerSchema).max(ROSTER_MAX_PLAYERS, tooManyPlayers).optional(),
    left: z.array(RobloxUserIdSchema).max(ROSTER_MAX_PLAYERS, tooManyPlayers).optional(),
  })
  .meta({ id: 'RosterReport' });
export type RosterReport = z.infer<typeof RosterReportSchema>;

export const OnlinePlayerSchema = z
  .object({
    userId: z.number(),
    name: z.string(),
    displayName: z.string().nullable(),
    accountAgeDays: z.number().nullable(),
    serverId: z.string(),
    joinedAt: z.string(),
  })
  .meta({ id: 'OnlinePlayer' });
export type OnlinePlayer = z.infer<typeof OnlinePlayerSchema>;

export const OnlinePlayerPageSchema = z
  .object({
    players: z.array(OnlinePlayerSchema),
    /** Everyone online across the user's live servers (with the filters), not only this page. */
    total: z.number(),
    /**
     * True when a broad search over every server stopped counting at `total` (1,000): at least
     * that many match ("1,000+"). Narrow searches, one server's players and no search count exactly.
     */
    totalCapped: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'OnlinePlayerPage' });

export const PlayerSummarySchema = z
  .object({
    userId: z.number(),
    name: z.string(),
    displayName: z.string().nullable(),
    accountAgeDays: z.number().nullable(),
    firstSeen: z.string(),
    lastSeen: z.string(),
    /** Seconds played in finished sessions. */
    playSeconds: z.number(),
    sessions: z.number(),
    online: z.boolean(),
  })
  .meta({ id: 'PlayerSummary' });
export type PlayerSummary = z.infer<typeof PlayerSummarySchema>;

export const PlayerPageSchema = z
  .object({ players: z.array(PlayerSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'PlayerPage' });

export const PlayerSessionSchema = z
  .object({ serverId: z.string(), joinedAt: z.string(), leftAt: z.string().nullable() })
  .meta({ id: 'PlayerSession' });

export const PlayerRecordSchema = PlayerSummarySchema.extend({
  /** Every name and display name this player was seen with, first seen first. */
  namesSeen: z.array(z.object({ name: z.string(), displayName: z.string().nullable(), firstSeen: z.string() })),
  /** The latest sessions, newest first (at most 100; older ones are pruned after the retention). */
  recentSessions: z.array(PlayerSessionSchema),
}).meta({ id: 'PlayerRecord' });
export type PlayerRecord = z.infer<typeof PlayerRecordSchema>;

const LimitSchema = z.coerce.number().int().min(1).max(PLAYERS_PAGE_MAX).optional();
/** A search: the start of a name or display name (ignoring case), or a whole user id. */
const SearchSchema = z.string().trim().max(100).optional();
const CursorSchema = z.string().max(200).optional();

/** Admins may look at another user's players; anyone else gets 403. */
const OwnerIdSchema = z.string().max(100).optional();

export const OnlinePlayersQuerySchema = z.object({
  ownerId: OwnerIdSchema,
  q: SearchSchema,
  serverId: z.string().max(100).optional(),
  limit: LimitSchema,
  cursor: CursorSchema,
});
export const PlayersQuerySchema = z.object({
  ownerId: OwnerIdSchema,
  q: SearchSchema,
  limit: LimitSchema,
  cursor: CursorSchema,
});
export const PlayerOwnerQuerySchema = z.object({ ownerId: OwnerIdSchema });
export const PlayerParamsSchema = z.object({
  userId: z.coerce.number().int().min(-1e15).max(1e15),
});
