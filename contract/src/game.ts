import { z } from 'zod';
import { printableText } from './common.ts';
import { ScriptCodeSchema } from './scripts.ts';
import { ConsoleBatchSchema } from './console.ts';
import { RosterReportSchema } from './players.ts';
import {
  GAME_COMMAND_RESULT_OUTPUT_MAX_CHARS,
  GAME_LONG_POLL_MAX_SECONDS,
  GAME_PING_MAX_COMMANDS,
  GAME_PING_MAX_RESULTS,
  GAME_PLAYER_NAME_MAX_CHARS,
} from './constants.ts';

/**
 * The game link (spec sections 3 and 7, Game). A game server running the integration script pings
 * with the user's API key and its player's data; the answer carries the commands waiting for it,
 * and the next ping carries their results back. docs/protocol.md tells the whole story.
 */

/** A Roblox id: games send numbers; ids typed by people may arrive as digit strings. */
const RobloxIdSchema = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/)]);
/**
 * A player's user id. In Studio (Play, or Test > Start's local server) the players are test players
 * named Player1, Player2, ... with user ids -1, -2, ...; a live game's are positive.
 */
const PlayerUserIdSchema = z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]);
const CoordinateSchema = z.number().finite().min(-1e7).max(1e7);

export const PositionSchema = z.object({ x: CoordinateSchema, y: CoordinateSchema, z: CoordinateSchema });
export type Position = z.infer<typeof PositionSchema>;

/** What the game reports about its chosen player (spec section 3); every field is optional. */
export const PlayerDataSchema = z
  .object({
    playerName: z.string().max(GAME_PLAYER_NAME_MAX_CHARS).optional(),
    userId: PlayerUserIdSchema.optional(),
    placeId: RobloxIdSchema.optional(),
    gameId: RobloxIdSchema.optional(),
    universeId: RobloxIdSchema.optional(),
    position: PositionSchema.optional(),
    health: z.number().finite().min(0).max(1e9).optional(),
    maxHealth: z.number().finite().min(0).max(1e9).optional(),
    walkSpeed: z.number().finite().min(0).max(1e6).optional(),
    level: z.number().finite().optional(),
    inventory: z.array(z.string().max(200)).max(200).optional(),
  })
  .meta({ id: 'PlayerData' });
export type PlayerData = z.infer<typeof PlayerDataSchema>;

/** One running game server: Roblox's game.JobId (Studio sends an empty JobId, read as "studio"). */
export const ServerIdSchema = z
  .string()
  .max(100, 'serverId must be at most 100 characters')
  .regex(/^[A-Za-z0-9_.:-]*$/, 'serverId may hold letters, digits and _ . : - only');

export { isStudioServer, isStudioTestPlayer, STUDIO_SERVER_ID } from './studio.ts';

/**
 * ban, unban, kick and warn are moderation's (docs/protocol.md, "Moderation"): queued only by the
 * moderation service, never by POST /api/game/command.
 */
export const GameCommandTypeSchema = z.enum([
  'teleport',
  'heal',
  'speed',
  'reset',
  'execute',
  'script',
  'ban',
  'unban',
  'kick',
  'warn',
]);
export type GameCommandType = z.infer<typeof GameCommandTypeSchema>;

const EmptyDataSchema = z.object({}).strict().optional();
const SpeedDataSchema = z
  .object({
    multiplier: z.number().finite().positive().max(100).optional(),
    speed: z.number().finite().min(0).max(1000).optional(),
  })
  .strict()
  .refine((data) => (data.multiplier === undefined) !== (data.speed === undefined), {
    message: 'speed needs either multiplier or speed',
  });
const CodeDataSchema = z.object({ code: ScriptCodeSchema });

/** A command as the dashboard, the API and the admin send it: a type and the data that type needs. */
export const GameCommandRequestSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('teleport'), data: PositionSchema }),
    z.object({ type: z.literal('heal'), data: EmptyDataSchema }),
    z.object({ type: z.literal('speed'), data: SpeedDataSchema }),
    z.object({ type: z.literal('reset'), data: EmptyDataSchema }),
    z.object({ type: z.literal('execute'), data: CodeDataSchema }),
    z.object({ type: z.literal('script'), data: CodeDataSchema }),
  ])
  .and(z.object({ serverId: ServerIdSchema.optional() }))
  .meta({ id: 'GameCommandRequest' });
