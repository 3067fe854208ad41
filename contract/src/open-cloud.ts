import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { PlaceIdSchema, PlaceVersionSchema } from './cloud-runs.ts';

/**
 * Roblox Open Cloud bans (docs/decisions/038-open-cloud-bans.md): a user's Open Cloud key (their
 * game's universe id and an API key with the user-restriction scopes), with which Moonrelay bans and
 * unbans players with no game server running, and imports the bans made elsewhere (Creator Hub,
 * BanAsync in a game, other tools).
 */

export const OPEN_CLOUD_ERRORS = {
  universeIdInvalid:
    "universeId: must be the digits of your game's universe id (Creator Hub, the experience's overview)",
  apiKeyInvalid: 'apiKey: must be an Open Cloud API key (20 to 1,000 characters, no spaces)',
  keyRefused:
    "Roblox refused this API key for this universe. Create it in Creator Hub → Open Cloud → API Keys with the user-restriction API's universe.user-restriction:read and :write scopes, and add this universe to it.",
  robloxUnreachable: 'Roblox could not be reached to check the key; nothing was saved. Try again in a minute.',
  noKey: 'No Open Cloud key is saved',
} as const;

/** Open Cloud API keys are long base64 strings; the bounds only keep nonsense out. */
const API_KEY_MIN = 20;
const API_KEY_MAX = 1000;

export const SaveOpenCloudKeyRequestSchema = z
  .object({
    universeId: z.string().regex(/^[1-9]\d{0,18}$/, OPEN_CLOUD_ERRORS.universeIdInvalid),
    apiKey: z
      .string()
      .trim()
      .min(API_KEY_MIN, OPEN_CLOUD_ERRORS.apiKeyInvalid)
      .max(API_KEY_MAX, OPEN_CLOUD_ERRORS.apiKeyInvalid)
      .regex(/^\S+$/, OPEN_CLOUD_ERRORS.apiKeyInvalid),
    /** The place cloud runs use (optional; also set with PUT /api/open-cloud/place). */
    placeId: PlaceIdSchema.optional(),
    placeVersion: PlaceVersionSchema.nullable().optional(),
  })
  .meta({ id: 'SaveOpenCloudKeyRequest' });
export type SaveOpenCloudKeyRequest = z.infer<typeof SaveOpenCloudKeyRequestSchema>;

export const OpenCloudKeySchema = z
  .object({
    universeId: z.string(),
    /** The key's first and last characters; the rest is never shown again. */
    maskedKey: z.string(),
    createdAt: IsoDateTimeSchema,
    updatedAt: IsoDateTimeSchema,
    lastImportAt: IsoDateTimeSchema.nullable(),
    lastImportError: z.string().nullable(),
    /** The place cloud runs use, and its pinned version (null: the newest). */
    placeId: z.string().nullable(),
    placeVersion: z.string().nullable(),
    /**
     * The key's scopes as Roblox's key introspection named them ("universe.user-restriction:write",
     * "universe.place.luau-execution-session:write", …); null when Roblox did not say.
     */
    scopes: z.array(z.string()).nullable(),
  })
  .meta({ id: 'OpenCloudKey' });
export type OpenCloudKey = z.infer<typeof OpenCloudKeySchema>;

export const OpenCloudKeyStatusSchema = z
  .object({ key: OpenCloudKeySchema.nullable() })
  .meta({ id: 'OpenCloudKeyStatus' });
export type OpenCloudKeyStatus = z.infer<typeof OpenCloudKeyStatusSchema>;

/** Admins may name another owner (as the Players calls take it). */
export const BansQuerySchema = z.object({
  ownerId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

const RestrictionFields = {
  userId: z.number(),
  /** Seconds; null for a permanent ban. */
  durationSeconds: z.number().nullable(),
  startTime: IsoDateTimeSchema.nullable(),
  displayReason: z.string(),
  privateReason: z.string(),
  excludeAltAccounts: z.boolean(),
};

export const ActiveBanSchema = z
  .object({ ...RestrictionFields, updateTime: IsoDateTimeSchema.nullable() })
  .meta({ id: 'ActiveBan' });
export type ActiveBan = z.infer<typeof ActiveBanSchema>;

export const BanLogEntrySchema = z
  .object({
    ...RestrictionFields,
    /** true: a ban was made or changed; false: a ban was lifted. */
    active: z.boolean(),
    /** Who did it: "users/<id>" for a person (or their API key), "game server script" for BanAsync. */
    moderator: z.string(),
    createTime: IsoDateTimeSchema,
    /** The place of a place-level ban; null for the whole universe. */
    placeId: z.string().nullable(),
  })
  .meta({ id: 'BanLogEntry' });
export type BanLogEntry = z.infer<typeof BanLogEntrySchema>;

export const BansSchema = z
  .object({
    universeId: z.string().nullable(),
    active: z.array(ActiveBanSchema),
    /** Newest first. */
    logs: z.array(BanLogEntrySchema),
    lastImportAt: IsoDateTimeSchema.nullable(),
    lastImportError: z.string().nullable(),
  })
  .meta({ id: 'Bans' });
export type Bans = z.infer<typeof BansSchema>;

export const BanImportResultSchema = z
  .object({
    /** listLogs entries new to Moonrelay. */
    imported: z.number(),
    /** Bans in force now. */
    active: z.number(),
  })
  .meta({ id: 'BanImportResult' });
export type BanImportResult = z.infer<typeof BanImportResultSchema>;
