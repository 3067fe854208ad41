/**
 * What the app says when a session or a change ends without the user asking for it here. Plain
 * strings in a module of their own, so the browser tests read the same words without the app.
 */

/** The sign-in screen's notice when the session ended elsewhere (another device, a password change, expiry). */
export const SESSION_ENDED_NOTICE = 'You were signed out';

/** A protected change whose "Confirm it is you" dialog was cancelled. */
export const SUDO_CANCELLED_MESSAGE = 'Nothing was changed: it needs you to confirm it is you first.';
