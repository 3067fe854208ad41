import type { SessionInfo } from '@moonrelay/contract/sessions';

/** The sudo dialog's texts: confirming it is you before a protected change. */
export const SUDO_TEXT = {
  title: 'Confirm it is you',
  intro: 'This change needs you to confirm it is you. You will not be asked again for 10 minutes.',
  password: 'Password',
  code: 'Code from your authenticator app, or a recovery code',
  confirm: 'Confirm',
  confirming: 'Confirming...',
  cancel: 'Cancel',
  or: 'or',
  usePasskey: 'Use a passkey',
  proofRequired: 'Enter your password or a code',
  passwordRequired: 'Enter your password',
  codeRequired: 'Enter a code from your authenticator app, or a recovery code',
  wrong: 'That did not confirm it is you. Try again.',
  passkeyFailed: 'The passkey could not be verified. Try again.',
  signInIntro:
    'Your account has no password and no second factor, so the only way to confirm it is you is to sign in again. Sign out, sign in, then make the change within 10 minutes.',
  signInAgain: 'Sign out and sign in again',
} as const;

/** Settings → Sessions. */
export const SESSIONS_TEXT = {
  title: 'Sessions',
  intro: 'The browsers and devices signed in to your account. End any you do not recognise.',
  listLabel: 'Signed-in sessions',
  thisDevice: 'This device',
  end: 'End',
  endLabel: (browser: string) => `End session on ${browser}`,
  endOthers: 'Sign out all other sessions',
  onlyThis: 'No other browser or device is signed in.',
  loadFailed: 'Your sessions could not be loaded.',
  endFailed: 'Could not end the session.',
  endOthersFailed: 'Could not sign out the other sessions.',
  created: (date: string) => `Signed in ${date}`,
  lastUsed: (ago: string) => `Last used ${ago}`,
  from: (address: string) => `from ${address}`,
  signInFrom: (address: string) => `signed in from ${address}`,
  unknownAddress: 'address not recorded',
} as const;

const FIRST_STEP: Record<SessionInfo['signedInWith'], (provider: string) => string> = {
  password: () => 'a password',
  passkey: () => 'a passkey',
  google: (provider) => provider,
  registration: () => 'a new account',
};

const SECOND_STEP: Record<NonNullable<SessionInfo['secondFactor']>, string> = {
  code: 'an authenticator code',
  passkey: 'a passkey',
};

/** "With a password and an authenticator code", "With Google and a passkey", "Signed in by creating the account". */
export function howSignedIn(session: Pick<SessionInfo, 'signedInWith' | 'secondFactor'>, provider: string): string {
  if (session.signedInWith === 'registration') return 'Signed in by creating the account';
  const first = FIRST_STEP[session.signedInWith](provider);
  return session.secondFactor ? `With ${first} and ${SECOND_STEP[session.secondFactor]}` : `With ${first}`;
}

/** Settings → Password. */
export const PASSWORD_TEXT = {
  title: 'Password',
  intro: 'Changing it signs out every other browser and device.',
  setTitle: 'Set a password',
  setIntro:
    'Your account signs in without a password. Set one to sign in with your email or username too; you will be asked to confirm it is you first.',
  current: 'Your current password',
  new: 'New password',
  confirm: 'Confirm new password',
  change: 'Change password',
  set: 'Set password',
  changing: 'Saving...',
  failed: 'Could not change the password.',
} as const;

/** Settings → Profile's email change. */
export const EMAIL_TEXT = {
  change: 'Change email',
  new: 'New email',
  save: 'Save email',
  saving: 'Saving...',
  cancel: 'Cancel',
  failed: 'Could not change the email.',
} as const;

/**
 * What Settings' team cards let one do, as the note under each names it when the member's role in
 * the chosen team does not allow it (the note ends with the permission needed).
 */
export const TEAM_SETTINGS_TEXT = {
  regenerateKey: 'Regenerate the API key',
  apiKeys: 'See, create and revoke API keys',
  notifications: 'See and manage notification destinations',
  openCloud: 'See, set and remove the Open Cloud key',
  /** The API key cards on a team, whose game key is not the person's own. */
  teamKeyDescription:
    'The team’s games and API calls use the team’s game key. It is in the integration script on the Game page; your own key is on your personal account.',
  teamKeyWhere: 'Regenerating replaces the team’s key: its games stop connecting until their script has the new one.',
} as const;
