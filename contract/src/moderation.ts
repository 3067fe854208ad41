import { z } from 'zod';
import { ActiveBanSchema } from './open-cloud.ts';

/**
 * Moderation of the players in a user's games (docs/decisions/037-moderation.md): private notes,
 * warnings and kicks shown to the player in a live server, and bans carried out by Roblox's own
 * Ban API. A ban or unban goes by a path (`game`: a live server of the owner's game runs
 * Players:BanAsync; `open_cloud`: Roblox's Open Cloud with the owner's key) and is `pending` until
 * that path reports, then `applied`, or `failed` with Roblox's own error text.
 */

/** Roblox's limits (Players:BanAsync): the reason shown to the player, the private one, ids per call. */
export const BAN_DISPLAY_REASON_MAX_CHARS = 400;
export const BAN_PRIVATE_REASON_MAX_CHARS = 1000;
export const BAN_MAX_USERS_PER_CALL = 50;
/** A ban's Duration that means "for ever" (as BanAsync takes it). */
export const PERMANENT_BAN = -1;
/** The longest timed ban accepted: 100 years. */
export const BAN_MAX_SECONDS = 100 * 365 * 24 * 3600;
export const MODERATION_NOTE_MAX_CHARS = 2000;
/** A warning or kick message, shown to the player. */
export const MODERATION_MESSAGE_MAX_CHARS = 400;
/** The most actions one history page answers. */
export const MODERATION_HISTORY_MAX = 200;
/** Moonrelay's bans in force a page at a time (GET /api/players/bans): 50 unless `limit` says, at most 100. */
export const BANS_PAGE_SIZE_DEFAULT = 50;
export const BANS_PAGE_SIZE_MAX = 100;

export const MODERATION_ERRORS = {
  notOnline: 'The player is not online in any of your game servers, so there is nobody to kick or warn',
  notBanned: 'The player is not banned',
  banChanged: 'The ban was changed or lifted meanwhile: reload the player and try again',
  alreadyBanned: 'The player is already banned: edit the ban instead (PUT /api/players/{userId}/ban)',
  tooManyPlayers: `userIds: at most ${BAN_MAX_USERS_PER_CALL} players in one request (Roblox's BanAsync limit)`,
  duration: `durationSeconds: a number of seconds above 0 (at most ${BAN_MAX_SECONDS}), or ${PERMANENT_BAN} for a permanent ban`,
  displayReason: `displayReason: at most ${BAN_DISPLAY_REASON_MAX_CHARS} characters (Roblox's limit)`,
  privateReason: `privateReason: at most ${BAN_PRIVATE_REASON_MAX_CHARS} characters (Roblox's limit)`,
  note: `text: at most ${MODERATION_NOTE_MAX_CHARS} characters`,
  message: `message: at most ${MODERATION_MESSAGE_MAX_CHARS} characters`,
  invalidCursor: 'cursor: not a cursor this list answered',
} as const;

export const ModerationKindSchema = z.enum(['note', 'warning', 'kick', 'ban', 'unban']);
export type ModerationKind = z.infer<typeof ModerationKindSchema>;
export const BanPathSchema = z.enum(['game', 'open_cloud']);
export type BanPath = z.infer<typeof BanPathSchema>;
export const ModerationStateSchema = z.enum(['pending', 'applied', 'failed']);
export type ModerationState = z.infer<typeof ModerationStateSchema>;

export const ModerationActionSchema = z
  .object({
    id: z.string(),
    /** The Roblox player it is about. */
    userId: z.number(),
    kind: ModerationKindSchema,
    /** Who took it (null once their account is gone). */
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    /** The note, the warning or kick message, a ban's display reason, an unban's reason. */
    message: z.string(),
    /** A ban's private reason (never shown to the player). */
    privateReason: z.string().nullable(),
    /** A ban's length in seconds; null is permanent. */
    durationSeconds: z.number().nullable(),
    excludeAltAccounts: z.boolean(),
    /** How it is carried out: `game` (a live server) or `open_cloud`; null for a note. */
    path: BanPathSchema.nullable(),
    state: ModerationStateSchema,
    /** Roblox's own error text, when it failed. */
    error: z.string().nullable(),
    /** The game server it was sent to, once sent. */
    serverId: z.string().nullable(),
    /** An edited ban: the ban it replaces. */
    replaces: z.string().nullable(),
    /** A ban: the ban that replaced it (an edit) or the unban that lifted it. */
    endedBy: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'ModerationAction' });
export type ModerationAction = z.infer<typeof ModerationActionSchema>;

