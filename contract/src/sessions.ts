import { z } from 'zod';
import { IsoDateTimeSchema } from './common.ts';
import { EmailSchema, PasswordSchema } from './auth.ts';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { VALIDATION } from './messages.ts';

/** How a session was made: the first step, and the second factor it passed (null: none was asked). */
export const SignInMethodSchema = z.enum(['password', 'passkey', 'google', 'registration']);
export type SignInMethod = z.infer<typeof SignInMethodSchema>;
export const SecondFactorSchema = z.enum(['code', 'passkey']).nullable();

/** One signed-in browser or device of the account, as Settings lists it. */
export const SessionInfoSchema = z
  .object({
    id: z.string(),
    createdAt: IsoDateTimeSchema,
    /** Exact to within a few minutes: a session's use is recorded at most every five minutes. */
    lastUsedAt: IsoDateTimeSchema,
    /** The address it signed in from, and the one it was last used from (null: not known, an older session). */
    signInAddress: z.string().nullable(),
    lastAddress: z.string().nullable(),
    /** The browser's own User-Agent, and a short reading of it ("Chrome on Windows"). */
    userAgent: z.string().nullable(),
    browser: z.string(),
    signedInWith: SignInMethodSchema,
    secondFactor: SecondFactorSchema,
    /** The session this request was made with. */
    current: z.boolean(),
  })
  .meta({ id: 'SessionInfo' });
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const SessionListSchema = z.object({ sessions: z.array(SessionInfoSchema) }).meta({ id: 'SessionList' });
export type SessionList = z.infer<typeof SessionListSchema>;

export const SessionParamsSchema = z.object({ sessionId: z.string().min(1).max(100) });

export const EndedSessionsSchema = z
  .object({ success: z.literal(true), ended: z.number().int(), message: z.string() })
  .meta({ id: 'EndedSessions' });
export type EndedSessions = z.infer<typeof EndedSessionsSchema>;

const currentPassword = z
  .string({ error: (issue) => (issue.input === undefined ? VALIDATION.passwordRequired : 'password must be text') })
  .min(1, VALIDATION.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, VALIDATION.passwordTooLong);

/**
 * A new password. `currentPassword`, when sent, is the proof the change needs; without it the
 * session must have proved itself in the last 10 minutes (sudo mode).
 */
export const ChangePasswordRequestSchema = z
  .object({ currentPassword: currentPassword.optional(), newPassword: PasswordSchema })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const ChangeEmailRequestSchema = z.object({ email: EmailSchema }).meta({ id: 'ChangeEmailRequest' });
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequestSchema>;

/** The ways this account can prove itself again; 'sign-in' means signing in afresh (no password, no second factor). */
export const SudoMethodSchema = z.enum(['password', 'code', 'passkey', 'sign-in']);
export type SudoMethod = z.infer<typeof SudoMethodSchema>;

export const SudoStatusSchema = z
  .object({
    /** Until when this session may make protected changes without proving itself again; null: it must first. */
    until: IsoDateTimeSchema.nullable(),
    methods: z.array(SudoMethodSchema),
  })
  .meta({ id: 'SudoStatus' });
export type SudoStatus = z.infer<typeof SudoStatusSchema>;

/** The answer of a protected change asked without a recent proof (403): `code` is what the client acts on. */
export const SudoRequiredSchema = z
  .object({ error: z.string(), code: z.literal('sudo_required'), methods: z.array(SudoMethodSchema) })
  .meta({ id: 'SudoRequired' });
export type SudoRequired = z.infer<typeof SudoRequiredSchema>;

export const SUDO_REQUIRED_CODE = 'sudo_required' as const;
