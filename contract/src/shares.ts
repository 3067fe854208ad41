import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';

/**
 * Sharing a script read-only by a link (docs/decisions/049, the spec's `isPublic`): whoever has the
 * link sees the code, its description and version, and can copy it into a team of theirs. A link
 * stops working when the script or the share is deleted; an account's shares go with it.
 */
export const SHARES_PER_SCRIPT = 20;

export const SHARE_ERRORS = {
  notFound: 'This shared link does not work: the script or the share was deleted',
  shareNotFound: 'Share not found',
  tooMany: `A script has at most ${SHARES_PER_SCRIPT} share links: delete one first`,
  targetTeam: 'teamId: not a team you can add scripts to (it needs the permission scripts.write)',
} as const;

export const ScriptShareSchema = z
  .object({
    id: z.string(),
    scriptId: z.string(),
    scriptName: z.string(),
    createdAt: IsoDateTimeSchema,
    /** Who made it (a member of the team), by username; null once their account is gone. */
    createdBy: z.string().nullable(),
  })
  .meta({ id: 'ScriptShare' });
export type ScriptShare = z.infer<typeof ScriptShareSchema>;

export const CreatedScriptShareSchema = ScriptShareSchema.extend({
  /** Shown once: the link carries the only copy (`/shared/<token>` on the dashboard). */
  token: z.string(),
}).meta({ id: 'CreatedScriptShare' });
export type CreatedScriptShare = z.infer<typeof CreatedScriptShareSchema>;

export const ScriptShareListSchema = z.object({ items: z.array(ScriptShareSchema) }).meta({ id: 'ScriptShareList' });
export type ScriptShareList = z.infer<typeof ScriptShareListSchema>;

export const SharedScriptSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    code: z.string(),
    version: z.number().int(),
    updatedAt: IsoDateTimeSchema,
    sharedAt: IsoDateTimeSchema,
  })
  .meta({ id: 'SharedScript' });
export type SharedScript = z.infer<typeof SharedScriptSchema>;

export const ShareTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });
export const ShareParamsSchema = z.object({ shareId: z.string().min(1) });
export const CopyScriptRequestSchema = z
  .object({ teamId: z.string({ error: SHARE_ERRORS.targetTeam }).min(1, SHARE_ERRORS.targetTeam).max(100) })
  .meta({ id: 'CopyScriptRequest' });
