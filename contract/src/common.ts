import { z } from 'zod';

/** Every error answer of the API: `{ "error": "..." }`, plus field issues for validation failures. */
export const ErrorResponseSchema = z
  .object({
    error: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const SuccessResponseSchema = z
  .object({ success: z.literal(true), message: z.string().optional() })
  .meta({ id: 'Success' });
export type SuccessResponse = z.infer<typeof SuccessResponseSchema>;

/** Times travel as ISO 8601 strings. */
export const IsoDateTimeSchema = z.iso.datetime();

/**
 * Any id is looked up as given: one that matches nothing (or is not a UUID) answers 404. Like any
 * text in a request, an id holding U+0000 is refused with 400 first (ERRORS.textHasNul).
 */
export const IdParamsSchema = z.object({ id: z.string().min(1) });

/**
 * Text a program wrote (a game's or the sandbox's output) with each U+0000 shown as U+FFFD:
 * requests may not carry NUL (ERRORS.textHasNul), but a Lua `print("\\0")` is no mistake of the
 * caller's, and the record of it must still be storable (PostgreSQL text cannot hold U+0000).
 */
export const printableText = (text: string): string => text.replaceAll('\u0000', '\uFFFD');
