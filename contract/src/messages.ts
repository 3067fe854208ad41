import { SCHEDULES_PER_USER_MAX } from './constants.ts';

/**
 * A wait as the user reads it, rounded up so that trying at the time said works: "45 seconds",
 * "15 minutes" (up to 90), then hours ("24 hours").
 */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `${whole} second${whole === 1 ? '' : 's'}`;
  const minutes = Math.ceil(whole / 60);
  if (minutes <= 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** A size limit as the user reads it: "1 MiB", "1.5 MiB", "64 KiB". Rounded down, never overstated. */
export function sizeText(bytes: number): string {
  const inUnit = (unit: number) => Math.floor((bytes / unit) * 10) / 10;
  if (bytes >= 1024 * 1024) return `${inUnit(1024 * 1024)} MiB`;
  if (bytes >= 1024) return `${inUnit(1024)} KiB`;
  return `${bytes} bytes`;
}

/**
 * Texts the user reads. Validation messages are spec section 5 word for word; error texts are the
 * documented API error bodies of section 8. Both the server and the web app import them from here.
 */

export const VALIDATION = {
  emailOrUsernameRequired: 'Email or username is required',
  passwordRequired: 'Password is required',
  invalidEmail: 'Invalid email address',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be less than 30 characters',
  usernameCharacters: 'Username can only contain letters, numbers, underscores, and hyphens',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 256 characters',
  passwordsDontMatch: "Passwords don't match",
  emailTooLong: 'Email must be at most 254 characters',
  scriptNameRequired: 'Script name is required',
  scriptNameTooLong: 'Script name must be at most 200 characters',
  scriptDescriptionTooLong: 'Description must be at most 2000 characters',
  scriptCodeRequired: 'Code is required',
  scriptCodeTooLarge: 'Code must be at most 1 MiB',
  scriptUpdateEmpty: 'Nothing to update: send at least one script field',
  executeCodeOrScript: 'Send code or a script name, not both',
  executeScriptTarget: 'A script fetched by name runs in the game that asked for it: leave out target',
  autoExecuteGamesTooMany: 'autoExecuteGames may hold at most 100 games',
  codeRequired: 'code is required',
  codeTooLong: 'code must be at most 2048 characters',
  stateRequired: 'state is required',
  stateTooLong: 'state must be at most 2048 characters',
  redirectUriRequired: 'redirectUri is required',
  redirectUriInvalid: 'redirectUri must be an http:// or https:// URL of at most 2048 characters',
} as const;

export const ERRORS = {
  authenticationFailed: 'Authentication failed',
  invalidApiKey: 'Invalid API key',
  invalidCredentials: 'Invalid credentials',
  scriptNotFound: 'Script not found',
  gameNotConnected: 'Game not connected',
  adminsOnly: 'Admins only',
  lastAdmin: 'The last admin cannot be demoted',
  userNotFound: 'User not found',
  sessionRequired: 'This action needs a signed-in session; an API key cannot be used for it',
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  tooManyRequests: 'Too many requests. Please slow down and try again shortly.',
  /** Says when the lockout ends: the seconds of the answer's Retry-After. */
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    `Too many failed login attempts. Try again in ${waitText(retryAfterSeconds)}.`,
  malformedHost: 'Malformed Host header',
  hostNotServed:
    'This address is not one Moonrelay serves its scripts at: set PUBLIC_URL (or add the host to PUBLIC_HOSTS)',
  tooManyRegistrations: (retryAfterSeconds: number) =>
    `Too many accounts were created from this address. Try again in ${waitText(retryAfterSeconds)}.`,
  malformedJson: 'Malformed JSON in request body',
  /**
   * Names the route's limit; a route that carries a script's code also names the code's own limit,
   * which is the one a person can act on (the body adds the other fields and JSON escaping).
   */
  bodyTooLarge: (limitBytes?: number, codeMaxBytes?: number) =>
    limitBytes === undefined
      ? 'Request body is too large'
      : `Request body is too large: the limit is ${sizeText(limitBytes)}` +
        (codeMaxBytes === undefined ? '' : ` (a script's code may be up to ${sizeText(codeMaxBytes)})`),
  bodyNotJson: 'Request body must be JSON (Content-Type: application/json)',
  bodyNotObject: 'Request body must be a JSON object',
  /** Prefixed with the field's name ("name: ..."); PostgreSQL cannot store U+0000 and no field has a use for it. */
  textHasNul: 'Text must not contain the NUL character (U+0000)',
  notFound: 'Not found',
  internal: 'Internal server error',
  /** The database connection was lost (a restart or failover); the request did not happen and may be retried. */
  databaseUnavailable: 'The database is unavailable right now. Please try again shortly.',
  /** Redis (the scale-out mode's shared state) is away; the request did not happen and may be retried. */
  serviceUnavailable: 'Moonrelay is briefly unavailable. Please try again shortly.',
  luaSyntaxPrefix: 'Lua syntax error: ',
  identityProviderNotConfigured: 'Sign-in with an identity provider is not configured on this server',
  identityProviderUnavailable: 'The identity provider could not be reached. Please try again later.',
  redirectUriNotCallback: "redirectUri must be this site's /auth/callback address",
  signInStateInvalid: 'This sign-in attempt has expired or was already used. Please start again.',
  signInStateRedirectMismatch: 'redirectUri does not match the one this sign-in attempt started with',
  authorizationCodeRefused: 'The identity provider did not accept the authorization code',
  idTokenRefused: 'The ID token from the identity provider was refused',
  identityEmailMissing: 'The identity provider did not share a verified email address',
  identityEmailTaken:
    'An account with this email already exists. Sign in with your password, then link this sign-in method in Settings.',
  identityLinkedElsewhere: 'This identity is already linked to another Moonrelay account',
  identityAlreadyLinked: 'This account is already linked to an identity; unlink it first',
  identityNotLinked: 'This account is not linked to an identity provider',
  identityUnlinkNeedsPassword: 'This account has no password: unlinking would leave no way to sign in',
  massExecutionNotFound: 'Mass execution not found',
  /** A claimed part whose job stopped (its worker died) before the command or run was created. */
  massPartNeverSent: 'The worker running this part stopped before sending it; it was not sent',
  massPartNeverTaken: 'No worker took this part (the job queue lost it, as a Redis restart does); it was not sent',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 200 printable characters',
  idempotencyKeyInProgress: 'A request with this Idempotency-Key is still in progress',
  idempotencyKeyAbandoned:
    'The first request with this Idempotency-Key never finished (the server stopped while it ran). Check whether it took effect, then retry with a new key.',
  idempotencyKeyReused: 'Idempotency-Key was used with a different request',
  gameNotConnectedInstructions:
    'Connect your game first: enable HTTP requests (Game Settings > Security), add the Moonrelay integration script to a server Script, and start the game.',
} as const;

/** What a run answers besides its output, and the output pane's words for it. */
export const RUN_HINTS = {
  /** A plain sandbox run failed on a global that the dry run emulates. */
  dryRun: (global: string) => `${global} is part of Roblox, not plain Lua: Roblox APIs are available in a dry run.`,
  dryRunButton: 'Dry run this code',
} as const;

/** The sign-in screen. */
export const SIGN_IN = {
  /** On a fresh instance, over the Register form it opens on. */
  firstAccountNote: 'No account exists yet: the first account you create becomes the admin of this Moonrelay.',
} as const;

/** Schedules (scheduled runs of a saved script). */
export const SCHEDULE_ERRORS = {
  /** A team's schedule whose maker may no longer run code there: its due times are skipped. */
  makerMayNotRun:
    'Skipped: the member who set this schedule can no longer run code here (they left, or their role changed). Save the schedule again to run it as yourself.',
  notFound: 'Schedule not found',
  cronInvalid:
    'cron: not a cron expression; use five fields (minute hour day-of-month month day-of-week), e.g. 30 2 * * *',
  cronNeverRuns: 'cron: this expression never comes round (no such date)',
  cronRequired: 'cron is required for a cron schedule',
  intervalRequired: 'intervalSeconds is required for an interval schedule',
  intervalTooShort: 'intervalSeconds: a schedule runs at most once every {min} seconds',
  timeZoneUnknown: 'timeZone: not a known time zone; use an IANA name such as Europe/Berlin or UTC',
  serverIdRequired: 'serverId is required when the target is one game server',
  serverIdNotAllowed: 'serverId is only for the target "server"',
  tooMany: `You can have at most ${SCHEDULES_PER_USER_MAX} schedules; delete one first`,
  updateEmpty: 'Nothing to update: send at least one schedule field',
  /** A due run the execution budget refused. */
  budgetUsedUp: 'Skipped: the execution budget for this minute was used up',
} as const;

/** The script catalogue's answers (the proxy and the long-script loader). */
/** The game's own health, on the Game panel. */
export const GAME_HEALTH = {
  studioBadge: 'Studio',
  studioBadgeHint: "Roblox Studio: Play, or a Test > Start local server's test players",
  studioTestPlayer: 'A Studio test player has no Roblox profile.',
  pingsRefused: "Your game's pings are refused",
  serverBudget: 'Your game has more servers than its API key allows',
  serverBudgetHint:
    'Game servers past the budget are refused until others stop. An administrator of this Moonrelay can raise GAME_MAX_SERVERS_PER_KEY and GAME_NEW_SERVERS_PER_KEY_PER_MINUTE.',
  pingsRefusedHint:
    'Moonrelay refused what this game server sent, so it cannot connect. Copy the integration script again from the Integration panel and restart the game.',
} as const;

export const CATALOGUE_ERRORS = {
  unavailable: 'Script catalogue unavailable',
  busy: 'Script catalogue is busy. Please try again shortly.',
  scriptNotFound: 'Catalogue script not found',
  scriptTooLarge: 'This catalogue script is larger than 1 MiB and cannot be imported',
  invalidScriptToken: 'Invalid or revoked script token',
  scriptTokenExpired: 'This loader URL has expired: keep the script again for a new one',
  keptScriptGone: 'This long script was deleted or never kept',
  noApiKey: 'No API key: regenerate your API key in Settings first',
} as const;

/** Two-factor sign-in: the API's answers and the texts of Settings and the sign-in screen. */
export const TWO_FACTOR = {
  // Errors
  wrongPassword: 'The current password is not right',
  wrongCurrentProof: 'Send your current password or a code from your authenticator app',
  wrongProof: 'That is neither your current password nor a current code',
  noPasswordToConfirm:
    'This account has no password: two-factor sign-in protects a password, so it cannot be set up here',
  alreadyOn: 'Two-factor sign-in is already on; turn it off first to set it up again',
  notOn: 'Two-factor sign-in is not on for this account',
  noPendingSetup: 'Start the setup first: no authenticator secret is waiting for a code',
  wrongSetupCode: 'That code is not right. Check the time on your phone and type the current code.',
  wrongCode: 'That code is not right, or it was already used',
  challengeInvalid: 'This sign-in has expired. Please sign in with your password again.',
  adminSetupRequired:
    'Admins must turn on two-factor sign-in before using the admin pages: set it up in Settings > Two-factor sign-in',
  // Validation
  codeRequired: 'Enter the code from your authenticator app, or a recovery code',
  challengeRequired: 'challenge is required',
  codeTooLong: 'code must be at most 32 characters',
  // Settings card
  cardTitle: 'Two-factor sign-in',
  cardIntro:
    'After your password, Moonrelay asks for a code from an authenticator app (Google Authenticator, 1Password, Aegis and the like).',
  statusOn: 'On',
  statusOff: 'Off',
  recoveryCodesLeft: (count: number) => `${count} of 10 recovery codes left`,
  setUp: 'Set up two-factor sign-in',
  setUpApp: 'Add an authenticator app',
  currentPassword: 'Current password',
  continue: 'Continue',
  scanQr: 'Scan this QR code with your authenticator app, or type the key below into it.',
  manualKey: 'Key for manual entry',
  qrAlt: 'QR code to add Moonrelay to an authenticator app',
  confirmCode: 'Code from the app',
  confirm: 'Turn on',
  cancel: 'Cancel',
  recoveryTitle: 'Your recovery codes',
  recoveryIntro:
    'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  copyCodes: 'Copy codes',
  codesCopied: 'Recovery codes copied',
  downloadCodes: 'Download codes',
  savedCodes: 'I have saved them',
  turnOff: 'Turn off two-factor sign-in',
  turnOffProof: 'Current password, a code from your app, or a recovery code',
  turnedOn: 'Two-factor sign-in is on',
  turnedOff: 'Two-factor sign-in is off',
  adminRequiredNotice: 'This server requires admins to use two-factor sign-in. Set it up to use the admin pages.',
  // Sign-in screen
  stepTitle: 'Two-factor sign-in',
  stepIntro: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  stepCode: 'Code',
  stepSubmit: 'Verify',
  stepBack: 'Back to sign in',
  // Passkeys
  passkeyAnswerRequired: 'credential is required: the answer of navigator.credentials',
  passkeyNameRequired: 'Give the passkey a name',
  passkeyNameTooLong: 'name must be at most 60 characters',
  passkeyNotVerified: 'The passkey could not be verified. Try again from the start.',
  passkeyChallengeExpired: 'This passkey request has expired or was already used. Try again from the start.',
  passkeyUnknown: 'That passkey is not registered to this account',
  passkeyUnknownAnywhere: 'That passkey is not registered with Moonrelay. Sign in with your password.',
  signInWithPasskey: 'Sign in with a passkey',
  passkeyAlreadyRegistered: 'That passkey is already registered',
  passkeyNotFound: 'Passkey not found',
  passkeyNone: 'This account has no passkey',
  passkeyNeedsProof: 'Add a password or an authenticator app first: a passkey is asked for after one of them',
  passkeysTitle: 'Passkeys',
  passkeysIntro: 'A passkey on this device or a security key can stand in for the code after your password.',
  passkeysNone: 'No passkeys yet.',
  addPasskey: 'Add a passkey',
  passkeyName: 'Name for this passkey',
  passkeyNamePlaceholder: 'e.g. Laptop fingerprint',
  passkeyProof: 'Current password, a code from your app, or a recovery code',
  passkeyCreate: 'Create passkey',
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  removePasskey: 'Remove',
  removePasskeyTitle: (name: string) => `Remove the passkey "${name}"?`,
  passkeyCreated: (date: string) => `Added ${date}`,
  passkeyLastUsed: (date: string) => `last used ${date}`,
  passkeyNeverUsed: 'never used',
  passkeyCancelled: 'The passkey request was cancelled or timed out.',
  passkeyUnsupported: 'This browser cannot use passkeys here.',
  stepUsePasskey: 'Use a passkey',
  stepIntroPasskey: 'Confirm it is you with one of your passkeys.',
  // Admin reset
  adminResetTitle: 'Reset two-factor sign-in',
  adminResetConfirm: (name: string) =>
    `Remove ${name}'s authenticator app, recovery codes and passkeys? They sign in with the password alone until they set two-factor up again.`,
  adminResetDone: 'Two-factor sign-in reset',
  adminResetNothing: 'This user has no two-factor sign-in to reset',
} as const;

/** Sessions, sudo mode and password change. */
export const SESSIONS = {
  sudoRequired:
    'Confirm it is you first: this change needs your password, a code or a passkey from the last 10 minutes (POST /api/auth/sudo)',
  sudoRequiredSignIn:
    'Confirm it is you first: this account has no password or second factor, so sign in again and make the change within 10 minutes',
  sudoProofRequired: 'Send your password or a code from your authenticator app',
  sessionNotFound: 'No such session of yours: it may have ended already',
  endedOne: 'Session ended: that device is signed out.',
  endedOthers: (count: number) =>
    count === 0 ? 'No other session was signed in.' : `Signed out ${count} other session${count === 1 ? '' : 's'}.`,
  passwordChanged: (others: number) =>
    others === 0
      ? 'Password changed.'
      : `Password changed. ${others} other session${others === 1 ? ' was' : 's were'} signed out.`,
  samePassword: 'The new password is the one you have now: choose another',
  noCurrentPassword:
    'This account has no password yet: leave the current password out and confirm it is you (POST /api/auth/sudo) to set one',
  wrongCurrentPassword: 'The current password is not right',
  emailChanged: 'Email changed.',
  sameEmail: 'That is the email you have now',
} as const;
