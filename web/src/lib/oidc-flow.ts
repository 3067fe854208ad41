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
}

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
) {
  sessionStorage.setItem(FLOW_KEY, JSON.stringify({ state, purpose } satisfies PendingFlow));
  browserNavigation.assign(authorizationUrl);
}

/** The attempt this tab started, left in place; null when there is none (or it is unreadable). */
export function peekFlow(): PendingFlow | null {
  const raw = sessionStorage.getItem(FLOW_KEY);
  if (!raw) return null;
  try {
    const flow = JSON.parse(raw) as Partial<PendingFlow>;
    if (typeof flow.state !== 'string' || (flow.purpose !== 'sign-in' && flow.purpose !== 'link')) return null;
    return { state: flow.state, purpose: flow.purpose };
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