export type GameCommandRequest = z.infer<typeof GameCommandRequestSchema>;

export const GameCommandResponseSchema = z
  .object({
    queued: z.literal(true),
    message: z.string(),
    /**
     * The command's id. A command without `serverId` to a user with live game servers is one
     * broadcast to all of them: `id` is the broadcast's, and each server's copy gets an id of its own
     * when that server takes it (`command:update` events carry the broadcast's totals under `id`).
     */
    id: z.string(),
    /** `[id]`; kept for clients of the time when a command to every server was one command each. */
    ids: z.array(z.string()),
    /** The live game servers a broadcast is for (absent for a command to one server or the next one to ping). */
    servers: z.number().int().optional(),
  })
  .meta({ id: 'GameCommandResponse' });
export type GameCommandResponse = z.infer<typeof GameCommandResponseSchema>;

/** A command as the game receives it. `data` is always an object (empty for heal and reset). */
export const DeliveredCommandSchema = z
  .object({
    id: z.string(),
    type: GameCommandTypeSchema,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'DeliveredCommand' });
export type DeliveredCommand = z.infer<typeof DeliveredCommandSchema>;

/** What the game's code printed or raised: kept, with any U+0000 shown as U+FFFD (printableText). */
const GameOutputSchema = z.string().max(GAME_COMMAND_RESULT_OUTPUT_MAX_CHARS).transform(printableText);

/** The outcome of one command, carried by a later ping. */
export const CommandResultSchema = z.object({
  id: z.string().max(100),
  success: z.boolean(),
  output: GameOutputSchema.optional(),
  error: GameOutputSchema.nullable().optional(),
  /** How long the game spent running it. */
  durationMs: z.number().finite().min(0).max(3_600_000).optional(),
});
export type CommandResult = z.infer<typeof CommandResultSchema>;

export const GamePingRequestSchema = z
  .object({
    key: z.string().max(200),
    playerData: PlayerDataSchema.optional(),
    serverId: ServerIdSchema.optional(),
    results: z.array(CommandResultSchema).max(GAME_PING_MAX_RESULTS).optional(),
    /** Long-poll: hold the answer up to this many seconds until a command arrives. */
    wait: z.number().finite().min(0).max(GAME_LONG_POLL_MAX_SECONDS).optional(),
    /** What the game's scripts logged since the last ping (the live console, contract/src/console.ts). */
    console: ConsoleBatchSchema.optional(),
    /** The server's players: all of them, or who joined and left since the last ping (contract/src/players.ts). */
    roster: RosterReportSchema.optional(),
  })
  .meta({ id: 'GamePingRequest' });
export type GamePingRequest = z.infer<typeof GamePingRequestSchema>;

export const GamePingResponseSchema = z
  .object({
    success: z.literal(true),
    /** The first pending command, or null (the spec's shape). */
    command: DeliveredCommandSchema.nullable(),
    /** Every pending command, oldest first, up to GAME_PING_MAX_COMMANDS. */
    commands: z.array(DeliveredCommandSchema).max(GAME_PING_MAX_COMMANDS),
    /** Moonrelay has lost track of this server's players: send the whole roster on the next ping. */
    rosterWanted: z.boolean().optional(),
  })
  .meta({ id: 'GamePingResponse' });
export type GamePingResponse = z.infer<typeof GamePingResponseSchema>;

export const GameServerSchema = z
  .object({
    serverId: z.string(),
    connected: z.boolean(),
    lastPing: z.string(),
    connectedAt: z.string(),
    gameData: PlayerDataSchema.nullable(),
  })
  .meta({ id: 'GameServer' });
export type GameServer = z.infer<typeof GameServerSchema>;

/** A game server whose last ping Moonrelay refused (400) for what it carried, and why. */
export const GameServerRefusalSchema = z
  .object({
    serverId: z.string(),
    /** The refusal's error, as the game got it ("playerData.userId: ..."). */
    reason: z.string(),
    refusedAt: z.string(),
  })
  .meta({ id: 'GameServerRefusal' });
export type GameServerRefusal = z.infer<typeof GameServerRefusalSchema>;

