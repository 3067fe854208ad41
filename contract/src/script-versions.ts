import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { AutoExecuteGamesSchema } from './scripts.ts';

/**
 * Script versions: every save that changes a script keeps the script as it then stood, numbered
 * from 1 (the script as created). The newest SCRIPT_VERSIONS_KEPT are kept; a restore is itself a
 * new version, so nothing is ever overwritten (docs/decisions/024-script-versions.md).
 */
export const SCRIPT_VERSIONS_KEPT = 100;

export const SCRIPT_VERSION_ERRORS = {
  /** Also the answer for a version pruned since, and for another user's script. */
  notFound: 'Version not found',
  invalidNumber: 'n: must be a version number (1 or more)',
} as const;

/** How a version came to be: a save from a session, a save with the API key, or a restore. */
export const ScriptVersionOriginSchema = z.enum(['session', 'key', 'restore']);
export type ScriptVersionOrigin = z.infer<typeof ScriptVersionOriginSchema>;

export const ScriptVersionParamsSchema = z.object({
  id: z.string().min(1),
  n: z.coerce
    .number({ error: SCRIPT_VERSION_ERRORS.invalidNumber })
    .int(SCRIPT_VERSION_ERRORS.invalidNumber)
    .min(1, SCRIPT_VERSION_ERRORS.invalidNumber)
    .max(2_147_483_647, SCRIPT_VERSION_ERRORS.invalidNumber),
});

/** One version in the History list (without its code). */
export const ScriptVersionSummarySchema = z
  .object({
    number: z.number().int(),
    name: z.string(),
    /** The name of whoever saved it (null once that account is gone). */
    savedBy: z.string().nullable(),
    savedVia: ScriptVersionOriginSchema,
    /** The name of the API key the save was made with, if it was. */
    savedByKey: z.string().nullable(),
    /** A restore: the version it brought back. */
    restoredFrom: z.number().int().nullable(),
    /** Size of the code in UTF-8 bytes, and its lines. */
    codeBytes: z.number().int(),
    lines: z.number().int(),
    current: z.boolean(),
    createdAt: IsoDateTimeSchema,
  })
  .meta({ id: 'ScriptVersionSummary' });
export type ScriptVersionSummary = z.infer<typeof ScriptVersionSummarySchema>;

export const ScriptVersionListSchema = z
  .object({
    scriptId: z.string(),
    /** The script's current version number. */
    current: z.number().int(),
    /** Newest first. */
    items: z.array(ScriptVersionSummarySchema),
  })
  .meta({ id: 'ScriptVersionList' });
export type ScriptVersionList = z.infer<typeof ScriptVersionListSchema>;

/** One version in full: the script's fields as that save left them. */
export const ScriptVersionSchema = ScriptVersionSummarySchema.extend({
  scriptId: z.string(),
  description: z.string().nullable(),
  code: z.string(),
  isAutoExecute: z.boolean(),
  isPublic: z.boolean(),
  gameId: z.string().nullable(),
  gameName: z.string().nullable(),
  gameImageUrl: z.string().nullable(),
  autoExecuteGames: AutoExecuteGamesSchema.nullable(),
}).meta({ id: 'ScriptVersion' });
export type ScriptVersion = z.infer<typeof ScriptVersionSchema>;
