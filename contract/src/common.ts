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

/** Any id is looked up as given: one that matches nothing (or is not a UUID) answers 404. */
export const IdParamsSchema = z.object({ id: z.string().min(1) });
