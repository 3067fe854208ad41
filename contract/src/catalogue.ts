import { z } from 'zod';
import { CATALOGUE_PAGE_SIZE, CATALOGUE_SEARCH_MAX_LENGTH } from './constants.ts';
import { ScriptCodeSchema } from './scripts.ts';

/**
 * The script catalogue (spec sections 2, 3 and 7, Catalogue): ScriptBlox, proxied and cached by
 * Moonrelay. The upstream spells some fields two ways (`universal`/`isUniversal`,
 * `patched`/`isPatched`, `keySystem`/`key`, `game._id`/`game.gameId`) and gives images as absolute
 * URLs or `/images/...` paths; the proxy answers one spelling, with absolute image URLs.
 */

const PageNumberSchema = z.coerce
  .number({ error: 'page must be a whole number from 1' })
  .int('page must be a whole number from 1')
  .min(1, 'page must be a whole number from 1')
  .max(100_000, 'page must be at most 100000');

const MaxSchema = z.coerce
  .number({ error: `max must be a whole number from 1 to ${CATALOGUE_PAGE_SIZE}` })
  .int(`max must be a whole number from 1 to ${CATALOGUE_PAGE_SIZE}`)
  .min(1, `max must be a whole number from 1 to ${CATALOGUE_PAGE_SIZE}`)
  .max(CATALOGUE_PAGE_SIZE, `max must be a whole number from 1 to ${CATALOGUE_PAGE_SIZE}`);

/** `GET /api/scriptblox/fetch?page=1&max=20` */
export const CatalogueFetchQuerySchema = z.object({
  page: PageNumberSchema.default(1),
  max: MaxSchema.default(CATALOGUE_PAGE_SIZE),
});
export type CatalogueFetchQuery = z.infer<typeof CatalogueFetchQuerySchema>;

/** `GET /api/scriptblox/search?q=...&page=1&max=20`: the term is required (spec section 5). */
export const CatalogueSearchQuerySchema = CatalogueFetchQuerySchema.extend({
  q: z
    .string({ error: 'q (the search term) is required' })
    .trim()
    .min(1, 'q (the search term) is required')
    .max(CATALOGUE_SEARCH_MAX_LENGTH, `q must be at most ${CATALOGUE_SEARCH_MAX_LENGTH} characters`),
});
export type CatalogueSearchQuery = z.infer<typeof CatalogueSearchQuerySchema>;

/** A catalogue script id (ScriptBlox's ids are 24 hex digits; slugs are accepted too). */
export const CatalogueScriptParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'id must be a catalogue script id (letters, digits, _ and - only)'),
});

export const CatalogueGameSchema = z.object({
  /** The catalogue's id for the game: a Roblox place id when numeric. */
  _id: z.string().nullable(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  universeId: z.number().nullable(),
});
export type CatalogueGame = z.infer<typeof CatalogueGameSchema>;

export const CatalogueScriptSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    game: CatalogueGameSchema,
    /** The script's own thumbnail, when it has one (absolute). */
    image: z.string().nullable(),
    views: z.number(),
    verified: z.boolean(),
    isUniversal: z.boolean(),
    isPatched: z.boolean(),
    keySystem: z.boolean(),
    createdAt: z.string().nullable(),
    /**
     * Functions the code calls that only client-side script executors provide (`game:HttpGet`,
     * `getgenv`, ...): a server Script does not have them, so running it in a game will fail.
     * Empty when none were found, or when the listing did not carry the code.
     */
    executorFunctions: z.array(z.string()),
  })
  .meta({ id: 'CatalogueScript' });
export type CatalogueScript = z.infer<typeof CatalogueScriptSchema>;

/**
 * Present only when the answer is older than the cache time: the catalogue was slow, failing or
 * being left alone, so a kept copy was answered at once (and a fresh one is being fetched).
 */
export const CatalogueStaleSchema = z
  .object({
    /** When the catalogue gave this answer (ISO 8601). */
    fetchedAt: z.string(),
  })
  .optional();

/** Every list answer: `result.scripts` (spec section 7), with how many pages there are and the next one. */
export const CataloguePageSchema = z
  .object({
    result: z.object({
      scripts: z.array(CatalogueScriptSchema),
      totalPages: z.number().int(),
      nextPage: z.number().int().nullable(),
    }),
    stale: CatalogueStaleSchema,
  })
  .meta({ id: 'CataloguePage' });
export type CataloguePage = z.infer<typeof CataloguePageSchema>;

/** `GET /api/scriptblox/script/{id}`: the source of one script, for the preview and for import. */
export const CatalogueSourceSchema = z
  .object({
    _id: z.string(),
    code: z.string(),
    executorFunctions: z.array(z.string()),
    stale: CatalogueStaleSchema,
  })
  .meta({ id: 'CatalogueSource' });
export type CatalogueSource = z.infer<typeof CatalogueSourceSchema>;

/**
 * Long scripts (spec sections 4 and 7): `POST /api/scripts/temp { script }` keeps the code and
 * answers a one-line loader that fetches it from `GET /api/scripts/load/{id}?key=<token>`.
 */
export const TempScriptRequestSchema = z.object({ script: ScriptCodeSchema }).meta({ id: 'TempScriptRequest' });
export type TempScriptRequest = z.infer<typeof TempScriptRequestSchema>;

export const TempScriptResponseSchema = z
  .object({
    id: z.string(),
    /** `loadstring(game:GetService("HttpService"):GetAsync(url))()` */
    loadstring: z.string(),
    /** Where the loader fetches the code from; its token reads this one script only. */
    url: z.string(),
    /** When the URL's token stops working (LOADER_TOKEN_DAYS after it was issued). */
    expiresAt: z.string(),
  })
  .meta({ id: 'TempScriptResponse' });
export type TempScriptResponse = z.infer<typeof TempScriptResponseSchema>;

export const ScriptTokenQuerySchema = z.object({
  key: z.string({ error: 'key (the script token) is required' }).min(1, 'key (the script token) is required').max(2000),
});