/** GET /api/game/status: the whole list, fetched once; the `game:servers` socket event then carries changes. */
export const GameStatusSchema = z
  .object({
    connected: z.boolean(),
    /** The most recent ping of any of the user's game servers. */
    lastPing: z.string().nullable(),
    /** The player data of the most recently pinged server. */
    gameData: PlayerDataSchema.nullable(),
    /** Game servers seen in the connection window, most recent first. */
    servers: z.array(GameServerSchema),
    /**
     * Game servers whose pings are refused (the last one within 10 minutes, none accepted since):
     * the game's own health, shown to its owner instead of a silently missing server.
     */
    refusedPings: z.array(GameServerRefusalSchema).optional(),
    /**
     * The last game server refused for the API key's server budget within 10 minutes (too many
     * servers at once, or too many new ones in a minute): the owner is told, not left guessing.
     */
    serverBudget: GameServerRefusalSchema.nullable().optional(),
  })
  .meta({ id: 'GameStatus' });
export type GameStatus = z.infer<typeof GameStatusSchema>;

/** The loader's key: without it the gate answers 401 before the query is validated, so it is required here. */
export const KeyQuerySchema = z.object({ key: z.string().max(200) });

export const ProfileQuerySchema = z.object({
  userId: z.string().regex(/^\d{1,20}$/, 'userId must be a Roblox user id (digits)'),
});

export const PlayerProfileSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    avatarUrl: z.string().nullable(),
    hasVerifiedBadge: z.boolean(),
    created: z.string().nullable(),
  })
  .meta({ id: 'PlayerProfile' });
export type PlayerProfile = z.infer<typeof PlayerProfileSchema>;

/**
 * Whether a game on Roblox can reach the address in the integration scripts: judged from the
 * address alone (not localhost, a private, loopback, link-local or carrier-grade NAT address, nor a
 * name only a local network knows). The texts are for the reader: an admin is told what to set, a
 * member whom to ask.
 */
export const IntegrationReachabilitySchema = z
  .object({
    reachable: z.boolean().describe('Whether a game running on Roblox’s servers can reach `address`.'),
    address: z
      .string()
      .describe('The base URL the scripts call (PUBLIC_URL, or the address the dashboard was opened at).'),
    https: z.boolean().describe('Whether `address` is https.'),
    problem: z.string().optional().describe('Why a game on Roblox cannot reach `address`; only when not reachable.'),
    fix: z.string().optional().describe('What to do about it; only when not reachable.'),
    note: z
      .string()
      .optional()
      .describe('Advice on a reachable address served over plain http; admins only, who can change it.'),
  })
  .meta({ id: 'IntegrationReachability' });
export type IntegrationReachability = z.infer<typeof IntegrationReachabilitySchema>;

/** The three integration scripts of the Integration panel, templated with the URL and the key. */
export const IntegrationScriptsSchema = z
  .object({
    quickLoader: z.string(),
    gameIntegration: z.string(),
    teleportExample: z.string(),
    reachability: IntegrationReachabilitySchema,
  })
  .meta({ id: 'IntegrationScripts' });
export type IntegrationScripts = z.infer<typeof IntegrationScriptsSchema>;

export const CommandStatusSchema = z.enum(['queued', 'delivered', 'succeeded', 'failed', 'expired']);
export type CommandStatus = z.infer<typeof CommandStatusSchema>;

/** A command's life as screens see it (the `command:update` socket event). */
export const CommandViewSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    serverId: z.string().nullable(),
    type: GameCommandTypeSchema,
    status: CommandStatusSchema,
    source: z.enum(['dashboard', 'execution', 'admin', 'moderation']),
    executionId: z.string().nullable(),
    attempts: z.number().int(),
    output: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    /** On one server's copy of a broadcast: the broadcast's id. */
    broadcastId: z.string().nullable().optional(),
    /**
     * On a broadcast: how far it got. `servers` were live when it was sent; `taken` of them have it,
     * `succeeded` and `failed` answered. Its status is queued until the first takes it, delivered
     * while answers are due, then succeeded (every answer a success), failed (any failure) or
     * expired (none took it), once every server answered or its 10 minutes passed.
     */
    broadcast: z
      .object({
        servers: z.number().int(),
        taken: z.number().int(),
        succeeded: z.number().int(),
        failed: z.number().int(),
      })
      .optional(),
  })
  .meta({ id: 'GameCommand' });
export type CommandView = z.infer<typeof CommandViewSchema>;
