import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Scoped API keys (docs/decisions/029-scoped-api-keys.md). Beside the personal key, which can do
 * everything, a user creates named keys that can do only what their scopes say, optionally only
 * until a time and only from listed addresses. The key that sits in a game carries `game` alone, so
 * whoever reads the game's Script cannot change the owner's scripts or run code through Moonrelay.
 */
export const API_KEY_SCOPES = ['game', 'scripts:read', 'scripts:write', 'execute', 'commands', 'moderation'] as const;
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES, {
  error: `scopes: each must be one of ${API_KEY_SCOPES.join(', ')}`,
});
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

/** What each scope lets a key do, in the words the Settings screen shows. */
export const API_KEY_SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  game: 'Connect a game: ping, send results and console lines, load the integration script, read your auto-execute scripts and fetch a script by name. What the integration scripts need.',
  'scripts:read': 'Read all your scripts, their versions and your script analytics.',
  'scripts:write': 'Create, change, restore and delete your scripts (including auto-execute).',
  execute: 'Run code and saved scripts in your game or the sandbox, and read your runs.',
  commands: 'Send commands to your game (teleport, heal, speed, reset, execute) and read its status and console.',
  moderation:
    "See who is playing in your games now and every player's record and sessions; keep notes on players, warn, kick, ban and unban them.",
};

/** Keys a user may hold beside the personal key (revoked ones do not count, nor the integration key). */
export const SCOPED_KEYS_PER_USER = 25;
export const API_KEY_NAME_MAX_LENGTH = 60;
export const API_KEY_ALLOWED_IPS_MAX = 20;
/** The latest expiry a key may be given. */
export const API_KEY_MAX_LIFETIME_DAYS = 366 * 3;
/** The name the key made for the dashboard's integration scripts carries. */
export const INTEGRATION_KEY_NAME = 'Game (integration scripts)';
/** How audit entries and the script history name the personal key. */
export const PERSONAL_KEY_NAME = 'Personal API key';

export const API_KEY_ERRORS = {
  nameRequired: 'name: a key needs a name',
  nameTooLong: `name: at most ${API_KEY_NAME_MAX_LENGTH} characters`,
  scopesRequired: 'scopes: choose at least one scope',
  scopesRepeated: 'scopes: each scope once',
  expiryInPast: 'expiresAt: must be in the future',
  expiryTooFar: `expiresAt: at most ${API_KEY_MAX_LIFETIME_DAYS} days from now`,
  allowedIpInvalid: 'allowedIps: each entry must be an IP address or a CIDR range such as 203.0.113.0/24',
  allowedIpsTooMany: `allowedIps: at most ${API_KEY_ALLOWED_IPS_MAX} entries`,
  tooManyKeys: `You already have ${SCOPED_KEYS_PER_USER} API keys, the most allowed: revoke one first`,
  notFound: 'API key not found',
  expired: 'This API key has expired',
  revoked: 'This API key was revoked',
  addressRefused: 'This API key cannot be used from this address',
  /** Followed by the scope (or scopes, any one of which will do) the call needs. */
  scopeMissingPrefix: 'This API key lacks the scope this call needs: ',
} as const;

const ipOrCidr = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: API_KEY_ERRORS.allowedIpInvalid });

export const CreateApiKeyRequestSchema = z
  .object({
    name: z
      .string({ error: API_KEY_ERRORS.nameRequired })
      .trim()
      .min(1, API_KEY_ERRORS.nameRequired)
      .max(API_KEY_NAME_MAX_LENGTH, API_KEY_ERRORS.nameTooLong),
    scopes: z
      .array(ApiKeyScopeSchema, { error: API_KEY_ERRORS.scopesRequired })
      .min(1, API_KEY_ERRORS.scopesRequired)
      .max(API_KEY_SCOPES.length, API_KEY_ERRORS.scopesRepeated)
      .refine((scopes) => new Set(scopes).size === scopes.length, API_KEY_ERRORS.scopesRepeated),
    /** When the key stops working; omitted or null, never. */
    expiresAt: IsoDateTimeSchema.nullish()
      .refine((value) => value == null || Date.parse(value) > Date.now(), API_KEY_ERRORS.expiryInPast)
      .refine(
        (value) => value == null || Date.parse(value) <= Date.now() + API_KEY_MAX_LIFETIME_DAYS * 86_400_000,
        API_KEY_ERRORS.expiryTooFar,
      ),
    /** Addresses and CIDR ranges the key works from; omitted, null or empty, anywhere. */
    allowedIps: z
      .array(z.string().trim().pipe(ipOrCidr), { error: API_KEY_ERRORS.allowedIpInvalid })
      .max(API_KEY_ALLOWED_IPS_MAX, API_KEY_ERRORS.allowedIpsTooMany)
      .nullish(),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

/** A scoped key as lists show it: never the key itself, only its first and last characters. */
export const ApiKeySummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(ApiKeyScopeSchema),
    /** The key masked: its first 8 characters, an ellipsis, its last 4. */
    maskedKey: z.string(),
    /** The key Moonrelay made for the dashboard's integration scripts. */
    integration: z.boolean(),
    allowedIps: z.array(z.string()).nullable(),
    createdAt: IsoDateTimeSchema,
    expiresAt: IsoDateTimeSchema.nullable(),
    /** Recorded at most once a minute, with the address the call came from. */
    lastUsedAt: IsoDateTimeSchema.nullable(),
    lastUsedIp: z.string().nullable(),
  })
  .meta({ id: 'ApiKeySummary' });
export type ApiKeySummary = z.infer<typeof ApiKeySummarySchema>;

export const ApiKeyListSchema = z
  .object({ items: z.array(ApiKeySummarySchema), limit: z.number().int() })
  .meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

/** The answer to creating a key: the only time the key itself is shown. */
export const CreatedApiKeySchema = ApiKeySummarySchema.extend({ key: z.string() }).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyParamsSchema = z.object({ keyId: z.string().min(1) });
export const AdminApiKeyParamsSchema = z.object({ id: z.string().min(1), keyId: z.string().min(1) });
