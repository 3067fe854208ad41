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
    /** How many passkeys the account has; any one is accepted at sign-in. */
    passkeys: z.number().int(),
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
    /** Which second factors the account has: a code (authenticator app, recovery code), a passkey. */
    methods: z.array(z.enum(['totp', 'passkey'])),
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

// Passkeys (WebAuthn credentials) as a second factor: docs/decisions/033-passkeys.md.

/** A proof asked for before a change in Settings: the current password, or a current code. */
export const CurrentProofSchema = z
  .object({ password: currentPassword.optional(), code: code.optional() })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    message: TWO_FACTOR.wrongCurrentProof,
  })
  .meta({ id: 'CurrentProof' });
export type CurrentProof = z.infer<typeof CurrentProofSchema>;

/**
 * The proof a change to the second factor asks for, in its body; none is needed (`{}`) while the
 * session proved itself in the last 10 minutes (POST /api/auth/sudo).
 */
export const ProofOrSudoSchema = z
  .object({ password: currentPassword.optional(), code: code.optional() })
  .meta({ id: 'ProofOrSudo' });
export type ProofOrSudo = z.infer<typeof ProofOrSudoSchema>;

export const PasskeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    /** When it last signed in; null until it has. */
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({ passkeys: z.array(PasskeySchema) }).meta({ id: 'PasskeyList' });
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

export const PasskeyParamsSchema = z.object({ id: z.string().min(1).max(64) });

/**
 * What the browser's navigator.credentials.create()/get() is called with, as WebAuthn's JSON form
 * (PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON): its challenge
 * answers once, within five minutes.
 */
const webAuthnOptions = z.record(z.string(), z.unknown());

export const PasskeyOptionsSchema = z.object({ options: webAuthnOptions }).meta({ id: 'PasskeyOptions' });
export type PasskeyOptions = z.infer<typeof PasskeyOptionsSchema>;

const base64url = (name: string) =>
  z
    .string({ error: () => `${name} must be base64url text` })
    .min(1, `${name} must be base64url text`)
    .max(16384, `${name} is too long`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${name} must be base64url text`);

/** The browser's answer (PublicKeyCredential.toJSON()), checked for shape here and verified by the server. */
const credentialBase = {
  id: base64url('credential.id'),
  rawId: base64url('credential.rawId'),
  type: z.literal('public-key', { error: () => 'credential.type must be public-key' }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const RegistrationCredentialSchema = z
  .object(
    {
      ...credentialBase,
      response: z.object(
        {
          clientDataJSON: base64url('credential.response.clientDataJSON'),
          attestationObject: base64url('credential.response.attestationObject'),
          transports: z.array(z.string().max(32)).max(8).optional(),
        },
        { error: () => 'credential.response must be an object' },
      ),
    },
    { error: () => TWO_FACTOR.passkeyAnswerRequired },
  )
  .meta({ id: 'PasskeyRegistrationCredential' });

export const AuthenticationCredentialSchema = z
  .object(
    {
      ...credentialBase,
      response: z.object(
        {
          clientDataJSON: base64url('credential.response.clientDataJSON'),
          authenticatorData: base64url('credential.response.authenticatorData'),
          signature: base64url('credential.response.signature'),
          userHandle: base64url('credential.response.userHandle').optional(),
        },
        { error: () => 'credential.response must be an object' },
      ),
    },
    { error: () => TWO_FACTOR.passkeyAnswerRequired },
  )
  .meta({ id: 'PasskeyAuthenticationCredential' });

export const PasskeyRegisterRequestSchema = z
  .object({
    name: z
      .string({ error: (issue) => (issue.input === undefined ? TWO_FACTOR.passkeyNameRequired : 'name must be text') })
      .trim()
      .min(1, TWO_FACTOR.passkeyNameRequired)
      .max(60, TWO_FACTOR.passkeyNameTooLong),
    credential: RegistrationCredentialSchema,
  })
  .meta({ id: 'PasskeyRegisterRequest' });
export type PasskeyRegisterRequest = z.infer<typeof PasskeyRegisterRequestSchema>;

export const PasskeyRegisteredSchema = z
  .object({ passkey: PasskeySchema, status: TwoFactorStatusSchema })
  .meta({ id: 'PasskeyRegistered' });
export type PasskeyRegistered = z.infer<typeof PasskeyRegisteredSchema>;

const loginChallenge = z
  .string({
    error: (issue) => (issue.input === undefined ? TWO_FACTOR.challengeRequired : 'challenge must be text'),
  })
  .min(1, TWO_FACTOR.challengeRequired)
  .max(4096, TWO_FACTOR.challengeInvalid);

export const PasskeyLoginOptionsRequestSchema = z
  .object({ challenge: loginChallenge })
  .meta({ id: 'PasskeyLoginOptionsRequest' });

export const PasskeyLoginRequestSchema = z
  .object({ challenge: loginChallenge, credential: AuthenticationCredentialSchema })
  .meta({ id: 'PasskeyLoginRequest' });
export type PasskeyLoginRequest = z.infer<typeof PasskeyLoginRequestSchema>;

/** "Sign in with a passkey": the passkey's answer alone, for the options POST /api/auth/passkey/options gave. */
export const PasskeySignInRequestSchema = z
  .object({ credential: AuthenticationCredentialSchema })
  .meta({ id: 'PasskeySignInRequest' });
export type PasskeySignInRequest = z.infer<typeof PasskeySignInRequestSchema>;
