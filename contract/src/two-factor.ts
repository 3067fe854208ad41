import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { TWO_FACTOR, VALIDATION } from './messages.ts';
import { AuthResponseSchema } from './auth.ts';

// Two-factor sign-in: an authenticator app's codes (TOTP) with one-time recovery codes.

const currentPassword = z
  .string({ error: (issue) => (issue.input === undefined ? VALIDATION.passwordRequired : 'password must be text') })
  .min(1, VALIDATION.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, VALIDATION.passwordTooLong);

/** A 6-digit code or a recovery code (xxxxx-xxxxx); the server tells which. */
const code = z
  .string({ error: (issue) => (issue.input === undefined ? TWO_FACTOR.codeRequired : 'code must be text') })
  .trim()
  .min(1, TWO_FACTOR.codeRequired)
  .max(32, TWO_FACTOR.codeTooLong);

export const TwoFactorStatusSchema = z
  .object({
    /** An authenticator app is asked for at sign-in. */
    totp: z.boolean(),
    recoveryCodesLeft: z.number().int(),
    /** This server requires admins to have a second factor (REQUIRE_TWO_FACTOR_FOR_ADMINS). */
    requiredForAdmins: z.boolean(),
    /** The signed-in user is an admin without a second factor on a server that requires one. */
    setupRequired: z.boolean(),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const TotpSetupRequestSchema = z.object({ password: currentPassword }).meta({ id: 'TotpSetupRequest' });
export type TotpSetupRequest = z.infer<typeof TotpSetupRequestSchema>;

export const TotpSetupSchema = z
  .object({
    /** Base32, for typing into the app by hand. */
    secret: z.string(),
    otpauthUrl: z.string(),
    /** The otpauth URL as a PNG QR code, as a data: URL. */
    qrCodeDataUrl: z.string(),
  })
  .meta({ id: 'TotpSetup' });
export type TotpSetup = z.infer<typeof TotpSetupSchema>;

export const TotpCodeRequestSchema = z.object({ code }).meta({ id: 'TotpCodeRequest' });
export type TotpCodeRequest = z.infer<typeof TotpCodeRequestSchema>;

export const RecoveryCodesSchema = z
  .object({ recoveryCodes: z.array(z.string()), status: TwoFactorStatusSchema })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** Turning it off: the current password, or a current code (TOTP or recovery). */
export const TotpDisableRequestSchema = z
  .object({ password: currentPassword.optional(), code: code.optional() })
  .refine((body) => body.password !== undefined || body.code !== undefined, { message: TWO_FACTOR.wrongCurrentProof })
  .meta({ id: 'TotpDisableRequest' });
export type TotpDisableRequest = z.infer<typeof TotpDisableRequestSchema>;

/** What login answers instead of a session when the account has a second factor. */
export const TwoFactorChallengeSchema = z
  .object({
    twoFactorRequired: z.literal(true),
    /** Sent back with the code to POST /api/auth/login/two-factor; valid for 5 minutes. */
    challenge: z.string(),
  })
  .meta({ id: 'TwoFactorChallenge' });
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

export const LoginResponseSchema = z
  .union([AuthResponseSchema, TwoFactorChallengeSchema])
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const TwoFactorLoginRequestSchema = z
  .object({
    challenge: z
      .string({
        error: (issue) => (issue.input === undefined ? TWO_FACTOR.challengeRequired : 'challenge must be text'),
      })
      .min(1, TWO_FACTOR.challengeRequired)
      .max(4096, TWO_FACTOR.challengeInvalid),
    code,
  })
  .meta({ id: 'TwoFactorLoginRequest' });
export type TwoFactorLoginRequest = z.infer<typeof TwoFactorLoginRequestSchema>;
