import { z } from 'zod';
import {
  AUTO_EXECUTE_GAMES_MAX_ENTRIES,
  SCRIPT_CODE_MAX_BYTES,
  SCRIPT_DESCRIPTION_MAX_LENGTH,
  SCRIPT_NAME_MAX_LENGTH,
} from './constants.ts';
import { VALIDATION } from './messages.ts';
import { IsoDateTimeSchema } from './common.ts';

const utf8Bytes = (value: string) => new TextEncoder().encode(value).length;

export const ScriptNameSchema = z
  .string({ error: VALIDATION.scriptNameRequired })
  .trim()
  .min(1, VALIDATION.scriptNameRequired)
  .max(SCRIPT_NAME_MAX_LENGTH, VALIDATION.scriptNameTooLong);

export const ScriptCodeSchema = z
  .string({ error: VALIDATION.scriptCodeRequired })
  .refine((code) => code.trim().length > 0, VALIDATION.scriptCodeRequired)
  // Cheap length test first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  .refine(
    (code) => code.length * 3 <= SCRIPT_CODE_MAX_BYTES || utf8Bytes(code) <= SCRIPT_CODE_MAX_BYTES,
    VALIDATION.scriptCodeTooLarge,
  );

/** Roblox place/universe ids are numbers; the product stores them as text. */
const GameIdSchema = z.union([z.string().trim().min(1).max(64), z.number().int().nonnegative()]).transform(String);

export const AutoExecuteGameSchema = z.object({
  enabled: z.boolean(),
  gameName: z.string().max(200).optional(),
  gameImageUrl: z.string().max(2048).optional(),
});

/** Keyed by game id, or 'all' for every game. */
export const AutoExecuteGamesSchema = z
  .record(z.string().min(1).max(64), AutoExecuteGameSchema)
  .refine((games) => Object.keys(games).length <= AUTO_EXECUTE_GAMES_MAX_ENTRIES, VALIDATION.autoExecuteGamesTooMany);
export type AutoExecuteGames = z.infer<typeof AutoExecuteGamesSchema>;

const optionalScriptFields = {
  description: z.string().max(SCRIPT_DESCRIPTION_MAX_LENGTH, VALIDATION.scriptDescriptionTooLong).nullish(),
  isAutoExecute: z.boolean().optional(),
  isPublic: z.boolean().optional(),
  gameId: GameIdSchema.nullish(),
  gameName: z.string().max(200).nullish(),
  gameImageUrl: z.string().max(2048).nullish(),
  autoExecuteGames: AutoExecuteGamesSchema.nullish(),
};

export const CreateScriptRequestSchema = z
  .object({ name: ScriptNameSchema, code: ScriptCodeSchema, ...optionalScriptFields })
  .meta({ id: 'CreateScriptRequest' });
export type CreateScriptRequest = z.infer<typeof CreateScriptRequestSchema>;

/** PUT takes the full shape or any part of it (the editor sometimes sends code only). */
/** A save made on a version the script has since moved past (`baseVersion`): nothing is saved. */
export const scriptMovedOn = (baseVersion: number, current: number) =>
  `The script was changed since version ${baseVersion} (it is at version ${current} now): fetch it and apply your change again, or save without baseVersion to overwrite it`;

export const UpdateScriptRequestSchema = z
  .object({
    name: ScriptNameSchema.optional(),
    code: ScriptCodeSchema.optional(),
    ...optionalScriptFields,
    /**
     * The version this change was made on (the command line sends it): the save is refused with
     * 409 when the script is at another version by then, so a change made elsewhere meanwhile is
     * never overwritten unseen.
     */
    baseVersion: z.number().int().min(1).optional(),
  })
  .refine(
    ({ baseVersion: _base, ...update }) => Object.values(update).some((value) => value !== undefined),
    VALIDATION.scriptUpdateEmpty,
  )
  // The refinement, for readers of the JSON Schema: at least one field.
  .meta({ id: 'UpdateScriptRequest', minProperties: 1 });
export type UpdateScriptRequest = z.infer<typeof UpdateScriptRequestSchema>;

export const ScriptSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    code: z.string(),
    isAutoExecute: z.boolean(),
    isPublic: z.boolean(),
    executionCount: z.number().int(),
    userId: z.string(),
    gameId: z.string().nullable(),
    gameName: z.string().nullable(),
    gameImageUrl: z.string().nullable(),
    autoExecuteGames: AutoExecuteGamesSchema.nullable(),
    createdAt: IsoDateTimeSchema,
    updatedAt: IsoDateTimeSchema,
    /** The number of its current version (GET /api/scripts/{id}/versions). */
    version: z.number().int(),
    /** The name of the API key the last change was made with; null when it was made signed in. */
    lastChangedByKey: z.string().nullable(),
  })
  .meta({ id: 'Script' });
export type Script = z.infer<typeof ScriptSchema>;

export const ScriptListSchema = z.array(ScriptSchema).meta({ id: 'ScriptList' });

/**
 * My Scripts a page at a time (GET /api/scripts/page): the scripts without their code, most
 * recently updated first, searched and filtered by the database, paged by an opaque cursor so a
 * page never repeats or skips a script while others are saved. GET /api/scripts still answers
 * every script with its code (the game client reads it).
 */
export const SCRIPTS_PAGE_SIZE_DEFAULT = 50;
export const SCRIPTS_PAGE_SIZE_MAX = 100;
export const SCRIPT_SEARCH_MAX_LENGTH = 200;

export const SCRIPT_LIST_ERRORS = {
  invalidCursor: 'cursor: not a cursor this list answered',
} as const;

/** All scripts, the auto-execute ones, or the manual ones (My Scripts' type filter). */
export const ScriptTypeFilterSchema = z.enum(['all', 'auto', 'manual']);
export type ScriptTypeFilter = z.infer<typeof ScriptTypeFilterSchema>;

export const ScriptListQuerySchema = z.object({
  /** Scripts whose name or description contains this text, ignoring case. */
  q: z.string().trim().max(SCRIPT_SEARCH_MAX_LENGTH).optional(),
  type: ScriptTypeFilterSchema.default('all'),
  /** The nextCursor of the previous page. */
  cursor: z.string().min(1).max(300).optional(),
  limit: z.coerce.number().int().min(1).max(SCRIPTS_PAGE_SIZE_MAX).default(SCRIPTS_PAGE_SIZE_DEFAULT),
});
export type ScriptListQuery = z.input<typeof ScriptListQuerySchema>;

/** A script as My Scripts lists it: everything its row and card show, not its code. */
export const ScriptSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isAutoExecute: z.boolean(),
    isPublic: z.boolean(),
    executionCount: z.number().int(),
    createdAt: IsoDateTimeSchema,
    updatedAt: IsoDateTimeSchema,
  })
  .meta({ id: 'ScriptSummary' });
export type ScriptSummary = z.infer<typeof ScriptSummarySchema>;

export const ScriptPageSchema = z
  .object({
    scripts: z.array(ScriptSummarySchema),
    /** Pass as `cursor` (with the same q and type) for the next page; null on the last page. */
    nextCursor: z.string().nullable(),
    /** Every script of the account, whatever q and type say. */
    total: z.number().int(),
    /** The scripts q and type match, on every page together. */
    matching: z.number().int(),
  })
  .meta({ id: 'ScriptPage' });
export type ScriptPage = z.infer<typeof ScriptPageSchema>;