export const ModerationHistorySchema = z
  .object({
    /** Newest first. */
    actions: z.array(ModerationActionSchema),
    /** The ban in force (or pending), if any. */
    ban: ModerationActionSchema.nullable(),
    /**
     * With no Moonrelay ban: a ban in force in Roblox made elsewhere (Creator Hub, another tool), as
     * of the last Open Cloud import; POST .../unban lifts it through Open Cloud.
     */
    elsewhere: ActiveBanSchema.nullable(),
  })
  .meta({ id: 'ModerationHistory' });
export type ModerationHistory = z.infer<typeof ModerationHistorySchema>;

export const BanListSchema = z
  .object({
    /** A page of Moonrelay's bans in force (or pending), newest first. */
    bans: z.array(ModerationActionSchema.extend({ name: z.string().nullable() })),
    /** Pass as `cursor` for the next page of `bans`; null on the last page. */
    nextCursor: z.string().nullable(),
    /** Moonrelay's bans in force (or pending), on every page together. */
    total: z.number().int(),
    /**
     * Bans in force in Roblox that no Moonrelay ban covers (made in Creator Hub, by BanAsync in other
     * scripts, or by other tools), as of the last Open Cloud import; empty without an Open Cloud key.
     * Answered with the first page (no cursor) only; empty on the pages after it.
     */
    elsewhere: z.array(ActiveBanSchema.extend({ name: z.string().nullable() })),
  })
  .meta({ id: 'BanList' });
export type BanList = z.infer<typeof BanListSchema>;

export const ModerationActionsSchema = z
  .object({ actions: z.array(ModerationActionSchema) })
  .meta({ id: 'ModerationActions' });

export const NoteRequestSchema = z
  .object({
    text: z.string().trim().min(1, 'text: write the note').max(MODERATION_NOTE_MAX_CHARS, MODERATION_ERRORS.note),
  })
  .meta({ id: 'ModerationNoteRequest' });

export const PlayerMessageRequestSchema = z
  .object({
    message: z
      .string()
      .trim()
      .min(1, 'message: write what the player is told')
      .max(MODERATION_MESSAGE_MAX_CHARS, MODERATION_ERRORS.message),
  })
  .meta({ id: 'ModerationMessageRequest' });

const DurationSchema = z
  .number({ error: MODERATION_ERRORS.duration })
  .int(MODERATION_ERRORS.duration)
  .refine((value) => value === PERMANENT_BAN || (value > 0 && value <= BAN_MAX_SECONDS), MODERATION_ERRORS.duration);

const BanFields = {
  durationSeconds: DurationSchema,
  displayReason: z
    .string()
    .trim()
    .min(1, 'displayReason: say why (Roblox shows it to the player)')
    .max(BAN_DISPLAY_REASON_MAX_CHARS, MODERATION_ERRORS.displayReason),
  privateReason: z.string().trim().max(BAN_PRIVATE_REASON_MAX_CHARS, MODERATION_ERRORS.privateReason).optional(),
  /** Roblox bans the player's alt accounts too unless this is true. */
  excludeAltAccounts: z.boolean().optional(),
};

export const BanRequestSchema = z.object(BanFields).meta({ id: 'BanRequest' });
export type BanRequest = z.infer<typeof BanRequestSchema>;

export const BulkBanRequestSchema = z
  .object({
    userIds: z
      .array(z.number().int().min(-1e15).max(1e15))
      .min(1, 'userIds: name at least one player')
      .max(BAN_MAX_USERS_PER_CALL, MODERATION_ERRORS.tooManyPlayers),
    ...BanFields,
  })
  .meta({ id: 'BulkBanRequest' });

export const UnbanRequestSchema = z
  .object({
    reason: z
      .string()
      .trim()
      .max(BAN_PRIVATE_REASON_MAX_CHARS, `reason: at most ${BAN_PRIVATE_REASON_MAX_CHARS} characters`)
      .optional(),
  })
  .meta({ id: 'UnbanRequest' });

export const ModerationOwnerQuerySchema = z.object({ ownerId: z.string().max(100).optional() });
export const BanListQuerySchema = ModerationOwnerQuerySchema.extend({
  /** The nextCursor of the previous page; without one, the first page. */
  cursor: z.string().min(1).max(300).optional(),
  limit: z.coerce.number().int().min(1).max(BANS_PAGE_SIZE_MAX).default(BANS_PAGE_SIZE_DEFAULT),
});
export type BanListQuery = z.input<typeof BanListQuerySchema>;
export const ModerationHistoryQuerySchema = z.object({
  ownerId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(MODERATION_HISTORY_MAX).optional(),
});
