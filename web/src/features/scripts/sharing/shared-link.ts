/**
 * A shared script's page: `/shared/<token>`, open signed in or not. Plain values only: the app's
 * first module reads the path to tell this page from the sign-in screen, and stays without zod
 * (docs/decisions/041).
 */
export const SHARED_SCRIPT_PATH = '/shared/:token';

/** The link a share is known by, shown once when it is made: the token is its only copy. */
export const sharedScriptLink = (token: string) => `${location.origin}/shared/${encodeURIComponent(token)}`;
