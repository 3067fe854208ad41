import { OIDC_CALLBACK_PATH } from '@moonrelay/contract/constants';

/**
 * The browser's side of the identity-provider round trip (docs/decisions/012). The server answers
 * the provider's authorization URL and its state; this tab keeps the state in sessionStorage and
 * /auth/callback accepts only an answer whose state is the one kept here. So a callback link made
 * elsewhere (someone else's code, to sign this browser in as them) or opened in another tab is
 * refused before anything is sent, and each answer is handled once.
 */
const FLOW_KEY = 'oidcFlow';

export type OidcPurpose = 'sign-in' | 'link';

export interface PendingFlow {
  state: string;
  purpose: OidcPurpose;
  /** Where a sign-in goes once done, when it began on a link that only works signed in. */
  returnTo?: string;
}

/**
 * Where a sign-in begun at this address goes once done. The spec sends every sign-in to
 * /dashboard; a link that only works signed in (an invitation to a team, a shared script to copy)
 * is where the visitor was going, so it is kept instead, by a password or a provider's sign-in
 * alike. Only those paths: a sign-in never sends anyone to an address a link chose.
 */
export function signInDestination(pathname: string, search = ''): string {
  return returnPathOf(pathname, search) ?? '/dashboard';
}

/** The address a sign-in begun here returns to, when it is one that only works signed in. */
export function returnPathOf(pathname: string, search = ''): string | undefined {
  return isReturnable(pathname) ? `${pathname}${search}` : undefined;
}

const isReturnable = (path: string) => /^\/(join(\?|$)|shared\/)/.test(path);

/** Where the provider sends the browser back: this origin's /auth/callback (spec section 7). */
export const callbackUrl = (): string => `${window.location.origin}${OIDC_CALLBACK_PATH}`;

/** Leaving the app for the provider; an object so component tests can stand in for the navigation. */
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** Remembers the attempt in this tab, then sends the browser to the provider. */
export function beginFlow(
  purpose: OidcPurpose,
  { authorizationUrl, state }: { authorizationUrl: string; state: string },
  returnTo?: string,
) {
  sessionStorage.setItem(FLOW_KEY, JSON.stringify({ state, purpose, returnTo } satisfies PendingFlow));
  browserNavigation.assign(authorizationUrl);
}

/** The attempt this tab started, left in place; null when there is none (or it is unreadable). */
export function peekFlow(): PendingFlow | null {
  const raw = sessionStorage.getItem(FLOW_KEY);
  if (!raw) return null;
  try {
    const flow = JSON.parse(raw) as Partial<PendingFlow>;
    if (typeof flow.state !== 'string' || (flow.purpose !== 'sign-in' && flow.purpose !== 'link')) return null;
    // Read back as strictly as it was written: an entry changed in between sends nobody elsewhere.
    const returnTo = typeof flow.returnTo === 'string' && isReturnable(flow.returnTo) ? flow.returnTo : undefined;
    return { state: flow.state, purpose: flow.purpose, ...(returnTo ? { returnTo } : {}) };
  } catch {
    // A corrupted entry is the same as none: the callback is refused and the user starts again.
    return null;
  }
}

/** The attempt this tab started, forgotten as it is read: an answer from the provider is handled once. */
export function takeFlow(): PendingFlow | null {
  const flow = peekFlow();
  sessionStorage.removeItem(FLOW_KEY);
  return flow;
}
