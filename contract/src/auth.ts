import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  OIDC_FIELD_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants.ts';
import { VALIDATION } from './messages.ts';
import { IsoDateTimeSchema } from './common.ts';

/** A required text field whose "missing" and "not text" answers name the field. */
const text = (label: string, required: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? required : `${label} must be text`) });

export const LoginRequestSchema = z
  .object({
    emailOrUsername: text('Email or username', VALIDATION.emailOrUsernameRequired)
      .trim()
      .min(1, VALIDATION.emailOrUsernameRequired)
      .max(EMAIL_MAX_LENGTH, VALIDATION.emailTooLong),
    password: text('Password', VALIDATION.passwordRequired)
      .min(1, VALIDATION.passwordRequired)
      .max(PASSWORD_MAX_LENGTH, VALIDATION.passwordTooLong),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

// Trimmed before the address check; the format is restated for the OpenAPI document, which sees only the input side.
export const EmailSchema = text('Email', 'Email is required')
  .trim()
  .max(EMAIL_MAX_LENGTH, VALIDATION.emailTooLong)
  .pipe(z.email(VALIDATION.invalidEmail))
  .meta({ format: 'email' });

export const UsernameSchema = text('Username', 'Username is required')
  .trim()
  .min(USERNAME_MIN_LENGTH, VALIDATION.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, VALIDATION.usernameTooLong)
  .regex(/^[A-Za-z0-9_-]+$/, VALIDATION.usernameCharacters);

export const PasswordSchema = text('Password', VALIDATION.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, VALIDATION.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, VALIDATION.passwordTooLong);

const registerFields = {
  email: EmailSchema,
  username: UsernameSchema,
  name: text('Name', VALIDATION.nameRequired)
    .trim()
    .min(1, VALIDATION.nameRequired)
    .max(NAME_MAX_LENGTH, VALIDATION.nameTooLong),
  password: PasswordSchema,
};

/** What the server accepts: confirmPassword is never sent. */
export const RegisterRequestSchema = z.object(registerFields).meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

/** What the register form checks before sending. */
export const RegisterFormSchema = z
  .object({ ...registerFields, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: VALIDATION.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof RegisterFormSchema>;

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    googleId: z.string().nullable(),
    apiKey: z.string().nullable(),
    createdAt: IsoDateTimeSchema,
    isAdmin: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

export const AuthResponseSchema = z.object({ token: z.string(), user: UserSchema }).meta({ id: 'AuthResponse' });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const RegenerateKeyResponseSchema = z
  .object({ apiKey: z.string(), user: UserSchema })
  .meta({ id: 'RegenerateKeyResponse' });
export type RegenerateKeyResponse = z.infer<typeof RegenerateKeyResponseSchema>;

// Sign-in with an OpenID Connect identity provider (Google by default); docs/decisions/012.

/** Which identity-provider buttons the sign-in screen enables, and what they are called. */
export const AuthProvidersSchema = z
  .object({
    google: z.object({ enabled: z.boolean(), name: z.string() }),
    firstAccount: z.boolean().meta({
      description:
        'True while no account exists: the next one registered becomes the admin, so the sign-in screen opens on Register',
    }),
  })
  .meta({ id: 'AuthProviders' });
export type AuthProviders = z.infer<typeof AuthProvidersSchema>;

const redirectUri = text('redirectUri', VALIDATION.redirectUriRequired)
  .max(OIDC_FIELD_MAX_LENGTH, VALIDATION.redirectUriInvalid)
  .regex(/^https?:\/\/[^\s]+$/, VALIDATION.redirectUriInvalid);

/** Starts an authorization request: the server answers the provider URL to send the browser to. */
export const OidcStartRequestSchema = z.object({ redirectUri }).meta({ id: 'OidcStartRequest' });
export type OidcStartRequest = z.infer<typeof OidcStartRequestSchema>;

export const OidcStartResponseSchema = z
  .object({
    /** The provider's authorization endpoint with client_id, redirect_uri, state, nonce and the PKCE challenge. */
    authorizationUrl: z.string(),
    /** Also in the URL; the browser keeps it to check the callback comes back to the tab that started. */
    state: z.string(),
  })
  .meta({ id: 'OidcStartResponse' });
export type OidcStartResponse = z.infer<typeof OidcStartResponseSchema>;

/** What /auth/callback sends back: the provider's code and state, and the redirect URI they were issued for. */
export const OidcCallbackRequestSchema = z
  .object({
    code: text('code', VALIDATION.codeRequired)
      .min(1, VALIDATION.codeRequired)
      .max(OIDC_FIELD_MAX_LENGTH, VALIDATION.codeTooLong),
    redirectUri,
    state: text('state', VALIDATION.stateRequired)
      .min(1, VALIDATION.stateRequired)
      .max(OIDC_FIELD_MAX_LENGTH, VALIDATION.stateTooLong),
  })
  .meta({ id: 'OidcCallbackRequest' });
export type OidcCallbackRequest = z.infer<typeof OidcCallbackRequestSchema>;

/** How the signed-in user can sign in: with a password, with the identity provider, or both. */
export const SignInMethodsSchema = z
  .object({
    password: z.boolean(),
    google: z.object({ enabled: z.boolean(), name: z.string(), googleId: z.string().nullable() }),
  })
  .meta({ id: 'SignInMethods' });
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;
